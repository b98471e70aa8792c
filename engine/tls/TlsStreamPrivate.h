#pragma once
// A TlsStream's state: its SSL object, the bytes its BIOs read and write (StreamBio.h), and what
// the session has come to. TlsStream.cpp drives it; TlsServerContext.cpp's SNI callback reaches
// it through SSL_get_app_data.

#include "StreamBio.h"
#include "hourglass/tls/TlsStream.h"

#include <openssl/ssl.h>

namespace hourglass::tls {

struct TlsStream::Private {
    std::shared_ptr<const TlsServerContext> context;
    SSL* ssl = nullptr; // owns its two BIOs, which point at `bytes`
    StreamBytes bytes;
    QByteArray plaintext; // decrypted, not yet taken
    QByteArray held;      // written before the handshake was done
    qint64 ciphertextTaken = 0;
    QString error;
    QString serverName;
    bool handshakeDone = false;
    bool failed = false;
    bool peerClosed = false;
    bool closed = false;

    ~Private();
    // From the SNI callback, during the handshake: the client's bytes, kept printable.
    void recordServerName(const char* name);

    // Each returns false once the session has failed.
    bool advanceHandshake();
    bool readRecords();
    bool encrypt(QByteArrayView plaintext);
    // `result` is what an SSL call returned (<= 0).
    bool fail(int result);
};

} // namespace hourglass::tls
