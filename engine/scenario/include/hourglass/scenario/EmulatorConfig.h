#pragma once
// The "UserConfig" object of the Service Bus emulator's config.json (scenario-format.md):
// namespaces, queues, topics, subscriptions and rules with the property names of
// service-bus-rules.md E3. It is parsed into typed entities that remember their JSON path, applied
// to a Broker, and exported back from one namespace, so that an emulator file can be imported as it
// is and ours can be handed to the emulator.

#include "hourglass/Broker.h"

#include <QJsonObject>
#include <QList>
#include <QString>

namespace hourglass {

struct ConfigQueue {
    QString name; // the queue path
    EntityProperties properties;
    QString jsonPath; // where it was declared, for error messages
};

struct ConfigSubscription {
    QString topic; // the owning topic's path
    QString name;
    EntityProperties properties;
    QList<Rule> rules; // empty: the $Default true rule (E4)
    QString jsonPath;

    QString path() const { return topic + QStringLiteral("/Subscriptions/") + name; }
};

struct ConfigTopic {
    QString name; // the topic path
    EntityProperties properties;
    QList<ConfigSubscription> subscriptions;
    QString jsonPath;
};

struct ConfigNamespace {
    QString name;
    Tier tier = Tier::Standard; // ours; the emulator has no tiers
    QList<ConfigQueue> queues;
    QList<ConfigTopic> topics;
    QString jsonPath;
};

struct UserConfig {
    QList<ConfigNamespace> namespaces;
};

// A whole config.json document: { "UserConfig": { ... } }. Bad JSON is reported with its line
// and column.
Result<UserConfig> parseEmulatorConfigDocument(const QByteArray& document);

// ---- Applying. Errors keep the broker's code and carry the JSON path of the entity.
// What applying a config does with a namespace or entity that already exists: Refuse (an
// import into a fresh database: MessagingEntityAlreadyExists) or Keep it as it is and create only
// what is missing (`hourglass serve --config` on a database it served before).
enum class ExistingEntities { Refuse, Keep };
// Creates every namespace and entity. Forwarding is applied last, once every target exists.
Result<void> applyUserConfig(Broker& broker, const UserConfig& config,
                             ExistingEntities existing = ExistingEntities::Refuse);
// Single entities, as the scenario Create step makes them; `pathPrefix` is "" or "namespace:".
Result<void> createConfigQueue(Broker& broker, const QString& pathPrefix, const ConfigQueue& queue);
Result<void> createConfigTopic(Broker& broker, const QString& pathPrefix, const ConfigTopic& topic);
Result<void> createConfigSubscription(Broker& broker, const QString& pathPrefix,
                                      const ConfigSubscription& subscription);

// ---- Exporting: one namespace as a UserConfig object (wrap it in {"UserConfig": ...} for a
// config.json file). A subscription with only the $Default true rule lists no rules, as the
// emulator writes it; one with no rule at all gets a "$Default" False rule, which routes alike.
Result<QJsonObject> exportUserConfig(const Broker& broker, const QString& namespaceName);

} // namespace hourglass
