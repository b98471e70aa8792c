#include "AdminErrors.h"

#include "AtomWriter.h"

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
    case ErrorCode::GeneralError:
    case ErrorCode::DatabaseInUse:
        return 500;
    default:
        return 400;
    }
}

AdminResponse errorResponse(const Error& error) {
    QString detail = error.description;
    if (!error.trackingId.isEmpty())
        detail += QStringLiteral(" TrackingId:%1").arg(error.trackingId);
    return errorResponse(statusOf(error.code), detail);
}

} // namespace hourglass::admin
