#pragma once
// The Authorization header of an administration request: a shared access signature made from the
// connection string's key (sr the namespace's administration URL, as the Python and .NET
// administration clients sign it: the service takes sr as a scope over every path under it), the
// string's own signature as given, or `Bearer <token>` from a token provider.

#include "hourglass/Status.h"
#include "hourglass/remote/AdminClient.h"

#include <QByteArray>

namespace hourglass::remote {

// How long a token made from a key is valid: one request's worth, with room for a slow one and
// for a clock a little behind the service's.
inline constexpr qint64 kAdminTokenSeconds = 3600;

// The header's value; Unauthorized when there is no credential at all (the API needs one).
Result<QByteArray> adminAuthorization(const AdminClientOptions& options, qint64 nowSeconds);

} // namespace hourglass::remote
