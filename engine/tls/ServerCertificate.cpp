#include "ServerCertificate.h"

#include "CertificateFields.h"

#include <openssl/err.h>

#include <QRegularExpression>

namespace hourglass::tls {

namespace {

Error serverError(const QString& step) {
    return makeError(ErrorCode::GeneralError,
                     QStringLiteral("Could not issue the server certificate (%1).").arg(step));
}

bool isIpAddress(const QString& host) {
    const QByteArray text = host.toLatin1();
    ASN1_OCTET_STRING* address = a2i_IPADDRESS(text.constData());
    ERR_clear_error();
    ASN1_OCTET_STRING_free(address);
    return address != nullptr;
}

bool isDnsName(const QString& host) {
    // Labels of letters, digits and inner hyphens (RFC 1123), at most 253 characters in all.
    static const QRegularExpression pattern(
        QStringLiteral("^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\\.[a-z0-9]([a-z0-9-]{0,"
                       "61}[a-z0-9])?)*$"));
    return pattern.match(host).hasMatch();
}

// The subjectAltName built name by name, so that no host name is ever parsed as configuration.
bool addSubjectAltNames(X509* certificate, const QStringList& hostNames) {
    GeneralNames names(GENERAL_NAMES_new());
    if (!names)
        return false;
    for (const QString& host : hostNames) {
        GENERAL_NAME* name = GENERAL_NAME_new();
        if (!name)
            return false;
        const QByteArray text = host.toLatin1();
        if (isIpAddress(host)) {
            ASN1_OCTET_STRING* address = a2i_IPADDRESS(text.constData());
            if (!address) {
                GENERAL_NAME_free(name);
                return false;
            }
            GENERAL_NAME_set0_value(name, GEN_IPADD, address);
        } else {
            ASN1_IA5STRING* dns = ASN1_IA5STRING_new();
            if (!dns ||
                ASN1_STRING_set(dns, text.constData(), static_cast<int>(text.size())) != 1) {
                ASN1_IA5STRING_free(dns);
                GENERAL_NAME_free(name);
                return false;
            }
            GENERAL_NAME_set0_value(name, GEN_DNS, dns);
        }
        if (sk_GENERAL_NAME_push(names.get(), name) <= 0) {
            GENERAL_NAME_free(name);
            return false;
        }
    }
    return X509_add1_ext_i2d(certificate, NID_subject_alt_name, names.get(), 0,
                             X509V3_ADD_DEFAULT) == 1;
}

} // namespace

Result<QStringList> serverHostNames(const QStringList& extraHostNames) {
    QStringList names{QStringLiteral("localhost"), QStringLiteral("127.0.0.1"),
                      QStringLiteral("::1")};
    for (const QString& given : extraHostNames) {
        QString host = given.trimmed().toLower();
        if (host.startsWith(QLatin1Char('[')) && host.endsWith(QLatin1Char(']')))
            host = host.mid(1, host.size() - 2);
        if (host.endsWith(QLatin1Char('.')))
            host.chop(1);
        if (!isIpAddress(host) && !isDnsName(host))
            return makeError(ErrorCode::InvalidArgument,
                             QStringLiteral("'%1' is not a host name or IP address for the server "
                                            "certificate.")
                                 .arg(given.left(64)));
        if (!names.contains(host))
            names.append(host);
    }
    return names;
}

Result<ServerPair> issueServerCertificate(const Authority& authority, const QStringList& hostNames,
                                          ServerValidity validity) {
    ServerPair pair;
    pair.key = generateP256Key();
    if (!pair.key)
        return serverError(QStringLiteral("no P-256 key"));
    pair.certificate.reset(X509_new());
    X509* certificate = pair.certificate.get();
    X509* issuer = authority.certificate.get();
    if (!certificate || X509_set_version(certificate, X509_VERSION_3) != 1 ||
        !setRandomSerial(certificate) ||
        !setValidity(certificate, validity.fromSeconds, validity.toSeconds) ||
        !setSubject(certificate, hostNames.value(0, QStringLiteral("localhost"))) ||
        X509_set_issuer_name(certificate, X509_get_subject_name(issuer)) != 1 ||
        X509_set_pubkey(certificate, pair.key.get()) != 1)
        return serverError(QStringLiteral("fields"));
    // Never valid longer than its issuer: a chain is refused once the authority has expired.
    if (ASN1_TIME_compare(X509_get0_notAfter(certificate), X509_get0_notAfter(issuer)) > 0 &&
        X509_set1_notAfter(certificate, X509_get0_notAfter(issuer)) != 1)
        return serverError(QStringLiteral("validity"));
    // Node and browsers read names only from subjectAltName; strict verifiers (Python 3.13's
    // VERIFY_X509_STRICT among them) also want the key identifiers and a basicConstraints that
    // says this certificate cannot sign others.
    if (!addSubjectAltNames(certificate, hostNames) ||
        !addExtension(certificate, issuer, NID_basic_constraints, "critical,CA:FALSE") ||
        !addExtension(certificate, issuer, NID_key_usage, "critical,digitalSignature") ||
        !addExtension(certificate, issuer, NID_ext_key_usage, "serverAuth") ||
        !addExtension(certificate, issuer, NID_subject_key_identifier, "hash") ||
        !addExtension(certificate, issuer, NID_authority_key_identifier, "keyid:always"))
        return serverError(QStringLiteral("extensions"));
    if (X509_sign(certificate, authority.key.get(), EVP_sha256()) <= 0) {
        ERR_clear_error();
        return serverError(QStringLiteral("signature"));
    }
    return pair;
}

bool coversHost(X509* certificate, const QString& host) {
    const QByteArray text = host.toLatin1();
    int covered = 0;
    if (isIpAddress(host))
        covered = X509_check_ip_asc(certificate, text.constData(), 0);
    else
        covered = X509_check_host(certificate, text.constData(), static_cast<size_t>(text.size()),
                                  X509_CHECK_FLAG_NEVER_CHECK_SUBJECT, nullptr);
    ERR_clear_error();
    return covered == 1;
}

std::optional<QString> reissueReason(X509* certificate, EVP_PKEY* key, const Authority& authority,
                                     const QStringList& hostNames) {
    const int keyMatches = X509_check_private_key(certificate, key);
    ERR_clear_error();
    if (keyMatches != 1)
        return QStringLiteral("the server certificate does not match its key");
    EVP_PKEY* authorityKey = X509_get0_pubkey(authority.certificate.get());
    const bool signedByAuthority =
        X509_check_issued(authority.certificate.get(), certificate) == X509_V_OK && authorityKey &&
        X509_verify(certificate, authorityKey) == 1;
    ERR_clear_error();
    if (!signedByAuthority)
        return QStringLiteral("the server certificate was not signed by this folder's "
                              "certificate authority");
    const qint64 left = secondsUntilExpiry(certificate);
    if (left <= 0)
        return QStringLiteral("the server certificate expired on %1")
            .arg(notAfterText(certificate));
    if (left < kRenewBeforeSeconds)
        return QStringLiteral("the server certificate expires soon (%1)")
            .arg(notAfterText(certificate));
    for (const QString& host : hostNames) {
        if (!coversHost(certificate, host))
            return QStringLiteral("the server certificate does not cover %1").arg(host);
    }
    return std::nullopt;
}

} // namespace hourglass::tls
