#include "CertificateAuthority.h"

#include "CertificateFields.h"

#include <openssl/err.h>

namespace hourglass::tls {

namespace {

Error authorityError(const QString& step) {
    return makeError(
        ErrorCode::GeneralError,
        QStringLiteral("Could not create the local certificate authority (%1).").arg(step));
}

} // namespace

Result<Authority> createAuthority(long validitySeconds) {
    Authority authority;
    authority.key = generateP256Key();
    if (!authority.key)
        return authorityError(QStringLiteral("no P-256 key"));
    authority.certificate.reset(X509_new());
    X509* certificate = authority.certificate.get();
    if (!certificate || X509_set_version(certificate, X509_VERSION_3) != 1 ||
        !setRandomSerial(certificate) || !setValidity(certificate, -3600, validitySeconds) ||
        !setSubject(certificate, QStringLiteral("Hourglass local certificate authority")) ||
        X509_set_issuer_name(certificate, X509_get_subject_name(certificate)) != 1 ||
        X509_set_pubkey(certificate, authority.key.get()) != 1)
        return authorityError(QStringLiteral("fields"));
    // Strict verifiers (Node, Python's ssl) accept an issuer only when it says it is a CA, and
    // chain building matches the server certificate's authority key identifier to this one.
    if (!addExtension(certificate, certificate, NID_basic_constraints, "critical,CA:TRUE") ||
        !addExtension(certificate, certificate, NID_key_usage, "critical,keyCertSign,cRLSign") ||
        !addExtension(certificate, certificate, NID_subject_key_identifier, "hash"))
        return authorityError(QStringLiteral("extensions"));
    if (X509_sign(certificate, authority.key.get(), EVP_sha256()) <= 0) {
        ERR_clear_error();
        return authorityError(QStringLiteral("signature"));
    }
    return authority;
}

std::optional<QString> authorityProblem(X509* certificate, EVP_PKEY* key) {
    if (X509_check_ca(certificate) == 0)
        return QStringLiteral("is not a certificate authority (no basicConstraints CA:TRUE)");
    const int matches = X509_check_private_key(certificate, key);
    ERR_clear_error();
    if (matches != 1)
        return QStringLiteral("does not belong to the key beside it");
    if (secondsUntilExpiry(certificate) <= 0)
        return QStringLiteral("expired on %1").arg(notAfterText(certificate));
    return std::nullopt;
}

} // namespace hourglass::tls
