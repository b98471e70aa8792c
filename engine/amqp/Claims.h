#pragma once
// The claims a connection's put-tokens granted, and the namespace an address is served from.
// A token verifies against one namespace's key (NamespaceKeys.h), so each claim names its
// namespace: an address is placed in the namespace whose claims cover it, and refused when none
// does or when claims of two namespaces do (the endpoint never guesses where an unqualified
// address belongs).

#include "AudienceHosts.h"
#include "hourglass/amqp/NamespaceKeys.h"

#include <QList>
#include <QString>

#include <optional>

namespace hourglass::amqp {

struct Claim {
    QString namespaceName; // as the broker spells it
    QString audiencePath;  // lower case; empty: the whole namespace
    qint64 expiresAt = 0;  // seconds since the epoch
};

// What a put-token grants: the claim of a token that verified against a namespace's key and
// whose audience names a host this endpoint serves; otherwise why not (for a 401).
struct ClaimDecision {
    std::optional<Claim> claim;
    QString refusal;
};
ClaimDecision claimFromToken(const TokenVerdict& verdict, const ServedHosts& hosts);

class ClaimSet {
public:
    // Live claims kept on one connection at most (tokens for different entities); past it a
    // new one is refused until some expire.
    static constexpr qsizetype kMaxClaimsPerConnection = 1000;

    // Adds or renews a claim; false when the connection already holds the most it may.
    bool add(Claim claim, qint64 nowSeconds);

    // The namespace of the claims that cover `path` (the claimed path: "<entity>" or
    // "<entity>/$management") at `nowSeconds`; nullopt when no live claim covers it or claims of
    // two namespaces do.
    std::optional<QString> namespaceFor(const QString& path, qint64 nowSeconds) const;

    // The namespaces of the claims made so far, in the order they were first claimed.
    QStringList namespaces() const;
    // No token was ever accepted on this connection (it has not authenticated).
    bool isEmpty() const { return m_claims.isEmpty(); }

private:
    QList<Claim> m_claims;
};

} // namespace hourglass::amqp
