#pragma once
// The tokens a connection puts on `$cbs` (claims-based security), one per audience: the namespace
// ("sb://host/") or an entity ("sb://host/orders"). Signed here from the connection string's key,
// the string's own SharedAccessSignature as given, or asked of the caller's token provider.

#include "hourglass/Status.h"
#include "hourglass/remote/AmqpClient.h"
#include "hourglass/remote/ConnectionString.h"

namespace hourglass::remote {

inline const QString kSasTokenType = QStringLiteral("servicebus.windows.net:sastoken");
inline const QString kJwtTokenType = QStringLiteral("jwt");

class CbsTokens {
public:
    CbsTokens(ConnectionString where, AmqpClientOptions options);

    // The audience of an entity's links ("sb://host/orders"), or of the namespace for an empty
    // path.
    QString audience(const QString& entityPath) const;
    // The audience connect() proves the credential for: the EntityPath's when the string names
    // one (a key scoped to one entity proves nothing for the namespace), else the namespace's.
    QString connectAudience() const;

    // A token for `audience`, valid from now (`nowSeconds`, since the epoch). Unauthorized when
    // there is no credential to make one from.
    Result<AccessToken> tokenFor(const QString& audience, qint64 nowSeconds) const;

    // When a token issued at `issuedAt` that expires at `expiresAt` (seconds) is renewed: a
    // tenth of its life before it expires (at least a minute), never in the first half of its
    // life; at once when it has expired already. 0 when it does not say when it expires.
    static qint64 renewAt(qint64 issuedAt, qint64 expiresAt);

private:
    ConnectionString m_where;
    AmqpClientOptions m_options;
};

} // namespace hourglass::remote
