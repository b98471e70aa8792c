#pragma once
// A shared access key per namespace: the key a token verifies against tells the endpoint which
// namespace the client means, so every namespace of the database is reachable with an
// unmodified SDK and its ordinary connection string (the host stays localhost).
//
// The default namespace is the oldest one of the database (the one it was created with; should
// that one be deleted, the next oldest): it keeps the endpoint's own key (the emulator's
// well-known key, or the user's own, `serve --key` / the window's setting), so emulator
// connection strings keep working. Every other namespace gets a random key of its own, made
// once and kept in the database (Broker::setting, kNamespaceKeyPrefix + the namespace's name in
// lower case), so it survives restarts and goes with the data it guards.

#include "hourglass/Status.h"
#include "hourglass/amqpcodec/SasToken.h"

#include <QList>
#include <QString>

#include <functional>
#include <memory>
#include <mutex>
#include <optional>

namespace hourglass {
class Broker;
}
namespace hourglass::tls {
class JwtValidator;
}

namespace hourglass::amqp {

inline const QString kNamespaceKeyPrefix = QStringLiteral("amqp.namespaceKey.");

struct NamespaceKey {
    QString namespaceName;
    SasKey key;
    bool isDefault = false;
};

// What a put-token's token verified against.
struct TokenVerdict {
    TokenCheck check;            // valid, or why not (the most telling refusal of all keys)
    std::optional<QString> name; // the namespace whose key verified it
};

// The keys of every namespace, shared by the endpoint's connections (put-token, proactor
// thread) and the window (connection strings). Thread-safe.
class NamespaceKeyRing {
public:
    explicit NamespaceKeyRing(SasKey defaultKey);

    // Reads the namespaces and their keys from `broker`, making and keeping (durably) the keys
    // that are missing. Waits on disk when it makes one: not for the proactor thread.
    Result<void> refresh(Broker& broker);

    QList<NamespaceKey> keys() const;
    std::optional<NamespaceKey> keyOf(const QString& namespaceName) const;
    std::optional<QString> defaultNamespace() const;

    // Checks `token` against every namespace's key at `nowSeconds`.
    TokenVerdict verify(const QString& token, qint64 nowSeconds) const;

    // The identity provider whose bearer tokens (JWTs, hourglass/tls/JwtValidator.h) are taken
    // besides the keys' signatures (`serve --trust-issuer`). A valid one names the default
    // namespace and grants every right there (Manage, Send, Listen), as a namespace's
    // RootManageSharedAccessKey does. Null, the default: a JWT is refused.
    void trustIssuer(std::shared_ptr<const tls::JwtValidator> issuer);
    // Checks a JWT at `nowSeconds`; `servedHost` says which hosts name this namespace in its
    // audience (besides Service Bus's own). The verdict's audience is left empty: the caller
    // knows the scope (put-token's name, an HTTP request's whole namespace).
    TokenVerdict verifyJwt(const QByteArray& token, qint64 nowSeconds,
                           const std::function<bool(const QString&)>& servedHost) const;

private:
    const SasKey m_defaultKey;
    std::mutex m_refreshMutex; // one refresh at a time: a key is made once
    mutable std::mutex m_mutex;
    QList<NamespaceKey> m_keys; // guarded by m_mutex; in the broker's order (oldest first)
    std::shared_ptr<const tls::JwtValidator> m_issuer; // guarded by m_mutex
};

} // namespace hourglass::amqp
