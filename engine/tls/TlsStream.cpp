// One server session over bytes: the handshake, then records both ways (TlsStream.h). Every
// OpenSSL call starts with an empty error queue, and leaves it empty, because the queue belongs to
// the thread and the thread serves every other connection too.

#include "TlsFailure.h"
#include "TlsServerContextPrivate.h"
#include "TlsStreamPrivate.h"

#include <openssl/err.h>

#include <algorithm>
#include <utility>

namespace hourglass::tls {

namespace {

// The most plaintext one record carries, which is also the most one SSL_read returns.
constexpr qsizetype kRecordPlaintext = 16 * 1024;
// A record's bytes beyond its plaintext (header, padding, tag), with room to spare.
constexpr qsizetype kRecordOverhead = 64;
// The longest host name DNS allows; a longer SNI name is cut for the log.
constexpr qsizetype kMaxServerName = 255;

} // namespace

TlsStream::Private::~Private() {
    SSL_free(ssl);
}

void TlsStream::Private::recordServerName(const char* name) {
    serverName.clear();
    for (qsizetype i = 0; name && name[i] && i < kMaxServerName; ++i) {
        const char c = name[i];
        serverName.append(c > ' ' && c < 127 ? QChar::fromLatin1(c) : QChar(u'?'));
    }
}

bool TlsStream::Private::fail(int result) {
    const int sslError = SSL_get_error(ssl, result);
    const unsigned long openSslError = ERR_peek_error();
    ERR_clear_error();
    failed = true;
    error = describeTlsFailure(sslError, openSslError, !handshakeDone);
    held.clear();
    // OpenSSL sends no alert to bytes that were never TLS; such a peer learns it too, in the
    // plaintext record layer nothing else has been sent in yet.
    if (isNotTls(openSslError) && ciphertextTaken == 0 && bytes.output.isEmpty())
        bytes.output = plaintextFatalAlert();
    return false;
}

bool TlsStream::Private::advanceHandshake() {
    ERR_clear_error();
    const int result = SSL_do_handshake(ssl);
    if (result == 1) {
        handshakeDone = true;
        return held.isEmpty() || encrypt(std::exchange(held, {}));
    }
    switch (SSL_get_error(ssl, result)) {
    case SSL_ERROR_WANT_READ: // every byte fed is consumed; the rest of the flight comes later
        ERR_clear_error();
        return true;
    case SSL_ERROR_ZERO_RETURN: // a close_notify before the handshake ended
        ERR_clear_error();
        peerClosed = true;
        return true;
    default:
        return fail(result);
    }
}

bool TlsStream::Private::readRecords() {
    for (;;) {
        // Decrypted straight into the buffer takePlaintext() hands over.
        const qsizetype used = plaintext.size();
        plaintext.resize(used + kRecordPlaintext);
        std::size_t read = 0;
        ERR_clear_error();
        const int result = SSL_read_ex(ssl, plaintext.data() + used,
                                       static_cast<std::size_t>(kRecordPlaintext), &read);
        plaintext.resize(used + static_cast<qsizetype>(read));
        if (result == 1)
            continue;
        // No room kept for a quiet connection: a feed without whole records cost no memory.
        if (plaintext.isEmpty())
            plaintext = QByteArray();
        switch (SSL_get_error(ssl, result)) {
        case SSL_ERROR_WANT_READ: // every whole record is read, the input is used up
            ERR_clear_error();
            return true;
        case SSL_ERROR_ZERO_RETURN:
            ERR_clear_error();
            peerClosed = true;
            return true;
        default:
            return fail(result);
        }
    }
}

bool TlsStream::Private::encrypt(QByteArrayView data) {
    // One allocation for all the records, not one per record.
    const qsizetype records = data.size() / kRecordPlaintext + 1;
    bytes.output.reserve(bytes.output.size() + data.size() + records * kRecordOverhead);
    // The BIO never makes OpenSSL wait, so each SSL_write_ex writes everything it is given, in
    // records of up to 16 KiB (OpenSSL's maximum fragment length).
    while (!data.isEmpty()) {
        const qsizetype chunk = std::min<qsizetype>(data.size(), 1 << 30);
        std::size_t written = 0;
        ERR_clear_error();
        const int result =
            SSL_write_ex(ssl, data.data(), static_cast<std::size_t>(chunk), &written);
        if (result != 1)
            return fail(result);
        data = data.sliced(static_cast<qsizetype>(written));
    }
    return true;
}

TlsStream::TlsStream(std::shared_ptr<const TlsServerContext> context)
    : d(std::make_unique<Private>()) {
    d->context = std::move(context);
    SSL_CTX* sslContext = d->context ? d->context->d->context.get() : nullptr;
    d->ssl = sslContext ? SSL_new(sslContext) : nullptr;
    BIO* input = d->ssl ? newStreamBio(&d->bytes) : nullptr;
    BIO* output = input ? newStreamBio(&d->bytes) : nullptr;
    if (!output) {
        BIO_free(input);
        ERR_clear_error();
        d->failed = true;
        d->error =
            QStringLiteral("The TLS session could not start: OpenSSL could not allocate it.");
        return;
    }
    SSL_set0_rbio(d->ssl, input);
    SSL_set0_wbio(d->ssl, output);
    SSL_set_app_data(d->ssl, d.get());
    SSL_set_accept_state(d->ssl);
}

TlsStream::~TlsStream() = default;

bool TlsStream::feed(QByteArrayView ciphertext) {
    if (d->failed)
        return false;
    if (d->peerClosed || ciphertext.isEmpty())
        return true;
    d->bytes.input = ciphertext.data();
    d->bytes.inputLeft = static_cast<std::size_t>(ciphertext.size());
    bool ok = true;
    if (!d->handshakeDone)
        ok = d->advanceHandshake();
    // A client's first data can follow its Finished in the same bytes.
    if (ok && d->handshakeDone && !d->peerClosed)
        ok = d->readRecords();
    d->bytes.input = nullptr;
    d->bytes.inputLeft = 0;
    return ok;
}

QByteArray TlsStream::takePlaintext() {
    return std::exchange(d->plaintext, {});
}

void TlsStream::write(QByteArrayView plaintext) {
    if (d->failed || d->closed || plaintext.isEmpty())
        return;
    if (!d->handshakeDone)
        d->held.append(plaintext);
    else
        d->encrypt(plaintext);
}

QByteArray TlsStream::takeCiphertext() {
    d->ciphertextTaken += d->bytes.output.size();
    return std::exchange(d->bytes.output, {});
}

bool TlsStream::handshakeDone() const {
    return d->handshakeDone;
}

bool TlsStream::failed() const {
    return d->failed;
}

QString TlsStream::error() const {
    return d->error;
}

QString TlsStream::serverName() const {
    return d->serverName;
}

QString TlsStream::protocolVersion() const {
    return d->handshakeDone ? QString::fromLatin1(SSL_get_version(d->ssl)) : QString();
}

bool TlsStream::peerClosed() const {
    return d->peerClosed;
}

void TlsStream::close() {
    if (d->closed || d->failed)
        return;
    d->closed = true;
    d->held.clear();
    if (!d->handshakeDone)
        return;
    ERR_clear_error();
    // 0 when our close_notify is queued and the peer's has not come yet, 1 when it has: either
    // way nothing more is to be done here (the caller closes the connection).
    SSL_shutdown(d->ssl);
    ERR_clear_error();
}

qsizetype TlsStream::buffered() const {
    return d->plaintext.size() + d->bytes.output.size() + d->held.size();
}

} // namespace hourglass::tls
