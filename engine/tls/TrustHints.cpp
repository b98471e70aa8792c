#include "hourglass/tls/LocalCertificates.h"

#include <QRegularExpression>

namespace hourglass::tls {

namespace {

// The path as a shell word: as it is when it is plain, else in single quotes.
QString shellWord(const QString& path) {
    static const QRegularExpression plain(QStringLiteral("^[A-Za-z0-9_./:@%+=,-]+$"));
    if (plain.match(path).hasMatch())
        return path;
    QString quoted = path;
    quoted.replace(QLatin1Char('\''), QStringLiteral("'\\''"));
    return QLatin1Char('\'') + quoted + QLatin1Char('\'');
}

// The path as a Python string literal.
QString pythonString(const QString& path) {
    QString escaped = path;
    escaped.replace(QLatin1Char('\\'), QStringLiteral("\\\\"));
    escaped.replace(QLatin1Char('"'), QStringLiteral("\\\""));
    return QLatin1Char('"') + escaped + QLatin1Char('"');
}

} // namespace

QList<TrustHint> trustHints(const QString& caFile) {
    const QString shell = shellWord(caFile);
    return {
        // Node reads it once at start: it must be in the environment of the process.
        {QStringLiteral("Node.js"), QStringLiteral("NODE_EXTRA_CA_CERTS=%1").arg(shell)},
        {QStringLiteral("Python (data plane)"),
         QStringLiteral("connection_verify=%1").arg(pythonString(caFile))},
        // The Python administration client ignores connection_verify: only requests' own
        // variable reaches it.
        {QStringLiteral("Python (administration client)"),
         QStringLiteral("REQUESTS_CA_BUNDLE=%1").arg(shell)},
        {QStringLiteral("curl"), QStringLiteral("--cacert %1").arg(shell)},
    };
}

} // namespace hourglass::tls
