#include "hourglass/scenario/EmulatorConfig.h"
#include "EmulatorConfigParsers.h"

#include "JsonReader.h"
#include "hourglass/EntityPath.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonParseError>
#include <QSet>

namespace hourglass {

namespace {

// EntityProperties::fromJson and Rule::fromJson describe errors as "Member: why"; this puts the
// JSON path of the object in front: "<path>.Member: why".
void setMemberError(ParseError& error, const QString& objectPath, const Error& memberError) {
    const QString& text = memberError.description;
    const auto colon = text.indexOf(QStringLiteral(": "));
    if (colon <= 0) {
        error.set(objectPath, text);
        return;
    }
    error.set(memberPath(objectPath, text.left(colon)), text.mid(colon + 2));
}

EntityProperties readProperties(JsonReader& reader, EntityKind kind, Tier tier, BoundsCheck check) {
    const EntityProperties base = EntityProperties::defaults(tier);
    const auto json = reader.object(QStringLiteral("Properties"));
    if (!json)
        return base;
    const QString path = reader.pathOf(QStringLiteral("Properties"));
    auto parsed = EntityProperties::fromJson(*json, base);
    if (!parsed) {
        setMemberError(reader.error(), path, parsed.error());
        return base;
    }
    if (check == BoundsCheck::Check) {
        if (auto valid = parsed->validate(kind, tier); !valid)
            reader.error().set(path, valid.error().description);
    }
    return *parsed;
}

QString readName(JsonReader& reader, BoundsCheck check,
                 Result<void> (*validateName)(const QString&)) {
    const auto name = reader.string(QStringLiteral("Name"), Need::Required);
    if (!name)
        return {};
    if (check == BoundsCheck::Check) {
        if (const auto valid = validateName(*name); !valid)
            reader.fail(QStringLiteral("Name"), valid.error().description);
    }
    return *name;
}

QList<Rule> readRules(JsonReader& reader, BoundsCheck check) {
    QList<Rule> rules;
    const auto array = reader.array(QStringLiteral("Rules"));
    if (!array)
        return rules;
    const QString arrayPath = reader.pathOf(QStringLiteral("Rules"));
    for (qsizetype i = 0; i < array->size(); ++i) {
        const QString path = indexPath(arrayPath, i);
        const QJsonValue value = array->at(i);
        if (!value.isObject()) {
            reader.error().set(
                path, QStringLiteral("expected an object, got %1").arg(jsonTypeName(value)));
            return rules;
        }
        auto rule = Rule::fromJson(value.toObject());
        if (!rule) {
            setMemberError(reader.error(), path, rule.error());
            return rules;
        }
        if (check == BoundsCheck::Check) {
            if (auto valid = rule->validate(); !valid) {
                reader.error().set(path, valid.error().description);
                return rules;
            }
            for (const Rule& earlier : rules) {
                if (earlier.name.compare(rule->name, Qt::CaseInsensitive) == 0) {
                    reader.error().set(
                        memberPath(path, QStringLiteral("Name")),
                        QStringLiteral("a rule named '%1' is already listed").arg(rule->name));
                    return rules;
                }
            }
        }
        rules.append(*rule);
    }
    return rules;
}

// Gives an engine error the JSON path of the entity that caused it, keeping its code.
Error atPath(const QString& jsonPath, const Error& error) {
    Error located = error;
    located.description = jsonPath + QStringLiteral(": ") + error.description;
    return located;
}

EntityProperties withoutForwarding(EntityProperties properties) {
    properties.forwardTo.clear();
    properties.forwardDeadLetteredMessagesTo.clear();
    return properties;
}

bool forwards(const EntityProperties& properties) {
    return !properties.forwardTo.isEmpty() || !properties.forwardDeadLetteredMessagesTo.isEmpty();
}

// Unqualified paths resolve in the broker's first namespace (Broker.h); any other namespace's
// entities must be named "namespace:path".
QString prefixFor(const Broker& broker, const QString& namespaceName) {
    const auto all = broker.namespaces();
    if (!all.isEmpty() && all.first().name.compare(namespaceName, Qt::CaseInsensitive) == 0)
        return {};
    return namespaceName + u':';
}

Result<void> createSubscriptionWith(Broker& broker, const QString& pathPrefix,
                                    const ConfigSubscription& subscription,
                                    const EntityProperties& properties) {
    const auto created =
        broker.createSubscription(pathPrefix + subscription.path(), properties, subscription.rules);
    if (!created)
        return atPath(subscription.jsonPath, created.error());
    return {};
}

// Phase two of applyUserConfig: forwarding targets exist now.
Result<void> applyForwarding(Broker& broker, const QString& pathPrefix, const QString& path,
                             const QString& jsonPath, const EntityProperties& properties) {
    if (!forwards(properties))
        return {};
    const auto updated = broker.updateEntity(pathPrefix + path, properties);
    if (!updated)
        return atPath(jsonPath, updated.error());
    return {};
}

Result<void> applyNamespace(Broker& broker, const ConfigNamespace& ns, ExistingEntities existing) {
    const bool keep = existing == ExistingEntities::Keep;
    bool namespaceExists = false;
    for (const NamespaceInfo& info : broker.namespaces())
        namespaceExists |= info.name.compare(ns.name, Qt::CaseInsensitive) == 0;
    if (!(keep && namespaceExists)) {
        if (auto created = broker.createNamespace({ns.name, ns.tier}); !created)
            return atPath(memberPath(ns.jsonPath, QStringLiteral("Name")), created.error());
    }
    const QString prefix = prefixFor(broker, ns.name);
    // With Keep, an entity that exists is left as it is, forwarding included.
    QSet<QString> made;
    const auto wanted = [&](const QString& path) {
        if (keep && broker.entity(prefix + path).ok())
            return false;
        made.insert(path);
        return true;
    };

    // Phase one: every entity without forwarding, so that creation order does not matter.
    for (const ConfigQueue& queue : ns.queues) {
        if (!wanted(queue.name))
            continue;
        const auto created =
            broker.createQueue(prefix + queue.name, withoutForwarding(queue.properties));
        if (!created)
            return atPath(queue.jsonPath, created.error());
    }
    for (const ConfigTopic& topic : ns.topics) {
        if (wanted(topic.name)) {
            const auto created = broker.createTopic(prefix + topic.name, topic.properties);
            if (!created)
                return atPath(topic.jsonPath, created.error());
        }
        for (const ConfigSubscription& subscription : topic.subscriptions) {
            if (!wanted(subscription.path()))
                continue;
            if (auto r = createSubscriptionWith(broker, prefix, subscription,
                                                withoutForwarding(subscription.properties));
                !r)
                return r;
        }
    }
    // Phase two: forwarding.
    for (const ConfigQueue& queue : ns.queues) {
        if (!made.contains(queue.name))
            continue;
        if (auto r = applyForwarding(broker, prefix, queue.name, queue.jsonPath, queue.properties);
            !r)
            return r;
    }
    for (const ConfigTopic& topic : ns.topics) {
        for (const ConfigSubscription& subscription : topic.subscriptions) {
            if (!made.contains(subscription.path()))
                continue;
            if (auto r = applyForwarding(broker, prefix, subscription.path(), subscription.jsonPath,
                                         subscription.properties);
                !r)
                return r;
        }
    }
    return {};
}

QJsonObject exportSubscription(const EntityInfo& info) {
    QJsonObject json{
        {QStringLiteral("Name"), info.name},
        {QStringLiteral("Properties"), info.properties.toJson(EntityKind::Subscription)}};
    const bool onlyDefault = info.rules.size() == 1 && info.rules.first() == Rule::trueRule();
    if (onlyDefault)
        return json;
    QJsonArray rules;
    if (info.rules.isEmpty()) {
        Rule none;
        none.name = QStringLiteral("$Default");
        none.filterType = FilterType::False;
        rules.append(none.toJson());
    }
    for (const Rule& rule : info.rules)
        rules.append(rule.toJson());
    json.insert(QStringLiteral("Rules"), rules);
    return json;
}

} // namespace

ConfigQueue parseConfigQueue(const QJsonObject& json, const QString& path, Tier tier,
                             BoundsCheck check, ParseError& error) {
    JsonReader reader(json, path, error);
    ConfigQueue queue;
    queue.jsonPath = path;
    queue.name = readName(reader, check, &validateQueueOrTopicPath);
    queue.properties = readProperties(reader, EntityKind::Queue, tier, check);
    reader.refuseUnread();
    return queue;
}

ConfigSubscription parseConfigSubscription(const QJsonObject& json, const QString& path,
                                           const QString& topic, Tier tier, BoundsCheck check,
                                           ParseError& error) {
    JsonReader reader(json, path, error);
    ConfigSubscription subscription;
    subscription.jsonPath = path;
    subscription.topic = topic;
    if (topic.isEmpty())
        subscription.topic =
            reader.string(QStringLiteral("Topic"), Need::Required).value_or(QString());
    subscription.name = readName(reader, check, &validateSubscriptionName);
    subscription.properties = readProperties(reader, EntityKind::Subscription, tier, check);
    subscription.rules = readRules(reader, check);
    reader.refuseUnread();
    return subscription;
}

ConfigTopic parseConfigTopic(const QJsonObject& json, const QString& path, Tier tier,
                             BoundsCheck check, ParseError& error) {
    JsonReader reader(json, path, error);
    ConfigTopic topic;
    topic.jsonPath = path;
    topic.name = readName(reader, check, &validateQueueOrTopicPath);
    topic.properties = readProperties(reader, EntityKind::Topic, tier, check);
    if (const auto subscriptions = reader.array(QStringLiteral("Subscriptions"))) {
        const QString arrayPath = reader.pathOf(QStringLiteral("Subscriptions"));
        for (qsizetype i = 0; i < subscriptions->size() && !error.failed(); ++i) {
            const QString itemPath = indexPath(arrayPath, i);
            const QJsonValue value = subscriptions->at(i);
            if (!value.isObject()) {
                error.set(itemPath,
                          QStringLiteral("expected an object, got %1").arg(jsonTypeName(value)));
                break;
            }
            topic.subscriptions.append(parseConfigSubscription(value.toObject(), itemPath,
                                                               topic.name, tier, check, error));
        }
    }
    reader.refuseUnread();
    return topic;
}

UserConfig parseUserConfig(const QJsonObject& json, const QString& path, ParseError& error) {
    JsonReader reader(json, path, error);
    UserConfig config;
    // Logging is the emulator's own business (console or file); nothing here to configure.
    reader.ignore(QStringLiteral("Logging"));
    const auto namespaces = reader.array(QStringLiteral("Namespaces"), Need::Required);
    reader.refuseUnread();
    if (!namespaces)
        return config;
    const QString arrayPath = reader.pathOf(QStringLiteral("Namespaces"));
    for (qsizetype n = 0; n < namespaces->size() && !error.failed(); ++n) {
        const QString nsPath = indexPath(arrayPath, n);
        const QJsonValue value = namespaces->at(n);
        if (!value.isObject()) {
            error.set(nsPath,
                      QStringLiteral("expected an object, got %1").arg(jsonTypeName(value)));
            break;
        }
        JsonReader nsReader(value.toObject(), nsPath, error);
        ConfigNamespace ns;
        ns.jsonPath = nsPath;
        ns.name = nsReader.string(QStringLiteral("Name"), Need::Required).value_or(QString());
        if (const auto tier = nsReader.choice(
                QStringLiteral("Tier"),
                {QStringLiteral("Basic"), QStringLiteral("Standard"), QStringLiteral("Premium")}))
            ns.tier = static_cast<Tier>(*tier);
        const auto parseList = [&](const QString& key, auto parseOne) {
            const auto items = nsReader.array(key);
            if (!items)
                return;
            const QString listPath = nsReader.pathOf(key);
            for (qsizetype i = 0; i < items->size() && !error.failed(); ++i) {
                const QJsonValue item = items->at(i);
                if (!item.isObject()) {
                    error.set(indexPath(listPath, i),
                              QStringLiteral("expected an object, got %1").arg(jsonTypeName(item)));
                    return;
                }
                parseOne(item.toObject(), indexPath(listPath, i));
            }
        };
        parseList(QStringLiteral("Queues"), [&](const QJsonObject& object, const QString& p) {
            ns.queues.append(parseConfigQueue(object, p, ns.tier, BoundsCheck::Check, error));
        });
        parseList(QStringLiteral("Topics"), [&](const QJsonObject& object, const QString& p) {
            ns.topics.append(parseConfigTopic(object, p, ns.tier, BoundsCheck::Check, error));
        });
        nsReader.refuseUnread();
        config.namespaces.append(ns);
    }
    return config;
}

Result<UserConfig> parseEmulatorConfigDocument(const QByteArray& document) {
    QJsonParseError parseError;
    const QJsonDocument json = QJsonDocument::fromJson(document, &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        // QJsonParseError gives a byte offset; people look for lines.
        const QByteArray before = document.left(parseError.offset);
        const auto line = before.count('\n') + 1;
        const auto column = parseError.offset - (before.lastIndexOf('\n') + 1) + 1;
        return makeError(ErrorCode::InvalidArgument,
                         QStringLiteral("invalid JSON at line %1, column %2: %3")
                             .arg(line)
                             .arg(column)
                             .arg(parseError.errorString()));
    }
    if (!json.isObject())
        return makeError(ErrorCode::InvalidArgument,
                         QStringLiteral("the document must be a JSON object with a UserConfig"));
    ParseError error;
    JsonReader reader(json.object(), {}, error);
    const auto userConfig = reader.object(QStringLiteral("UserConfig"), Need::Required);
    reader.refuseUnread();
    UserConfig config;
    if (userConfig)
        config = parseUserConfig(*userConfig, QStringLiteral("UserConfig"), error);
    if (error.failed())
        return error.toError();
    return config;
}

Result<void> applyUserConfig(Broker& broker, const UserConfig& config, ExistingEntities existing) {
    for (const ConfigNamespace& ns : config.namespaces) {
        if (auto applied = applyNamespace(broker, ns, existing); !applied)
            return applied;
    }
    return {};
}

Result<void> createConfigQueue(Broker& broker, const QString& pathPrefix,
                               const ConfigQueue& queue) {
    const auto created = broker.createQueue(pathPrefix + queue.name, queue.properties);
    if (!created)
        return atPath(queue.jsonPath, created.error());
    return {};
}

Result<void> createConfigTopic(Broker& broker, const QString& pathPrefix,
                               const ConfigTopic& topic) {
    const auto created = broker.createTopic(pathPrefix + topic.name, topic.properties);
    if (!created)
        return atPath(topic.jsonPath, created.error());
    for (const ConfigSubscription& subscription : topic.subscriptions) {
        if (auto r = createConfigSubscription(broker, pathPrefix, subscription); !r)
            return r;
    }
    return {};
}

Result<void> createConfigSubscription(Broker& broker, const QString& pathPrefix,
                                      const ConfigSubscription& subscription) {
    return createSubscriptionWith(broker, pathPrefix, subscription, subscription.properties);
}

Result<QJsonObject> exportUserConfig(const Broker& broker, const QString& namespaceName) {
    std::optional<NamespaceInfo> found;
    for (const NamespaceInfo& ns : broker.namespaces()) {
        if (ns.name.compare(namespaceName, Qt::CaseInsensitive) == 0)
            found = ns;
    }
    if (!found)
        return makeError(ErrorCode::MessagingEntityNotFound,
                         QStringLiteral("no namespace named '%1'").arg(namespaceName));

    QJsonArray queues;
    QJsonArray topics;
    QList<QString> topicPaths; // index into `topics`
    QList<QJsonArray> subscriptionsOf;
    const QList<EntityInfo> entities = broker.entities(found->name);
    for (const EntityInfo& info : entities) {
        if (info.kind == EntityKind::Queue) {
            queues.append(QJsonObject{
                {QStringLiteral("Name"), info.path},
                {QStringLiteral("Properties"), info.properties.toJson(EntityKind::Queue)}});
        } else if (info.kind == EntityKind::Topic) {
            topicPaths.append(info.path);
            subscriptionsOf.append(QJsonArray());
        }
    }
    for (const EntityInfo& info : entities) {
        if (info.kind != EntityKind::Subscription)
            continue;
        for (qsizetype t = 0; t < topicPaths.size(); ++t) {
            if (topicPaths[t].compare(info.topicPath, Qt::CaseInsensitive) == 0)
                subscriptionsOf[t].append(exportSubscription(info));
        }
    }
    for (const EntityInfo& info : entities) {
        if (info.kind != EntityKind::Topic)
            continue;
        const auto t = topicPaths.indexOf(info.path);
        topics.append(
            QJsonObject{{QStringLiteral("Name"), info.path},
                        {QStringLiteral("Properties"), info.properties.toJson(EntityKind::Topic)},
                        {QStringLiteral("Subscriptions"), subscriptionsOf[t]}});
    }
    const QJsonObject ns{{QStringLiteral("Name"), found->name},
                         {QStringLiteral("Tier"), tierName(found->tier)},
                         {QStringLiteral("Queues"), queues},
                         {QStringLiteral("Topics"), topics}};
    return QJsonObject{
        {QStringLiteral("Namespaces"), QJsonArray{ns}},
        {QStringLiteral("Logging"), QJsonObject{{QStringLiteral("Type"), QStringLiteral("File")}}}};
}

} // namespace hourglass
