#include "ServeTls.h"

#include "hourglass/tls/LocalCertificates.h"

#include <QHostAddress>

namespace hourglass::app {

Result<ServeTls> prepareServeTls(const ServeTlsOptions& options, const QStringList& hosts) {
    const bool own = !options.certificateFile.isEmpty() || !options.keyFile.isEmpty();
    if (own && (options.certificateFile.isEmpty() || options.keyFile.isEmpty()))
        return Error::make(ErrorCode::InvalidArgument,
                           QStringLiteral("--tls-cert and --tls-key go together"));
    // Names the certificate must cover: the listening address unless it is a wildcard one.
    QStringList extra;
    for (const QString& host : hosts) {
        const QHostAddress address(host);
        if (host.isEmpty() || address == QHostAddress::AnyIPv4 || address == QHostAddress::AnyIPv6)
            continue;
        if (!extra.contains(host, Qt::CaseInsensitive))
            extra.append(host);
    }
    const auto files =
        own ? tls::LocalCertificates::load(options.certificateFile, options.keyFile)
            : tls::LocalCertificates::ensure(
                  options.dir.isEmpty() ? tls::LocalCertificates::defaultFolder() : options.dir,
                  extra);
    if (!files)
        return Error::make(ErrorCode::InvalidArgument, files.error().description);
    ServeTls tls;
    tls.endpoint.port = options.port;
    tls.endpoint.certificateFile = files->serverCertificate;
    tls.endpoint.keyFile = files->serverKey;
    tls.caFile = files->caCertificate;
    tls.fingerprint = files->caFingerprintSha256;
    if (files->createdAuthority)
        tls.note = QStringLiteral("A new certificate authority was made: clients must trust it "
                                  "once.");
    else if (files->reissued)
        tls.note =
            QStringLiteral("The server certificate was re-issued (%1).").arg(files->reissueReason);
    return tls;
}

void printTrust(const ServeTls& tls, QTextStream& out) {
    if (tls.caFile.isEmpty()) {
        out << "TLS certificate: your own (SHA-256 " << tls.fingerprint << ")" << Qt::endl;
        return;
    }
    out << "Certificate authority: " << tls.caFile << Qt::endl;
    out << "  SHA-256 " << tls.fingerprint << Qt::endl;
    if (!tls.note.isEmpty())
        out << "  " << tls.note << Qt::endl;
    for (const tls::TrustHint& hint : tls::trustHints(tls.caFile))
        out << "  Trust it in " << hint.client << ": " << hint.line << Qt::endl;
}

} // namespace hourglass::app
