#include "hourglass/amqp/NamespaceKeys.h"

#include "hourglass/Broker.h"
#include "hourglass/tls/JwtValidator.h"

#include <QRandomGenerator>

namespace hourglass::amqp {

namespace {
// 256 random bits in base64, the form of a key Azure makes.
QString randomKey() {
    QByteArray bytes(32, Qt::Uninitialized);
    QRandomGenerator::system()->fillRange(reinterpret_cast<quint32*>(bytes.data()),
                                          bytes.size() / int(sizeof(quint32)));
    return QString::fromLatin1(bytes.toBase64());
}

// How telling a refusal is: a matching signature that expired says more than a wrong one.
int weight(TokenCheck::Outcome outcome) {
    switch (outcome) {
    case TokenCheck::Outcome::Expired:
        return 3;
    case TokenCheck::Outcome::WrongSignature:
        return 2;
    case TokenCheck::Outcome::UnknownKeyName:
        return 1;
    default:
        return 0;
    }
}
} // namespace

NamespaceKeyRing::NamespaceKeyRing(SasKey defaultKey)
    : m_defaultKey(std::move(defaultKey)) {}

Result<void> NamespaceKeyRing::refresh(Broker& broker) {
    std::lock_guard refreshing(m_refreshMutex);
    QList<NamespaceKey> keys;
    Result<void> outcome;
    const QList<NamespaceInfo> namespaces = broker.namespaces();
    for (qsizetype i = 0; i < namespaces.size(); ++i) {
        const QString& name = namespaces.at(i).name;
        if (i == 0) {
            keys.append({name, m_defaultKey, true});
            continue;
        }
        const QString setting = kNamespaceKeyPrefix + name.toLower();
        QString value = broker.setting(setting);
        if (value.isEmpty()) {
            value = randomKey();
            if (auto kept = broker.setSetting(setting, value); !kept) {
                outcome = kept; // not reachable until a later refresh keeps its key
                continue;
            }
        }
        keys.append({name, SasKey{m_defaultKey.name, value}, false});
    }
    std::lock_guard lock(m_mutex);
    m_keys = std::move(keys);
    return outcome;
}

QList<NamespaceKey> NamespaceKeyRing::keys() const {
    std::lock_guard lock(m_mutex);
    return m_keys;
}

std::optional<NamespaceKey> NamespaceKeyRing::keyOf(const QString& namespaceName) const {
    std::lock_guard lock(m_mutex);
    for (const NamespaceKey& key : m_keys) {
        if (key.namespaceName.compare(namespaceName, Qt::CaseInsensitive) == 0)
            return key;
    }
    return std::nullopt;
}

std::optional<QString> NamespaceKeyRing::defaultNamespace() const {
    std::lock_guard lock(m_mutex);
    if (m_keys.isEmpty() || !m_keys.first().isDefault)
        return std::nullopt;
    return m_keys.first().namespaceName;
}

TokenVerdict NamespaceKeyRing::verify(const QString& token, qint64 nowSeconds) const {
    const QList<NamespaceKey> candidates = keys();
    TokenVerdict verdict;
    verdict.check.description = QStringLiteral("There is no namespace to serve yet.");
    int best = -1;
    for (const NamespaceKey& candidate : candidates) {
        TokenCheck check = checkSasToken(token, candidate.key, nowSeconds);
        if (check.valid()) {
            verdict.check = std::move(check);
            verdict.name = candidate.namespaceName;
            return verdict;
        }
        if (check.outcome == TokenCheck::Outcome::Malformed) {
            verdict.check = std::move(check);
            return verdict; // no key reads it better
        }
        if (weight(check.outcome) > best) {
            best = weight(check.outcome);
            verdict.check = std::move(check);
        }
    }
    if (verdict.check.outcome == TokenCheck::Outcome::WrongSignature)
        verdict.check.description =
            QStringLiteral("The token's signature matches the key of no namespace served here.");
    return verdict;
}

void NamespaceKeyRing::trustIssuer(std::shared_ptr<const tls::JwtValidator> issuer) {
    std::lock_guard lock(m_mutex);
    m_issuer = std::move(issuer);
}

TokenVerdict
NamespaceKeyRing::verifyJwt(const QByteArray& token, qint64 nowSeconds,
                            const std::function<bool(const QString&)>& servedHost) const {
    std::shared_ptr<const tls::JwtValidator> issuer;
    {
        std::lock_guard lock(m_mutex);
        issuer = m_issuer;
    }
    TokenVerdict verdict;
    verdict.check.outcome = TokenCheck::Outcome::WrongSignature;
    if (!issuer) {
        verdict.check.description =
            QStringLiteral("This namespace trusts no token issuer: sign with a shared access "
                           "key (SharedAccessSignature).");
        return verdict;
    }
    const tls::JwtCheck check = issuer->check(token, nowSeconds, servedHost);
    if (!check.valid()) {
        verdict.check.description = check.refusal;
        return verdict;
    }
    verdict.name = defaultNamespace();
    if (!verdict.name) {
        verdict.check.description = QStringLiteral("There is no namespace to serve yet.");
        return verdict;
    }
    verdict.check.outcome = TokenCheck::Outcome::Valid;
    verdict.check.expiresAt = check.expiresAt;
    return verdict;
}

} // namespace hourglass::amqp
