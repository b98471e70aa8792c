#pragma once
// What the TLS tests check certificates with: OpenSSL's own verifier and name checks, used
// directly rather than through the library under test.

#include "OpenSslHandles.h"

#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/x509_vfy.h>

#include <QByteArray>
#include <QFile>
#include <QString>

namespace tlstest {

using hourglass::tls::Certificate;
using hourglass::tls::PrivateKey;

inline QByteArray fileBytes(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

inline Certificate certificateFrom(const QString& path) {
    const QByteArray bytes = fileBytes(path);
    hourglass::tls::Bio bio = hourglass::tls::memoryBioOver(bytes);
    return Certificate(PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr));
}

inline PrivateKey keyFrom(const QString& path) {
    const QByteArray bytes = fileBytes(path);
    hourglass::tls::Bio bio = hourglass::tls::memoryBioOver(bytes);
    return PrivateKey(PEM_read_bio_PrivateKey(bio.get(), nullptr, nullptr, nullptr));
}

// X509_verify_cert of `server` with `authority` as the only trust anchor, as a TLS server
// certificate, with OpenSSL's strict checks of the extensions; `host` (optional) must be named.
// Returns X509_V_OK or the verifier's error.
inline int verifyServer(X509* authority, X509* server, const QByteArray& host = {}) {
    hourglass::tls::CertificateStore store(X509_STORE_new());
    X509_STORE_add_cert(store.get(), authority);
    hourglass::tls::StoreContext context(X509_STORE_CTX_new());
    X509_STORE_CTX_init(context.get(), store.get(), server, nullptr);
    X509_STORE_CTX_set_purpose(context.get(), X509_PURPOSE_SSL_SERVER);
    X509_VERIFY_PARAM* param = X509_STORE_CTX_get0_param(context.get());
    X509_VERIFY_PARAM_set_flags(param, X509_V_FLAG_X509_STRICT);
    if (!host.isEmpty())
        X509_VERIFY_PARAM_set1_host(param, host.constData(), static_cast<size_t>(host.size()));
    const int verified = X509_verify_cert(context.get());
    const int error = X509_STORE_CTX_get_error(context.get());
    ERR_clear_error();
    return verified == 1 ? X509_V_OK : (error == X509_V_OK ? -1 : error);
}

inline bool namesDns(X509* certificate, const QByteArray& host) {
    return X509_check_host(certificate, host.constData(), static_cast<size_t>(host.size()),
                           X509_CHECK_FLAG_NEVER_CHECK_SUBJECT, nullptr) == 1;
}

inline bool namesIp(X509* certificate, const QByteArray& address) {
    return X509_check_ip_asc(certificate, address.constData(), 0) == 1;
}

inline bool isP256(EVP_PKEY* key) {
    char curve[64] = {};
    size_t length = 0;
    return key && EVP_PKEY_get_base_id(key) == EVP_PKEY_EC &&
           EVP_PKEY_get_group_name(key, curve, sizeof curve, &length) == 1 &&
           QByteArray(curve) == "prime256v1";
}

// Whether the extension `nid` is present, and if so whether it is critical.
struct ExtensionPresence {
    bool present = false;
    bool critical = false;
};
inline ExtensionPresence extension(X509* certificate, int nid) {
    const int index = X509_get_ext_by_NID(certificate, nid, -1);
    if (index < 0)
        return {};
    return {true, X509_EXTENSION_get_critical(X509_get_ext(certificate, index)) == 1};
}

inline QString sha256FingerprintOf(X509* certificate) {
    unsigned char digest[32];
    unsigned int length = 0;
    if (X509_digest(certificate, EVP_sha256(), digest, &length) != 1 || length != 32)
        return {};
    return QString::fromLatin1(
        QByteArray(reinterpret_cast<char*>(digest), 32).toHex(':').toUpper());
}

// Days of validity from notBefore to notAfter.
inline int validityDays(X509* certificate) {
    int days = 0;
    int seconds = 0;
    ASN1_TIME_diff(&days, &seconds, X509_get0_notBefore(certificate),
                   X509_get0_notAfter(certificate));
    return days;
}

} // namespace tlstest
