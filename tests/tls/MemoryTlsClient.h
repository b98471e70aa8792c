#pragma once
// A TLS client made with OpenSSL over memory BIOs, for the TlsStream tests: it verifies the
// server against a CA file with a host name check, as the SDKs do, and its bytes are moved to and
// from a TlsStream by the test (pump), in pieces of the size the test chooses.

#include "hourglass/tls/TlsStream.h"

#include <openssl/err.h>
#include <openssl/ssl.h>

#include <QByteArray>
#include <QRandomGenerator>
#include <QString>

#include <algorithm>
#include <utility>

namespace hourglass::tls::test {

class MemoryTlsClient {
public:
    // `caFile` empty: a client that trusts nothing (the default store is not loaded either).
    // `version`: TLS1_2_VERSION or TLS1_3_VERSION, the only one offered; 0 for any.
    MemoryTlsClient(const QString& caFile, const char* hostName, int version = 0) {
        m_context = SSL_CTX_new(TLS_client_method());
        SSL_CTX_set_verify(m_context, SSL_VERIFY_PEER, nullptr);
        if (!caFile.isEmpty())
            SSL_CTX_load_verify_locations(m_context, caFile.toLocal8Bit().constData(), nullptr);
        if (version != 0) {
            if (version < TLS1_2_VERSION)
                SSL_CTX_set_cipher_list(m_context, "DEFAULT:@SECLEVEL=0");
            SSL_CTX_set_min_proto_version(m_context, version);
            SSL_CTX_set_max_proto_version(m_context, version);
        }
        m_ssl = SSL_new(m_context);
        m_in = BIO_new(BIO_s_mem());
        m_out = BIO_new(BIO_s_mem());
        SSL_set_bio(m_ssl, m_in, m_out);
        SSL_set_tlsext_host_name(m_ssl, hostName);
        SSL_set1_host(m_ssl, hostName);
        SSL_set_connect_state(m_ssl);
        drive();
    }
    ~MemoryTlsClient() {
        SSL_free(m_ssl);
        SSL_CTX_free(m_context);
    }
    MemoryTlsClient(const MemoryTlsClient&) = delete;
    MemoryTlsClient& operator=(const MemoryTlsClient&) = delete;

    void feed(QByteArrayView ciphertext) {
        if (!ciphertext.isEmpty())
            BIO_write(m_in, ciphertext.data(), int(ciphertext.size()));
        drive();
    }
    QByteArray takeCiphertext() {
        char* data = nullptr;
        const long size = BIO_get_mem_data(m_out, &data);
        QByteArray bytes(data, qsizetype(size));
        (void)BIO_reset(m_out);
        return bytes;
    }
    void write(QByteArrayView plaintext) {
        size_t written = 0;
        if (SSL_write_ex(m_ssl, plaintext.data(), size_t(plaintext.size()), &written) != 1)
            m_failed = true;
        ERR_clear_error();
    }
    void close() {
        SSL_shutdown(m_ssl);
        ERR_clear_error();
    }
    // TLS 1.2: asks the server for a new handshake on this connection.
    void renegotiate() {
        if (SSL_renegotiate(m_ssl) != 1 || SSL_do_handshake(m_ssl) == 1)
            m_failed = true; // a handshake needs the server's answer first
        m_lastError = ERR_peek_error();
        ERR_clear_error();
    }
    // The reason of OpenSSL's last error on this client.
    int lastReason() const { return ERR_GET_REASON(m_lastError); }
    QByteArray takePlaintext() { return std::exchange(m_plaintext, {}); }
    bool handshakeDone() const { return SSL_is_init_finished(m_ssl); }
    bool failed() const { return m_failed; }
    bool peerClosed() const { return m_peerClosed; }
    long verifyResult() const { return SSL_get_verify_result(m_ssl); }
    QString protocol() const { return QString::fromLatin1(SSL_get_version(m_ssl)); }

private:
    void drive() {
        if (m_failed)
            return;
        if (!SSL_is_init_finished(m_ssl)) {
            const int result = SSL_do_handshake(m_ssl);
            if (result != 1) {
                noteError(result);
                return;
            }
        }
        char buffer[16384];
        for (;;) {
            size_t read = 0;
            const int result = SSL_read_ex(m_ssl, buffer, sizeof buffer, &read);
            if (result != 1) {
                noteError(result);
                return;
            }
            m_plaintext.append(buffer, qsizetype(read));
        }
    }
    void noteError(int result) {
        const int error = SSL_get_error(m_ssl, result);
        if (error == SSL_ERROR_ZERO_RETURN)
            m_peerClosed = true;
        else if (error != SSL_ERROR_WANT_READ)
            m_failed = true;
        if (error == SSL_ERROR_SSL)
            m_lastError = ERR_peek_error();
        ERR_clear_error();
    }

    SSL_CTX* m_context = nullptr;
    SSL* m_ssl = nullptr;
    BIO* m_in = nullptr;
    BIO* m_out = nullptr;
    QByteArray m_plaintext;
    bool m_failed = false;
    bool m_peerClosed = false;
    unsigned long m_lastError = 0;
};

// Moves bytes between the two until neither has any to send, in random pieces of 1 to
// `maxPiece` bytes. Returns the server's ciphertext records' largest payload seen.
inline qsizetype pump(MemoryTlsClient& client, TlsStream& server, QRandomGenerator& random,
                      qsizetype maxPiece = 4096) {
    qsizetype largestRecord = 0;
    for (int round = 0; round < 100000; ++round) {
        const QByteArray toServer = client.takeCiphertext();
        const QByteArray toClient = server.takeCiphertext();
        if (toServer.isEmpty() && toClient.isEmpty())
            break;
        for (qsizetype at = 0; at < toServer.size();) {
            const qsizetype n =
                std::min<qsizetype>(toServer.size() - at, 1 + random.bounded(int(maxPiece)));
            server.feed(QByteArrayView(toServer).sliced(at, n));
            at += n;
        }
        // Record headers: type, version, 2-byte length.
        for (qsizetype at = 0; at + 5 <= toClient.size();) {
            const qsizetype length = (quint8(toClient[at + 3]) << 8) | quint8(toClient[at + 4]);
            largestRecord = std::max(largestRecord, length);
            at += 5 + length;
        }
        for (qsizetype at = 0; at < toClient.size();) {
            const qsizetype n =
                std::min<qsizetype>(toClient.size() - at, 1 + random.bounded(int(maxPiece)));
            client.feed(QByteArrayView(toClient).sliced(at, n));
            at += n;
        }
    }
    return largestRecord;
}

} // namespace hourglass::tls::test
