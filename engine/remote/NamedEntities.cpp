// The entities a user names for a key that cannot list its namespace (NamedEntities.h).
#include "hourglass/remote/NamedEntities.h"

#include "hourglass/EntityPath.h"

#include <QHash>
#include <QRegularExpression>

#include <algorithm>
#include <optional>

namespace hourglass::remote {

namespace {

// The kind words a line may start with.
std::optional<EntityKind> kindWord(const QString& word) {
    if (word.compare(QLatin1String("queue"), Qt::CaseInsensitive) == 0)
        return EntityKind::Queue;
    if (word.compare(QLatin1String("topic"), Qt::CaseInsensitive) == 0)
        return EntityKind::Topic;
    if (word.compare(QLatin1String("subscription"), Qt::CaseInsensitive) == 0)
        return EntityKind::Subscription;
    return std::nullopt;
}

Error lineError(int lineNumber, const QString& why) {
    return makeError(ErrorCode::InvalidArgument,
                     QStringLiteral("Line %1: %2").arg(lineNumber).arg(why));
}

Result<NamedEntity> parseLine(const QString& line, int lineNumber) {
    const QStringList words =
        line.split(QRegularExpression(QStringLiteral("\\s+")), Qt::SkipEmptyParts);
    if (words.size() > 2)
        return lineError(lineNumber, QStringLiteral("write a kind and one path, or a path."));
    std::optional<EntityKind> said;
    if (words.size() == 2) {
        said = kindWord(words.first());
        if (!said)
            return lineError(lineNumber,
                             QStringLiteral("the kind is queue, topic or subscription."));
    }
    const QString path = words.last();
    auto parsed = parseEntityPath(path);
    if (!parsed)
        return lineError(lineNumber, parsed.error().description);
    if (!parsed->namespaceName.isEmpty() || parsed->deadLetter)
        return lineError(lineNumber,
                         QStringLiteral("name the entity itself, without a namespace or a "
                                        "dead-letter queue."));
    const EntityKind byPath = parsed->isSubscription ? EntityKind::Subscription : EntityKind::Queue;
    if (said && (*said == EntityKind::Subscription) != parsed->isSubscription)
        return lineError(lineNumber,
                         parsed->isSubscription
                             ? QStringLiteral("a subscription's path names a subscription.")
                             : QStringLiteral("a subscription's path is "
                                              "topic/subscriptions/name."));
    return NamedEntity{path, said.value_or(byPath)};
}

EntityInfo infoOf(const NamedEntity& named, const QString& namespaceName) {
    EntityInfo info;
    info.namespaceName = namespaceName;
    info.path = named.path;
    info.kind = named.kind;
    info.countsKnown = false;
    info.name = named.path.section(u'/', -1);
    if (named.kind == EntityKind::Subscription)
        info.topicPath = named.path.section(u'/', 0, -3);
    return info;
}

} // namespace

Result<QList<NamedEntity>> parseNamedEntities(const QString& text) {
    QList<NamedEntity> entities;
    QHash<QString, qsizetype> at; // path (case-blind, as the service compares) -> index
    const QStringList lines = text.split(u'\n');
    for (int i = 0; i < lines.size(); ++i) {
        const QString line = lines[i].trimmed();
        if (line.isEmpty() || line.startsWith(u'#'))
            continue;
        auto named = parseLine(line, i + 1);
        if (!named)
            return named.error();
        const QString key = named->path.toLower();
        if (auto found = at.find(key); found != at.end()) {
            entities[*found] = *named;
        } else {
            at.insert(key, entities.size());
            entities.append(*named);
        }
    }
    return entities;
}

QString namedEntitiesText(const QList<NamedEntity>& entities) {
    QStringList lines;
    for (const NamedEntity& named : entities)
        lines << (named.kind == EntityKind::Topic ? QStringLiteral("topic ") + named.path
                                                  : named.path);
    return lines.join(u'\n');
}

NamedEntity namedEntityOf(const QString& entityPath) {
    auto parsed = parseEntityPath(entityPath);
    const bool subscription = parsed && parsed->isSubscription;
    return NamedEntity{entityPath, subscription ? EntityKind::Subscription : EntityKind::Queue};
}

QList<EntityInfo> namedEntityInfos(const QList<NamedEntity>& named, const QString& namespaceName) {
    QList<EntityInfo> top;
    QList<EntityInfo> subscriptions;
    QHash<QString, bool> topics; // topic paths (case-blind) already in `top`
    for (const NamedEntity& entity : named) {
        if (entity.kind == EntityKind::Subscription)
            continue;
        top.append(infoOf(entity, namespaceName));
        if (entity.kind == EntityKind::Topic)
            topics.insert(entity.path.toLower(), true);
    }
    for (const NamedEntity& entity : named) {
        if (entity.kind != EntityKind::Subscription)
            continue;
        EntityInfo info = infoOf(entity, namespaceName);
        if (!topics.contains(info.topicPath.toLower())) {
            topics.insert(info.topicPath.toLower(), true);
            top.append(infoOf(NamedEntity{info.topicPath, EntityKind::Topic}, namespaceName));
        }
        subscriptions.append(std::move(info));
    }
    const auto byPath = [](const EntityInfo& a, const EntityInfo& b) {
        return a.path.compare(b.path, Qt::CaseInsensitive) < 0;
    };
    std::sort(top.begin(), top.end(), byPath);
    std::sort(subscriptions.begin(), subscriptions.end(), byPath);
    return top + subscriptions;
}

} // namespace hourglass::remote
