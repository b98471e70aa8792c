#include "TestJwtIssuer.h"

#include <QJsonDocument>

#include <openssl/bio.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

#include <stdexcept>

namespace hourglass::testing {

struct TestJwtIssuer::Key {
    EVP_PKEY* pair = nullptr;
    ~Key() { EVP_PKEY_free(pair); }
};

namespace {
QByteArray drain(BIO* bio) {
    char* data = nullptr;
    const long size = BIO_get_mem_data(bio, &data);
    QByteArray bytes(data, qsizetype(size));
    BIO_free(bio);
    return bytes;
}

// ECDSA's DER signature as JWS writes it: R and S, 32 bytes each.
QByteArray rawEcdsa(const QByteArray& der) {
    const auto* in = reinterpret_cast<const unsigned char*>(der.constData());
    ECDSA_SIG* signature = d2i_ECDSA_SIG(nullptr, &in, long(der.size()));
    if (!signature)
        throw std::runtime_error("ECDSA signature not DER");
    QByteArray raw(64, '\0');
    auto* out = reinterpret_cast<unsigned char*>(raw.data());
    BN_bn2binpad(ECDSA_SIG_get0_r(signature), out, 32);
    BN_bn2binpad(ECDSA_SIG_get0_s(signature), out + 32, 32);
    ECDSA_SIG_free(signature);
    return raw;
}
} // namespace

TestJwtIssuer::TestJwtIssuer(Kind kind)
    : m_key(std::make_unique<Key>())
    , m_kind(kind) {
    m_key->pair = kind == Kind::Rsa ? EVP_PKEY_Q_keygen(nullptr, nullptr, "RSA", size_t(2048))
                                    : EVP_PKEY_Q_keygen(nullptr, nullptr, "EC", "P-256");
    if (!m_key->pair)
        throw std::runtime_error("key generation failed");
}

TestJwtIssuer::~TestJwtIssuer() = default;

QByteArray TestJwtIssuer::publicKeyPem() const {
    BIO* bio = BIO_new(BIO_s_mem());
    PEM_write_bio_PUBKEY(bio, m_key->pair);
    return drain(bio);
}

QByteArray TestJwtIssuer::certificatePem() const {
    X509* certificate = X509_new();
    X509_set_version(certificate, 2);
    ASN1_INTEGER_set(X509_get_serialNumber(certificate), 1);
    X509_gmtime_adj(X509_getm_notBefore(certificate), -60);
    X509_gmtime_adj(X509_getm_notAfter(certificate), 3600);
    X509_set_pubkey(certificate, m_key->pair);
    X509_NAME* name = X509_get_subject_name(certificate);
    X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC,
                               reinterpret_cast<const unsigned char*>("test issuer"), -1, -1, 0);
    X509_set_issuer_name(certificate, name);
    X509_sign(certificate, m_key->pair, EVP_sha256());
    BIO* bio = BIO_new(BIO_s_mem());
    PEM_write_bio_X509(bio, certificate);
    X509_free(certificate);
    return drain(bio);
}

QString TestJwtIssuer::algorithm() const {
    return m_kind == Kind::Rsa ? QStringLiteral("RS256") : QStringLiteral("ES256");
}

QJsonObject TestJwtIssuer::claims(qint64 nowSeconds, qint64 lifetimeSeconds) const {
    return QJsonObject{{"aud", "https://servicebus.azure.net"},
                       {"iss", kIssuer},
                       {"iat", double(nowSeconds - 5)},
                       {"nbf", double(nowSeconds - 5)},
                       {"exp", double(nowSeconds + lifetimeSeconds)},
                       {"sub", "test-subject"},
                       {"oid", "00000000-0000-0000-0000-000000000001"}};
}

QByteArray TestJwtIssuer::sign(const QJsonObject& claims) const {
    return sign(QJsonObject{{"alg", algorithm()}, {"typ", "JWT"}, {"kid", "test-key"}}, claims);
}

QByteArray TestJwtIssuer::sign(const QJsonObject& header, const QJsonObject& claims) const {
    const QByteArray input = base64Url(QJsonDocument(header).toJson(QJsonDocument::Compact)) + '.' +
                             base64Url(QJsonDocument(claims).toJson(QJsonDocument::Compact));
    EVP_MD_CTX* context = EVP_MD_CTX_new();
    std::size_t size = 0;
    EVP_DigestSignInit(context, nullptr, EVP_sha256(), nullptr, m_key->pair);
    EVP_DigestSign(context, nullptr, &size,
                   reinterpret_cast<const unsigned char*>(input.constData()),
                   std::size_t(input.size()));
    QByteArray signature(qsizetype(size), '\0');
    if (EVP_DigestSign(context, reinterpret_cast<unsigned char*>(signature.data()), &size,
                       reinterpret_cast<const unsigned char*>(input.constData()),
                       std::size_t(input.size())) != 1)
        throw std::runtime_error("signing failed");
    EVP_MD_CTX_free(context);
    signature.truncate(qsizetype(size));
    if (m_kind == Kind::Ec)
        signature = rawEcdsa(signature);
    return input + '.' + base64Url(signature);
}

QByteArray TestJwtIssuer::base64Url(const QByteArray& bytes) {
    return bytes.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals);
}

} // namespace hourglass::testing
