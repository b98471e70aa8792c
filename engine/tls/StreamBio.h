#pragma once
// The BIO between a TlsStream's SSL object and its caller's bytes: a memory BIO of our own, with
// no socket. OpenSSL reads records straight from the bytes the caller passed to feed() (no copy
// into a BIO_s_mem first), and what it writes is appended to the QByteArray that
// takeCiphertext() hands over whole (no copy out of a BIO_s_mem after).

#include <openssl/bio.h>

#include <QByteArray>

#include <cstddef>

namespace hourglass::tls {

// The bytes one BIO reads and writes. It must outlive the BIO.
struct StreamBytes {
    // The rest of the ciphertext being fed; empty between feed() calls, when a read asks OpenSSL
    // to retry later (WANT_READ).
    const char* input = nullptr;
    std::size_t inputLeft = 0;
    // What OpenSSL wrote, for takeCiphertext(). Writes always succeed: the caller bounds it
    // (TlsStream::buffered()).
    QByteArray output;
};

// A new BIO over `bytes`, for SSL_set_bio as both the read and the write BIO; null when OpenSSL
// cannot allocate it.
BIO* newStreamBio(StreamBytes* bytes);

} // namespace hourglass::tls
