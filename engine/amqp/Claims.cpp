#include "Claims.h"

#include "hourglass/amqpcodec/PeerLimits.h"

#include <QStringList>

namespace hourglass::amqp {

ClaimDecision claimFromToken(const TokenVerdict& verdict, const ServedHosts& hosts) {
    ClaimDecision decision;
    if (!verdict.check.valid() || !verdict.name) {
        decision.refusal = verdict.check.description;
        return decision;
    }
    const auto audience = parseAudience(verdict.check.audience);
    if (!audience) {
        decision.refusal = QStringLiteral("The token's audience '%1' names no host: it must read "
                                          "sb://host/path.")
                               .arg(quoted(verdict.check.audience));
        return decision;
    }
    if (!hosts.serves(audience->host)) {
        decision.refusal =
            QStringLiteral("The token is for the host '%1', which this endpoint does not serve "
                           "(it serves localhost, the loopback addresses, the address it listens "
                           "on and the host names added for it).")
                .arg(quoted(audience->host));
        return decision;
    }
    decision.claim = Claim{*verdict.name, audience->path.toLower(), verdict.check.expiresAt};
    return decision;
}

bool ClaimSet::add(Claim claim, qint64 nowSeconds) {
    // A client renews its token before it runs out: the newer claim replaces the one for the
    // same namespace and path, so the list does not grow with every renewal.
    for (Claim& existing : m_claims) {
        if (existing.namespaceName == claim.namespaceName &&
            existing.audiencePath == claim.audiencePath) {
            existing.expiresAt = qMax(existing.expiresAt, claim.expiresAt);
            return true;
        }
    }
    // Every claim is looked through on each attach: a peer with a key must not make that list,
    // and the connection's memory, as long as it likes. Expired claims make room first.
    if (m_claims.size() >= kMaxClaimsPerConnection) {
        m_claims.removeIf([nowSeconds](const Claim& old) { return old.expiresAt <= nowSeconds; });
        if (m_claims.size() >= kMaxClaimsPerConnection)
            return false;
    }
    m_claims.append(std::move(claim));
    return true;
}

std::optional<QString> ClaimSet::namespaceFor(const QString& path, qint64 nowSeconds) const {
    const QString wanted = path.toLower();
    std::optional<QString> found;
    for (const Claim& claim : m_claims) {
        if (claim.expiresAt <= nowSeconds)
            continue;
        const bool covers = claim.audiencePath.isEmpty() || wanted == claim.audiencePath ||
                            wanted.startsWith(claim.audiencePath + u'/');
        if (!covers)
            continue;
        if (found && *found != claim.namespaceName)
            return std::nullopt; // two namespaces: which one is meant cannot be told
        found = claim.namespaceName;
    }
    return found;
}

QStringList ClaimSet::namespaces() const {
    QStringList names;
    for (const Claim& claim : m_claims) {
        if (!names.contains(claim.namespaceName))
            names.append(claim.namespaceName);
    }
    return names;
}

} // namespace hourglass::amqp
