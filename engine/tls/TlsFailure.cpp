#include "TlsFailure.h"

#include <openssl/err.h>
#include <openssl/ssl.h>

namespace hourglass::tls {

namespace {

// The alerts by which a client says it does not accept our certificate.
bool isCertificateAlert(int alert) {
    switch (alert) {
    case SSL3_AD_BAD_CERTIFICATE:
    case SSL3_AD_UNSUPPORTED_CERTIFICATE:
    case SSL3_AD_CERTIFICATE_REVOKED:
    case SSL3_AD_CERTIFICATE_EXPIRED:
    case SSL3_AD_CERTIFICATE_UNKNOWN:
    case TLS1_AD_UNKNOWN_CA:
        return true;
    default:
        return false;
    }
}

QString cause(int sslError, unsigned long openSslError) {
    if (sslError == SSL_ERROR_SYSCALL || sslError == SSL_ERROR_WANT_WRITE)
        return QStringLiteral("the connection's bytes could not be handed to OpenSSL");
    if (openSslError == 0)
        return QStringLiteral("OpenSSL gave no reason");
    if (ERR_GET_LIB(openSslError) != ERR_LIB_SSL) {
        const char* reason = ERR_reason_error_string(openSslError);
        return QStringLiteral("OpenSSL: %1").arg(QLatin1String(reason ? reason : "no reason"));
    }
    const int reason = ERR_GET_REASON(openSslError);
    if (reason >= SSL_AD_REASON_OFFSET && reason < SSL_AD_REASON_OFFSET + 256) {
        // An alert the peer sent: its one-byte code, named by OpenSSL's own table.
        const int alert = reason - SSL_AD_REASON_OFFSET;
        const QLatin1String name(SSL_alert_desc_string_long(alert));
        if (isCertificateAlert(alert))
            return QStringLiteral("the client does not trust the server's certificate (alert: %1)")
                .arg(name);
        return QStringLiteral("the client sent a fatal alert (%1)").arg(name);
    }
    switch (reason) {
    case SSL_R_HTTP_REQUEST:
    case SSL_R_HTTPS_PROXY_REQUEST:
        return QStringLiteral("the client spoke plain HTTP, not TLS");
    case SSL_R_WRONG_VERSION_NUMBER:
    case SSL_R_PACKET_LENGTH_TOO_LONG:
    case SSL_R_RECORD_LENGTH_MISMATCH:
        return QStringLiteral("the client's bytes are not TLS records");
    case SSL_R_UNSUPPORTED_PROTOCOL:
    case SSL_R_VERSION_TOO_LOW:
    case SSL_R_UNKNOWN_PROTOCOL:
        return QStringLiteral("the client offers no TLS version this server accepts (1.2, 1.3)");
    case SSL_R_NO_SHARED_CIPHER:
        return QStringLiteral("the client offers no cipher suite this server accepts");
    case SSL_R_DECRYPTION_FAILED_OR_BAD_RECORD_MAC:
        return QStringLiteral("a record from the client failed its integrity check");
    case SSL_R_NO_RENEGOTIATION:
        return QStringLiteral("the client asked to renegotiate, which this server refuses");
    default: {
        const char* text = ERR_reason_error_string(openSslError);
        return QStringLiteral("OpenSSL: %1").arg(QLatin1String(text ? text : "no reason"));
    }
    }
}

} // namespace

QString describeTlsFailure(int sslError, unsigned long openSslError, bool duringHandshake) {
    return QStringLiteral("The TLS %1 failed: %2.")
        .arg(duringHandshake ? QStringLiteral("handshake") : QStringLiteral("session"),
             cause(sslError, openSslError));
}

bool isNotTls(unsigned long openSslError) {
    if (ERR_GET_LIB(openSslError) != ERR_LIB_SSL)
        return false;
    const int reason = ERR_GET_REASON(openSslError);
    return reason == SSL_R_HTTP_REQUEST || reason == SSL_R_HTTPS_PROXY_REQUEST ||
           reason == SSL_R_WRONG_VERSION_NUMBER;
}

QByteArray plaintextFatalAlert() {
    // content type alert, version 1.2, length 2, level fatal, description.
    const char record[] = {21, 3, 3, 0, 2, SSL3_AL_FATAL, SSL3_AD_UNEXPECTED_MESSAGE};
    return QByteArray(record, sizeof record);
}

} // namespace hourglass::tls
