#include "hourglass/EntityPath.h"

#include "hourglass/ChangeFeed.h"

#include <QStringList>

#include <algorithm>
#include <optional>
#include <utility>

namespace hourglass {

namespace {
bool isNameChar(QChar c) {
    return (c >= u'a' && c <= u'z') || (c >= u'A' && c <= u'Z') || (c >= u'0' && c <= u'9') ||
           c == u'.' || c == u'-' || c == u'_';
}

Error bad(const QString& text) {
    return makeError(ErrorCode::InvalidArgument, text);
}

// Where "topic/Subscriptions/name" splits: the index of the '/' before "Subscriptions" and of the
// one after it, or nothing when the path is not a subscription's.
std::optional<std::pair<qsizetype, qsizetype>> subscriptionSplit(const QString& path) {
    const qsizetype last = path.lastIndexOf(u'/');
    if (last <= 0)
        return std::nullopt;
    const qsizetype previous = path.lastIndexOf(u'/', last - 1);
    if (previous <= 0)
        return std::nullopt;
    const QStringView middle = QStringView(path).mid(previous + 1, last - previous - 1);
    if (middle.compare(kSubscriptionsSegment, Qt::CaseInsensitive) != 0)
        return std::nullopt;
    return std::pair{previous, last};
}

bool same(const QString& a, const QString& b) {
    return a.compare(b, Qt::CaseInsensitive) == 0;
}
} // namespace

Result<EntityPath> EntityPath::parse(const QString& text) {
    auto parsed = parseEntityPath(text);
    if (!parsed)
        return parsed.error();
    EntityPath path;
    path.m_namespace = parsed->namespaceName;
    path.m_qualified = text.contains(u':');
    path.m_entity = parsed->entityPath;
    path.m_deadLetter = parsed->deadLetter;
    return path;
}

EntityPath EntityPath::of(const QString& text) {
    EntityPath path;
    QString rest = text;
    const qsizetype colon = rest.indexOf(u':');
    if (colon >= 0) {
        path.m_qualified = true;
        path.m_namespace = rest.left(colon);
        rest = rest.mid(colon + 1);
    }
    if (rest.endsWith(kDeadLetterSuffix, Qt::CaseInsensitive)) {
        path.m_deadLetter = true;
        rest.chop(kDeadLetterSuffix.size());
    }
    path.m_entity = rest;
    return path;
}

EntityPath EntityPath::of(const QString& namespaceName, const QString& entity) {
    EntityPath path;
    path.m_namespace = namespaceName;
    path.m_qualified = true;
    path.m_entity = entity;
    return path;
}

bool EntityPath::isSubscription() const {
    return subscriptionSplit(m_entity).has_value();
}

EntityPath EntityPath::topic() const {
    const auto split = subscriptionSplit(m_entity);
    if (!split)
        return {};
    EntityPath topic = *this;
    topic.m_entity = m_entity.left(split->first);
    topic.m_deadLetter = false;
    return topic;
}

QString EntityPath::subscriptionName() const {
    const auto split = subscriptionSplit(m_entity);
    return split ? m_entity.mid(split->second + 1) : QString();
}

EntityPath EntityPath::deadLetterQueue() const {
    EntityPath queue = *this;
    queue.m_deadLetter = true;
    return queue;
}

EntityPath EntityPath::owner() const {
    EntityPath entity = *this;
    entity.m_deadLetter = false;
    return entity;
}

QString EntityPath::path() const {
    return m_deadLetter ? m_entity + kDeadLetterSuffix : m_entity;
}

QString EntityPath::qualifiedName(const QString& defaultNamespace) const {
    if (m_qualified)
        return qualifiedPath(m_namespace, path());
    return defaultNamespace.isEmpty() ? path() : qualifiedPath(defaultNamespace, path());
}

QString EntityPath::toString() const {
    return qualifiedName();
}

bool EntityPath::sameAs(const EntityPath& other) const {
    return m_qualified == other.m_qualified && m_deadLetter == other.m_deadLetter &&
           same(m_namespace, other.m_namespace) && same(m_entity, other.m_entity);
}

bool EntityPath::isNamedBy(const QString& feedPath) const {
    const EntityPath named = of(feedPath);
    if (m_qualified)
        return sameAs(named);
    return m_deadLetter == named.m_deadLetter && same(m_entity, named.m_entity);
}

bool EntityPath::isNamedIn(const QSet<QString>& feedPaths) const {
    return std::any_of(feedPaths.begin(), feedPaths.end(),
                       [this](const QString& feedPath) { return isNamedBy(feedPath); });
}

bool EntityPath::messagesChangedIn(const ChangeBatch& batch) const {
    const EntityPath entity = owner();
    return isNamedIn(batch.messagesAdded) || isNamedIn(batch.messagesRemoved) ||
           entity.isNamedIn(batch.deleted) || entity.isNamedIn(batch.created);
}

bool EntityPath::entityChangedIn(const ChangeBatch& batch) const {
    const EntityPath entity = owner();
    return entity.isNamedIn(batch.countsChanged) || entity.isNamedIn(batch.updated) ||
           entity.isNamedIn(batch.created) || entity.isNamedIn(batch.deleted);
}

Result<void> validateQueueOrTopicPath(const QString& path) {
    if (path.isEmpty())
        return bad(QStringLiteral("An entity path cannot be empty."));
    if (path.size() > 260)
        return bad(QStringLiteral("The entity path '%1...' is %2 characters long; at most 260 "
                                  "are allowed.")
                       .arg(path.left(20))
                       .arg(path.size()));
    if (path.startsWith(u'/') || path.endsWith(u'/'))
        return bad(QStringLiteral("The entity path '%1' cannot start or end with '/'.").arg(path));
    for (const QChar c : path) {
        if (!isNameChar(c) && c != u'/')
            return bad(QStringLiteral("The entity path '%1' contains '%2'; only letters, digits, "
                                      "'.', '-', '_' and '/' are allowed.")
                           .arg(path, QString(c)));
    }
    const auto segments = path.split(u'/');
    for (const QString& segment : segments) {
        if (segment.isEmpty())
            return bad(QStringLiteral("The entity path '%1' has an empty segment.").arg(path));
        if (segment.compare(kSubscriptionsSegment, Qt::CaseInsensitive) == 0)
            return bad(QStringLiteral("The entity path '%1' cannot contain the reserved segment "
                                      "'Subscriptions'.")
                           .arg(path));
    }
    return {};
}

Result<void> validateSubscriptionName(const QString& name) {
    if (name.isEmpty())
        return bad(QStringLiteral("A subscription or rule name cannot be empty."));
    if (name.size() > 50)
        return bad(QStringLiteral("The name '%1' is %2 characters long; at most 50 are allowed.")
                       .arg(name)
                       .arg(name.size()));
    for (const QChar c : name) {
        if (!isNameChar(c))
            return bad(QStringLiteral("The name '%1' contains '%2'; only letters, digits, '.', "
                                      "'-' and '_' are allowed.")
                           .arg(name, QString(c)));
    }
    return {};
}

Result<void> validateNamespaceName(const QString& name) {
    if (name.isEmpty() || name.size() > 50)
        return bad(QStringLiteral("A namespace name must have 1 to 50 characters."));
    for (const QChar c : name) {
        const bool ok = (c >= u'a' && c <= u'z') || (c >= u'A' && c <= u'Z') ||
                        (c >= u'0' && c <= u'9') || c == u'-';
        if (!ok)
            return bad(QStringLiteral("The namespace name '%1' contains '%2'; only letters, "
                                      "digits and '-' are allowed.")
                           .arg(name, QString(c)));
    }
    return {};
}

Result<ParsedPath> parseEntityPath(const QString& text) {
    ParsedPath parsed;
    QString rest = text;
    const int colon = rest.indexOf(u':');
    if (colon >= 0) {
        parsed.namespaceName = rest.left(colon);
        if (auto ok = validateNamespaceName(parsed.namespaceName); !ok)
            return ok.error();
        rest = rest.mid(colon + 1);
    }
    if (rest.endsWith(kDeadLetterSuffix, Qt::CaseInsensitive)) {
        parsed.deadLetter = true;
        rest.chop(kDeadLetterSuffix.size());
    }
    // "topic/Subscriptions/name": the last two segments mark a subscription.
    if (const auto split = subscriptionSplit(rest)) {
        parsed.isSubscription = true;
        parsed.topicPath = rest.left(split->first);
        parsed.subscriptionName = rest.mid(split->second + 1);
        if (auto ok = validateQueueOrTopicPath(parsed.topicPath); !ok)
            return ok.error();
        if (auto ok = validateSubscriptionName(parsed.subscriptionName); !ok)
            return ok.error();
        parsed.entityPath =
            parsed.topicPath + u'/' + kSubscriptionsSegment + u'/' + parsed.subscriptionName;
        return parsed;
    }
    if (auto ok = validateQueueOrTopicPath(rest); !ok)
        return ok.error();
    parsed.entityPath = rest;
    return parsed;
}

} // namespace hourglass
