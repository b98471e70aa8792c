#include "CertificateFields.h"

#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/obj_mac.h>
#include <openssl/rand.h>

#include <QDateTime>

namespace hourglass::tls {

PrivateKey generateP256Key() {
    PrivateKey key(EVP_EC_gen(SN_X9_62_prime256v1));
    ERR_clear_error();
    return key;
}

bool isP256Key(EVP_PKEY* key) {
    if (!key || EVP_PKEY_get_base_id(key) != EVP_PKEY_EC)
        return false;
    char curve[64] = {};
    size_t length = 0;
    if (EVP_PKEY_get_group_name(key, curve, sizeof curve, &length) != 1)
        return false;
    return QByteArray(curve, static_cast<qsizetype>(length)) == SN_X9_62_prime256v1;
}

bool setRandomSerial(X509* certificate) {
    unsigned char bytes[20];
    if (RAND_bytes(bytes, sizeof bytes) != 1)
        return false;
    bytes[0] &= 0x7f; // positive, and at most 20 octets as RFC 5280 asks
    bytes[0] |= 0x40; // never a leading zero octet, so always the full length
    BigNumber number(BN_bin2bn(bytes, sizeof bytes, nullptr));
    if (!number)
        return false;
    ASN1_INTEGER* serial = X509_get_serialNumber(certificate);
    return BN_to_ASN1_INTEGER(number.get(), serial) != nullptr;
}

bool setValidity(X509* certificate, long fromSeconds, long toSeconds) {
    return X509_gmtime_adj(X509_getm_notBefore(certificate), fromSeconds) != nullptr &&
           X509_gmtime_adj(X509_getm_notAfter(certificate), toSeconds) != nullptr;
}

bool setSubject(X509* certificate, const QString& commonName) {
    X509_NAME* name = X509_get_subject_name(certificate);
    const QByteArray organization = QByteArrayLiteral("Hourglass");
    const QByteArray common = commonName.toUtf8();
    return X509_NAME_add_entry_by_txt(
               name, "O", MBSTRING_UTF8,
               reinterpret_cast<const unsigned char*>(organization.constData()), -1, -1, 0) == 1 &&
           X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_UTF8,
                                      reinterpret_cast<const unsigned char*>(common.constData()),
                                      -1, -1, 0) == 1;
}

bool addExtension(X509* certificate, X509* issuer, int nid, const char* value) {
    X509V3_CTX context;
    X509V3_set_ctx_nodb(&context);
    X509V3_set_ctx(&context, issuer, certificate, nullptr, nullptr, 0);
    Extension extension(X509V3_EXT_conf_nid(nullptr, &context, nid, value));
    ERR_clear_error();
    return extension && X509_add_ext(certificate, extension.get(), -1) == 1;
}

QString sha256Fingerprint(X509* certificate) {
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    if (X509_digest(certificate, EVP_sha256(), digest, &length) != 1)
        return {};
    return QString::fromLatin1(
        QByteArray(reinterpret_cast<const char*>(digest), static_cast<qsizetype>(length))
            .toHex(':')
            .toUpper());
}

QString notAfterText(X509* certificate) {
    struct tm when = {};
    if (ASN1_TIME_to_tm(X509_get0_notAfter(certificate), &when) != 1)
        return QStringLiteral("(unreadable date)");
    const QDateTime at(QDate(when.tm_year + 1900, when.tm_mon + 1, when.tm_mday),
                       QTime(when.tm_hour, when.tm_min, when.tm_sec), Qt::UTC);
    return at.toString(Qt::ISODate);
}

qint64 secondsUntilExpiry(X509* certificate) {
    int days = 0;
    int seconds = 0;
    if (ASN1_TIME_diff(&days, &seconds, nullptr, X509_get0_notAfter(certificate)) != 1)
        return -1;
    return static_cast<qint64>(days) * 86400 + seconds;
}

} // namespace hourglass::tls
