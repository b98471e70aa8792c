#include "AdminErrors.h"

#include "AtomWriter.h"

#include <QRegularExpression>

namespace hourglass::admin {

namespace {
// An engine description quotes names the routes already bounded (260 characters at most); this
// bounds whatever else it might carry.
constexpr qsizetype kMaxDetail = 1024;
} // namespace

QString quoted(const QString& text) {
    QString shown = text.left(kMaxQuoted);
    for (QChar& c : shown) {
        if (c.category() == QChar::Other_Control || c.category() == QChar::Other_Format)
            c = u'?';
    }
    return text.size() > kMaxQuoted ? shown + QStringLiteral("...") : shown;
}

QString quoted(const QByteArray& text) {
    return quoted(QString::fromUtf8(text.left(kMaxQuoted * 4)));
}

AdminResponse errorResponse(int status, const QString& detail) {
    AdminResponse response;
    response.status = status;
    response.headers.append(
        qMakePair(QByteArray("Content-Type"), QByteArray("application/xml; charset=utf-8")));
    response.body = writeError(status, detail.left(kMaxDetail));
    return response;
}

int statusOf(ErrorCode code) {
    switch (code) {
    case ErrorCode::MessagingEntityNotFound:
        return 404;
    case ErrorCode::MessagingEntityAlreadyExists:
        return 409;
    case ErrorCode::QuotaExceeded:
        return 403;
    case ErrorCode::ServiceBusy:
    case ErrorCode::ServiceTimeout:
        return 503;
    case ErrorCode::Unauthorized:
        return 401;
    case ErrorCode::GeneralError:
    case ErrorCode::DatabaseInUse:
    case ErrorCode::ServiceCommunicationProblem:
        return 500;
    default:
        return 400;
    }
}

QString clippedEngineText(const QString& description) {
    // Names and values in '...' (never with spaces: an apostrophe in the engine's own words does
    // not start one); the SQL parser's token between "Token in error= " and its details.
    static const QRegularExpression parts(
        QStringLiteral("'([^'\\s]*)'|(?<=Token in error= )(.*?)(?=, Additional details= )"),
        QRegularExpression::DotMatchesEverythingOption);
    QString out;
    qsizetype from = 0;
    QRegularExpressionMatchIterator it = parts.globalMatch(description);
    while (it.hasNext()) {
        const QRegularExpressionMatch match = it.next();
        const int group = match.capturedStart(1) >= 0 ? 1 : 2;
        out += description.mid(from, match.capturedStart(group) - from);
        out += quoted(match.captured(group));
        from = match.capturedEnd(group);
    }
    return out + description.mid(from);
}

AdminResponse errorResponse(const Error& error) {
    QString detail = clippedEngineText(error.description);
    if (!error.trackingId.isEmpty())
        detail += QStringLiteral(" TrackingId:%1").arg(error.trackingId);
    return errorResponse(statusOf(error.code), detail);
}

} // namespace hourglass::admin
