// The client's reading of replies (hourglass/admin/AtomCodec.h): entries and feeds read with the
// server's own XmlTree, AtomReader and RuleReader, unknown elements passed over.

#include "AdminErrors.h"
#include "AtomReader.h"
#include "XmlTree.h"

#include "hourglass/admin/AtomCodec.h"

#include <QUrl>
#include <QUrlQuery>

namespace hourglass::admin {

static_assert(kMaxQuotedReply == kMaxQuoted);

namespace {
// A path longer than any the service allows (260 for a queue plus two names of 50) is not one.
constexpr qsizetype kMaxReplyPath = 400;

Error unreadable(const QString& why) {
    return makeError(ErrorCode::ServiceCommunicationProblem,
                     QStringLiteral("The namespace's reply could not be read: %1").arg(why));
}

Result<XmlElement> parseReply(const QByteArray& body) {
    if (body.trimmed().isEmpty())
        return unreadable(QStringLiteral("it is empty."));
    XmlParse parsed = parseXml(body, kMaxReplyXmlElements);
    if (!parsed.root)
        return unreadable(parsed.error);
    return std::move(*parsed.root);
}

QString childText(const XmlElement& element, const QString& name) {
    const XmlElement* child = element.child(name);
    return child ? child->text.trimmed() : QString();
}

// The entity path an entry's <id> names: "https://host/orders/Subscriptions/s?api-version=..."
// -> "orders/Subscriptions/s".
Result<QString> pathOfEntry(const XmlElement& entry) {
    const QUrl id(childText(entry, QStringLiteral("id")), QUrl::StrictMode);
    QString path = id.isValid() ? id.path(QUrl::FullyDecoded) : QString();
    while (path.startsWith(u'/'))
        path.remove(0, 1);
    while (path.endsWith(u'/'))
        path.chop(1);
    if (path.isEmpty() || path.size() > kMaxReplyPath)
        return unreadable(QStringLiteral("an entry's id names no entity."));
    return path;
}

// The description an entry's <content> holds.
Result<const XmlElement*> descriptionOf(const XmlElement& entry) {
    const XmlElement* content = entry.child(QStringLiteral("content"));
    if (!content || content->children.size() != 1)
        return unreadable(QStringLiteral("an entry's content does not hold one description."));
    return &content->children.first();
}

std::optional<EntityKind> entityKindOf(const QString& description) {
    if (description == QLatin1String("QueueDescription"))
        return EntityKind::Queue;
    if (description == QLatin1String("TopicDescription"))
        return EntityKind::Topic;
    if (description == QLatin1String("SubscriptionDescription"))
        return EntityKind::Subscription;
    return std::nullopt;
}

Result<qint64> count(const XmlElement& parent, const QString& name) {
    const QString text = childText(parent, name);
    if (text.isEmpty())
        return qint64(0); // a figure the service leaves out counts nothing
    bool ok = false;
    const qint64 value = text.toLongLong(&ok);
    if (!ok || value < 0)
        return unreadable(QStringLiteral("%1 is not a count.").arg(name));
    return value;
}

Result<EntityCounts> countsOf(const XmlElement& description) {
    EntityCounts counts;
    const auto size = count(description, QStringLiteral("SizeInBytes"));
    if (!size)
        return size.error();
    counts.sizeInBytes = *size;
    const XmlElement* details = description.child(QStringLiteral("CountDetails"));
    if (!details)
        return counts;
    const auto active = count(*details, QStringLiteral("ActiveMessageCount"));
    const auto dead = count(*details, QStringLiteral("DeadLetterMessageCount"));
    const auto scheduled = count(*details, QStringLiteral("ScheduledMessageCount"));
    for (const auto* figure : {&active, &dead, &scheduled})
        if (!*figure)
            return figure->error();
    counts.active = *active;
    counts.deadLettered = *dead;
    counts.scheduled = *scheduled;
    return counts;
}

// Times are what the window shows, not what it decides by: one it cannot read is left at 0.
Instant timeOf(const XmlElement& description, const QString& name) {
    return parseInstant(childText(description, name)).value_or(0);
}

Result<EntityInfo> entityOf(const XmlElement& entry) {
    const auto description = descriptionOf(entry);
    if (!description)
        return description.error();
    const auto kind = entityKindOf((*description)->name);
    if (!kind)
        return unreadable(QStringLiteral("'%1' is not a queue, topic or subscription.")
                              .arg(quoted((*description)->name)));
    const auto path = pathOfEntry(entry);
    if (!path)
        return path.error();
    EntityInfo entity;
    entity.kind = *kind;
    entity.path = *path;
    entity.name = path->section(u'/', -1);
    if (*kind == EntityKind::Subscription) {
        const qsizetype marker =
            path->lastIndexOf(QLatin1String("/Subscriptions/"), -1, Qt::CaseInsensitive);
        if (marker <= 0)
            return unreadable(QStringLiteral("a subscription's id names no topic."));
        entity.topicPath = path->left(marker);
    }
    const XmlElement* author = entry.child(QStringLiteral("author"));
    if (author)
        entity.namespaceName = childText(*author, QStringLiteral("name"));
    auto properties = readProperties(
        **description, *kind, EntityProperties::defaults(Tier::Standard), UnknownElements::Skip);
    if (!properties)
        return unreadable(properties.error().description);
    entity.properties = std::move(properties).value();
    const auto counts = countsOf(**description);
    if (!counts)
        return counts.error();
    entity.counts = *counts;
    entity.createdAt = timeOf(**description, QStringLiteral("CreatedAt"));
    entity.updatedAt = timeOf(**description, QStringLiteral("UpdatedAt"));
    entity.lastActivityAt = timeOf(**description, QStringLiteral("AccessedAt"));
    return entity;
}

Result<Rule> ruleOf(const XmlElement& entry) {
    const auto description = descriptionOf(entry);
    if (!description)
        return description.error();
    if ((*description)->name != QLatin1String("RuleDescription"))
        return unreadable(QStringLiteral("'%1' is not a rule.").arg(quoted((*description)->name)));
    QString name = childText(**description, QStringLiteral("Name"));
    if (name.isEmpty())
        name = childText(entry, QStringLiteral("title"));
    if (name.isEmpty())
        return unreadable(QStringLiteral("a rule has no name."));
    auto rule = readRule(**description, name, UnknownElements::Skip);
    if (!rule)
        return unreadable(rule.error().description);
    return rule;
}

// The one entry a reply holds: the entry itself, or a feed's only one (an empty feed is how the
// service may answer a GET of something that is not there).
Result<XmlElement> singleEntry(const QByteArray& body) {
    auto root = parseReply(body);
    if (!root)
        return root.error();
    if (root->name == QLatin1String("entry"))
        return root;
    if (root->name != QLatin1String("feed"))
        return unreadable(QStringLiteral("it is neither an entry nor a feed."));
    for (const XmlElement& child : root->children)
        if (child.name == QLatin1String("entry"))
            return child;
    return makeError(ErrorCode::MessagingEntityNotFound,
                     QStringLiteral("The namespace has no such entity."));
}

// A feed's entries and the `$skip` its `next` link names.
struct Feed {
    QList<XmlElement> entries;
    std::optional<int> nextSkip;
};

Result<Feed> feedOf(const QByteArray& body) {
    auto root = parseReply(body);
    if (!root)
        return root.error();
    if (root->name != QLatin1String("feed"))
        return unreadable(QStringLiteral("it is not a feed."));
    Feed feed;
    for (XmlElement& child : root->children) {
        if (child.name == QLatin1String("entry")) {
            feed.entries.append(std::move(child));
        } else if (child.name == QLatin1String("link") &&
                   child.attribute(QStringLiteral("rel")) == QLatin1String("next")) {
            const QUrl next(child.attribute(QStringLiteral("href")));
            bool ok = false;
            const int skip = QUrlQuery(next).queryItemValue(QStringLiteral("$skip")).toInt(&ok);
            if (!ok || skip < 0)
                return unreadable(QStringLiteral("the next page's link has no $skip."));
            feed.nextSkip = skip;
        }
    }
    return feed;
}
} // namespace

Result<EntityInfo> readEntityReply(const QByteArray& body) {
    const auto entry = singleEntry(body);
    if (!entry)
        return entry.error();
    return entityOf(*entry);
}

Result<EntityPage> readEntityFeed(const QByteArray& body) {
    const auto feed = feedOf(body);
    if (!feed)
        return feed.error();
    EntityPage page;
    page.nextSkip = feed->nextSkip;
    for (const XmlElement& entry : feed->entries) {
        auto entity = entityOf(entry);
        if (!entity)
            return entity.error();
        page.entities.append(std::move(entity).value());
    }
    return page;
}

Result<Rule> readRuleReply(const QByteArray& body) {
    const auto entry = singleEntry(body);
    if (!entry)
        return entry.error();
    return ruleOf(*entry);
}

Result<RulePage> readRuleFeed(const QByteArray& body) {
    const auto feed = feedOf(body);
    if (!feed)
        return feed.error();
    RulePage page;
    page.nextSkip = feed->nextSkip;
    for (const XmlElement& entry : feed->entries) {
        auto rule = ruleOf(entry);
        if (!rule)
            return rule.error();
        page.rules.append(std::move(rule).value());
    }
    return page;
}

Result<NamespaceInfo> readNamespaceReply(const QByteArray& body) {
    const auto entry = singleEntry(body);
    if (!entry)
        return entry.error();
    const auto description = descriptionOf(*entry);
    if (!description)
        return description.error();
    if ((*description)->name != QLatin1String("NamespaceInfo"))
        return unreadable(QStringLiteral("it does not describe a namespace."));
    NamespaceInfo info;
    info.name = childText(**description, QStringLiteral("Name"));
    if (info.name.isEmpty())
        return unreadable(QStringLiteral("the namespace has no name."));
    const QString sku = childText(**description, QStringLiteral("MessagingSKU"));
    const auto tier = tierFromName(sku);
    if (!tier)
        return unreadable(QStringLiteral("'%1' is not a tier.").arg(quoted(sku)));
    info.tier = *tier;
    return info;
}

std::optional<QString> readErrorDetail(const QByteArray& body) {
    const XmlParse parsed = parseXml(body);
    if (!parsed.root || parsed.root->name != QLatin1String("Error"))
        return std::nullopt;
    return quoted(childText(*parsed.root, QStringLiteral("Detail")));
}

QString quotedReply(const QString& text) {
    return quoted(text);
}

} // namespace hourglass::admin
