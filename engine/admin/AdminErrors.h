#pragma once
// Error replies in the service's own shape, <Error><Code>status</Code><Detail>..</Detail></Error>,
// with the status codes the SDKs turn into their error classes (401 unauthorized, 404 not found,
// 409 already exists, 403 quota, 400 bad request, 413 body too large, 503 busy).

#include "hourglass/Status.h"
#include "hourglass/admin/AdminApi.h"

#include <QString>

namespace hourglass::admin {

// At most this many characters of anything a client sent are quoted back in an error.
inline constexpr qsizetype kMaxQuoted = 64;

// `text` as it may be quoted: its first kMaxQuoted characters, control characters replaced.
QString quoted(const QString& text);
QString quoted(const QByteArray& text);

AdminResponse errorResponse(int status, const QString& detail);

// The HTTP status an engine error is answered with.
int statusOf(ErrorCode code);
// An engine description with what it quotes of the client (names in '...', the SQL parser's
// token in error) clipped as quoted() clips.
QString clippedEngineText(const QString& description);

// An engine error as a reply: its status, the engine's description (clipped) and tracking id.
AdminResponse errorResponse(const Error& error);

} // namespace hourglass::admin
