#include "JwtSignature.h"

#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/pem.h>

#include <cstring>

namespace hourglass::tls {

namespace {
// RSA keys shorter than this are refused: RFC 7518 3.3 asks for 2048 bits at least.
constexpr int kMinRsaBits = 2048;
constexpr int kEs256PartBytes = 32;

using DigestContext = std::unique_ptr<EVP_MD_CTX, OpenSslDeleter<EVP_MD_CTX, EVP_MD_CTX_free>>;
using EcdsaSignature = std::unique_ptr<ECDSA_SIG, OpenSslDeleter<ECDSA_SIG, ECDSA_SIG_free>>;

Error refusedKey(const QString& why) {
    return makeError(ErrorCode::InvalidArgument, why);
}

PrivateKey readKey(const QByteArray& pem) {
    if (Bio bio = memoryBioOver(pem)) {
        if (EVP_PKEY* key = PEM_read_bio_PUBKEY(bio.get(), nullptr, nullptr, nullptr))
            return PrivateKey(key);
    }
    ERR_clear_error();
    // A certificate, as an identity provider's key set publishes its keys (x5c).
    Bio bio = memoryBioOver(pem);
    if (!bio)
        return {};
    Certificate certificate(PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr));
    ERR_clear_error();
    return certificate ? PrivateKey(X509_get_pubkey(certificate.get())) : PrivateKey();
}

// ES256 signatures are R || S; OpenSSL verifies the DER form of ECDSA-Sig-Value.
QByteArray ecdsaDer(const QByteArray& raw) {
    if (raw.size() != 2 * kEs256PartBytes)
        return {};
    const auto* bytes = reinterpret_cast<const unsigned char*>(raw.constData());
    EcdsaSignature signature(ECDSA_SIG_new());
    BigNumber r(BN_bin2bn(bytes, kEs256PartBytes, nullptr));
    BigNumber s(BN_bin2bn(bytes + kEs256PartBytes, kEs256PartBytes, nullptr));
    if (!signature || !r || !s || ECDSA_SIG_set0(signature.get(), r.get(), s.get()) != 1)
        return {};
    (void)r.release(); // the signature owns them now
    (void)s.release();
    const int size = i2d_ECDSA_SIG(signature.get(), nullptr);
    if (size <= 0)
        return {};
    QByteArray der(size, Qt::Uninitialized);
    auto* out = reinterpret_cast<unsigned char*>(der.data());
    return i2d_ECDSA_SIG(signature.get(), &out) == size ? der : QByteArray();
}
} // namespace

QString jwtAlgorithmName(JwtAlgorithm algorithm) {
    return algorithm == JwtAlgorithm::ES256 ? QStringLiteral("ES256") : QStringLiteral("RS256");
}

Result<std::shared_ptr<const JwtValidator::Key>> readTrustedKey(const QByteArray& pem) {
    PrivateKey key = readKey(pem);
    if (!key)
        return refusedKey(QStringLiteral("it holds no public key or certificate in PEM"));
    auto trusted = std::make_shared<JwtValidator::Key>();
    if (EVP_PKEY_is_a(key.get(), "RSA")) {
        if (EVP_PKEY_get_bits(key.get()) < kMinRsaBits)
            return refusedKey(
                QStringLiteral("its RSA key is shorter than %1 bits").arg(kMinRsaBits));
        trusted->algorithm = JwtAlgorithm::RS256;
    } else if (EVP_PKEY_is_a(key.get(), "EC")) {
        char group[64] = {};
        if (EVP_PKEY_get_group_name(key.get(), group, sizeof group, nullptr) != 1 ||
            std::strcmp(group, "prime256v1") != 0)
            return refusedKey(QStringLiteral("its EC key is not on the P-256 curve (ES256)"));
        trusted->algorithm = JwtAlgorithm::ES256;
    } else {
        return refusedKey(QStringLiteral("its key is neither RSA (RS256) nor EC P-256 (ES256)"));
    }
    trusted->key = std::move(key);
    return std::shared_ptr<const JwtValidator::Key>(std::move(trusted));
}

bool verifyJwtSignature(const JwtValidator::Key& key, QByteArrayView signingInput,
                        const QByteArray& signature) {
    QByteArray wire = signature;
    if (key.algorithm == JwtAlgorithm::ES256)
        wire = ecdsaDer(signature);
    else if (signature.size() != EVP_PKEY_get_size(key.key.get()))
        wire.clear(); // an RSA signature is exactly as long as the modulus
    if (wire.isEmpty())
        return false;
    DigestContext context(EVP_MD_CTX_new());
    const bool verified =
        context &&
        EVP_DigestVerifyInit(context.get(), nullptr, EVP_sha256(), nullptr, key.key.get()) == 1 &&
        EVP_DigestVerify(context.get(), reinterpret_cast<const unsigned char*>(wire.constData()),
                         std::size_t(wire.size()),
                         reinterpret_cast<const unsigned char*>(signingInput.data()),
                         std::size_t(signingInput.size())) == 1;
    // The thread serves other callers: leave its error queue as it was found, empty.
    ERR_clear_error();
    return verified;
}

} // namespace hourglass::tls
