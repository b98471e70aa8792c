#include "Claims.h"

#include <QStringList>

namespace hourglass::amqp {

namespace {
// At most this much of what a peer sent goes back in a description.
QString shortPrefix(const QString& text) {
    constexpr qsizetype kShown = 40;
    return text.size() <= kShown ? text : text.left(kShown) + QStringLiteral("...");
}
} // namespace

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
                               .arg(shortPrefix(verdict.check.audience));
        return decision;
    }
    if (!hosts.serves(audience->host)) {
        decision.refusal =
            QStringLiteral("The token is for the host '%1', which this endpoint does not serve "
                           "(it serves localhost, the loopback addresses, the address it listens "
                           "on and the host names added for it).")
                .arg(shortPrefix(audience->host));
        return decision;
    }
    decision.claim = Claim{*verdict.name, audience->path.toLower(), verdict.check.expiresAt};
    return decision;
}

void ClaimSet::add(Claim claim) {
    // A client renews its token before it runs out: the newer claim replaces the one for the
    // same namespace and path, so the list does not grow with every renewal.
    for (Claim& existing : m_claims) {
        if (existing.namespaceName == claim.namespaceName &&
            existing.audiencePath == claim.audiencePath) {
            existing.expiresAt = qMax(existing.expiresAt, claim.expiresAt);
            return;
        }
    }
    m_claims.append(std::move(claim));
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
