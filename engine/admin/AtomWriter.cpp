#include "AtomWriter.h"

#include "TypedValues.h"

#include "hourglass/admin/AtomCodec.h"

#include "hourglass/EntityPath.h"

#include <QXmlStreamWriter>

#include <functional>

namespace hourglass::admin {

namespace {
const QString kAtom = QStringLiteral("http://www.w3.org/2005/Atom");
const QString kConnect =
    QStringLiteral("http://schemas.microsoft.com/netservices/2010/10/servicebus/connect");
const QString kSchemaInstance = QStringLiteral("http://www.w3.org/2001/XMLSchema-instance");
const QString kSchema = QStringLiteral("http://www.w3.org/2001/XMLSchema");
const QString kSerialization =
    QStringLiteral("http://schemas.microsoft.com/2003/10/Serialization/");
const QString kCounts =
    QStringLiteral("http://schemas.microsoft.com/netservices/2011/06/servicebus");
const QString kApiVersion = QStringLiteral("api-version=2021-05");

using Body = std::function<void(QXmlStreamWriter&)>;

// A reply describes an entity as it is (runtime figures, the service's constants); a request
// sets only what can be set, and leaves the rest to the service's defaults (a partitioned or
// express entity on Azure keeps being one when the window updates it). An update also names the
// forwarding addresses it clears, as empty elements: the server here starts an update from the
// entity's current properties, so leaving one out would keep it.
enum class Purpose { Reply, Create, Update };

QByteArray document(const Body& body) {
    QByteArray bytes;
    QXmlStreamWriter writer(&bytes);
    writer.writeStartDocument();
    body(writer);
    writer.writeEndDocument();
    return bytes;
}

void text(QXmlStreamWriter& w, const QString& name, const QString& value) {
    w.writeTextElement(name, value);
}

QString flag(bool value) {
    return value ? QStringLiteral("true") : QStringLiteral("false");
}

QString number(qint64 value) {
    return QString::number(value);
}

QString duration(Millis value) {
    return formatIsoDuration(value);
}

QString url(const ReplyContext& context, const QString& path) {
    return context.origin + u'/' + path + u'?' + kApiVersion;
}

QString forwarding(const ReplyContext& context, const QString& path) {
    return QStringLiteral("sb://") + context.host + u'/' + path;
}

void forwardingElement(QXmlStreamWriter& w, const ReplyContext& c, const QString& name,
                       const QString& path, Purpose purpose) {
    if (!path.isEmpty())
        w.writeTextElement(name, forwarding(c, path));
    else if (purpose == Purpose::Update)
        w.writeEmptyElement(name);
}

// <entry> with its Atom elements around `description`.
void entry(QXmlStreamWriter& w, const ReplyContext& context, const QString& path,
           const QString& title, Instant published, Instant updated, const Body& description) {
    w.writeStartElement(QStringLiteral("entry"));
    w.writeAttribute(QStringLiteral("xmlns"), kAtom);
    text(w, QStringLiteral("id"), url(context, path));
    w.writeStartElement(QStringLiteral("title"));
    w.writeAttribute(QStringLiteral("type"), QStringLiteral("text"));
    w.writeCharacters(title);
    w.writeEndElement();
    text(w, QStringLiteral("published"), formatInstant(published));
    text(w, QStringLiteral("updated"), formatInstant(updated));
    w.writeStartElement(QStringLiteral("author"));
    text(w, QStringLiteral("name"), context.namespaceName);
    w.writeEndElement();
    w.writeEmptyElement(QStringLiteral("link"));
    w.writeAttribute(QStringLiteral("rel"), QStringLiteral("self"));
    w.writeAttribute(QStringLiteral("href"), url(context, path));
    w.writeStartElement(QStringLiteral("content"));
    w.writeAttribute(QStringLiteral("type"), QStringLiteral("application/xml"));
    description(w);
    w.writeEndElement(); // content
    w.writeEndElement(); // entry
}

void startDescription(QXmlStreamWriter& w, const QString& name) {
    w.writeStartElement(name);
    w.writeAttribute(QStringLiteral("xmlns"), kConnect);
    w.writeAttribute(QStringLiteral("xmlns:i"), kSchemaInstance);
}

// Service Bus counts a locked or deferred message as active; the engine keeps them apart.
qint64 activeOf(const EntityCounts& counts) {
    return counts.active + counts.locked + counts.deferred;
}

qint64 totalOf(const EntityCounts& counts) {
    return activeOf(counts) + counts.scheduled + counts.deadLettered;
}

void countDetails(QXmlStreamWriter& w, const EntityCounts& counts) {
    w.writeStartElement(QStringLiteral("CountDetails"));
    w.writeAttribute(QStringLiteral("xmlns:d2p1"), kCounts);
    text(w, QStringLiteral("d2p1:ActiveMessageCount"), number(activeOf(counts)));
    text(w, QStringLiteral("d2p1:DeadLetterMessageCount"), number(counts.deadLettered));
    text(w, QStringLiteral("d2p1:ScheduledMessageCount"), number(counts.scheduled));
    text(w, QStringLiteral("d2p1:TransferMessageCount"), QStringLiteral("0"));
    text(w, QStringLiteral("d2p1:TransferDeadLetterMessageCount"), QStringLiteral("0"));
    w.writeEndElement();
}

void times(QXmlStreamWriter& w, const EntityInfo& e) {
    text(w, QStringLiteral("CreatedAt"), formatInstant(e.createdAt));
    text(w, QStringLiteral("UpdatedAt"), formatInstant(e.updatedAt));
    text(w, QStringLiteral("AccessedAt"), formatInstant(e.lastActivityAt));
}

// Premium's setting: a request names it only when it differs from the other tiers' fixed value,
// which the service refuses to be told on a Standard namespace.
void maxMessageSize(QXmlStreamWriter& w, const EntityProperties& p, Purpose purpose) {
    if (purpose != Purpose::Reply &&
        p.maxMessageSizeInKilobytes ==
            EntityProperties::defaults(Tier::Standard).maxMessageSizeInKilobytes)
        return;
    text(w, QStringLiteral("MaxMessageSizeInKilobytes"), number(p.maxMessageSizeInKilobytes));
}

void queueDescription(QXmlStreamWriter& w, const ReplyContext& c, const EntityInfo& e,
                      Purpose purpose = Purpose::Reply) {
    const EntityProperties& p = e.properties;
    const bool reply = purpose == Purpose::Reply;
    startDescription(w, QStringLiteral("QueueDescription"));
    text(w, QStringLiteral("LockDuration"), duration(p.lockDuration));
    text(w, QStringLiteral("MaxSizeInMegabytes"), number(p.maxSizeInMegabytes));
    text(w, QStringLiteral("RequiresDuplicateDetection"), flag(p.requiresDuplicateDetection));
    text(w, QStringLiteral("RequiresSession"), flag(p.requiresSession));
    text(w, QStringLiteral("DefaultMessageTimeToLive"), duration(p.defaultMessageTimeToLive));
    text(w, QStringLiteral("DeadLetteringOnMessageExpiration"),
         flag(p.deadLetteringOnMessageExpiration));
    text(w, QStringLiteral("DuplicateDetectionHistoryTimeWindow"),
         duration(p.duplicateDetectionHistoryTimeWindow));
    text(w, QStringLiteral("MaxDeliveryCount"), number(p.maxDeliveryCount));
    if (reply) {
        text(w, QStringLiteral("EnableBatchedOperations"), flag(true));
        text(w, QStringLiteral("SizeInBytes"), number(e.counts.sizeInBytes));
        text(w, QStringLiteral("MessageCount"), number(totalOf(e.counts)));
        text(w, QStringLiteral("IsAnonymousAccessible"), flag(false));
    }
    text(w, QStringLiteral("Status"), entityStatusName(p.status));
    forwardingElement(w, c, QStringLiteral("ForwardTo"), p.forwardTo, purpose);
    if (reply) {
        times(w, e);
        text(w, QStringLiteral("SupportOrdering"), flag(true));
        countDetails(w, e.counts);
    }
    text(w, QStringLiteral("AutoDeleteOnIdle"), duration(p.autoDeleteOnIdle));
    if (reply) {
        text(w, QStringLiteral("EnablePartitioning"), flag(false));
        text(w, QStringLiteral("EntityAvailabilityStatus"), QStringLiteral("Available"));
    }
    forwardingElement(w, c, QStringLiteral("ForwardDeadLetteredMessagesTo"),
                      p.forwardDeadLetteredMessagesTo, purpose);
    if (reply)
        text(w, QStringLiteral("EnableExpress"), flag(false));
    maxMessageSize(w, p, purpose);
    w.writeEndElement();
}

void topicDescription(QXmlStreamWriter& w, const EntityInfo& e, int subscriptionCount,
                      Purpose purpose = Purpose::Reply) {
    const EntityProperties& p = e.properties;
    const bool reply = purpose == Purpose::Reply;
    startDescription(w, QStringLiteral("TopicDescription"));
    text(w, QStringLiteral("DefaultMessageTimeToLive"), duration(p.defaultMessageTimeToLive));
    text(w, QStringLiteral("MaxSizeInMegabytes"), number(p.maxSizeInMegabytes));
    text(w, QStringLiteral("RequiresDuplicateDetection"), flag(p.requiresDuplicateDetection));
    text(w, QStringLiteral("DuplicateDetectionHistoryTimeWindow"),
         duration(p.duplicateDetectionHistoryTimeWindow));
    if (reply) {
        text(w, QStringLiteral("EnableBatchedOperations"), flag(true));
        text(w, QStringLiteral("SizeInBytes"), number(e.counts.sizeInBytes));
        text(w, QStringLiteral("FilteringMessagesBeforePublishing"), flag(false));
        text(w, QStringLiteral("IsAnonymousAccessible"), flag(false));
    }
    text(w, QStringLiteral("Status"), entityStatusName(p.status));
    if (reply) {
        times(w, e);
        text(w, QStringLiteral("SupportOrdering"), flag(true));
        countDetails(w, e.counts);
    }
    text(w, QStringLiteral("AutoDeleteOnIdle"), duration(p.autoDeleteOnIdle));
    if (reply) {
        text(w, QStringLiteral("EnablePartitioning"), flag(false));
        text(w, QStringLiteral("IsExpress"), flag(false));
        text(w, QStringLiteral("EntityAvailabilityStatus"), QStringLiteral("Available"));
        text(w, QStringLiteral("EnableSubscriptionPartitioning"), flag(false));
        text(w, QStringLiteral("EnableExpress"), flag(false));
        text(w, QStringLiteral("SubscriptionCount"), number(subscriptionCount));
    }
    maxMessageSize(w, p, purpose);
    w.writeEndElement();
}

void ruleBody(QXmlStreamWriter& w, const Rule& rule);

// In a request, `e.rules`' first rule goes as the DefaultRuleDescription (the service makes it
// the subscription's only rule, in place of $Default).
void subscriptionDescription(QXmlStreamWriter& w, const ReplyContext& c, const EntityInfo& e,
                             Purpose purpose = Purpose::Reply) {
    const EntityProperties& p = e.properties;
    const bool reply = purpose == Purpose::Reply;
    startDescription(w, QStringLiteral("SubscriptionDescription"));
    text(w, QStringLiteral("LockDuration"), duration(p.lockDuration));
    text(w, QStringLiteral("RequiresSession"), flag(p.requiresSession));
    text(w, QStringLiteral("DefaultMessageTimeToLive"), duration(p.defaultMessageTimeToLive));
    text(w, QStringLiteral("DeadLetteringOnMessageExpiration"),
         flag(p.deadLetteringOnMessageExpiration));
    text(w, QStringLiteral("DeadLetteringOnFilterEvaluationExceptions"),
         flag(p.deadLetteringOnFilterEvaluationExceptions));
    if (!reply && !e.rules.isEmpty()) {
        w.writeStartElement(QStringLiteral("DefaultRuleDescription"));
        ruleBody(w, e.rules.first());
        w.writeEndElement();
    }
    if (reply)
        text(w, QStringLiteral("MessageCount"), number(totalOf(e.counts)));
    text(w, QStringLiteral("MaxDeliveryCount"), number(p.maxDeliveryCount));
    if (reply)
        text(w, QStringLiteral("EnableBatchedOperations"), flag(true));
    text(w, QStringLiteral("Status"), entityStatusName(p.status));
    forwardingElement(w, c, QStringLiteral("ForwardTo"), p.forwardTo, purpose);
    if (reply) {
        times(w, e);
        countDetails(w, e.counts);
    }
    text(w, QStringLiteral("AutoDeleteOnIdle"), duration(p.autoDeleteOnIdle));
    forwardingElement(w, c, QStringLiteral("ForwardDeadLetteredMessagesTo"),
                      p.forwardDeadLetteredMessagesTo, purpose);
    if (reply)
        text(w, QStringLiteral("EntityAvailabilityStatus"), QStringLiteral("Available"));
    w.writeEndElement();
}

void typedValue(QXmlStreamWriter& w, const QString& key, const QVariant& value) {
    const auto typed = typedValueToXml(value);
    if (!typed)
        return; // the engine keeps only values of Service Bus types
    w.writeStartElement(QStringLiteral("KeyValueOfstringanyType"));
    text(w, QStringLiteral("Key"), key);
    w.writeStartElement(QStringLiteral("Value"));
    w.writeAttribute(QStringLiteral("i:type"), QStringLiteral("d6p1:") + typed->type);
    w.writeAttribute(QStringLiteral("xmlns:d6p1"),
                     typed->serializationNamespace ? kSerialization : kSchema);
    w.writeCharacters(typed->text);
    w.writeEndElement();
    w.writeEndElement();
}

void sqlBody(QXmlStreamWriter& w, const QString& expression) {
    text(w, QStringLiteral("SqlExpression"), expression);
    text(w, QStringLiteral("CompatibilityLevel"), QStringLiteral("20"));
}

void correlationBody(QXmlStreamWriter& w, const CorrelationFilter& f) {
    const auto field = [&w](const char* name, const QString& value) {
        if (!value.isEmpty())
            text(w, QLatin1String(name), value);
    };
    field("CorrelationId", f.correlationId);
    field("MessageId", f.messageId);
    field("To", f.to);
    field("ReplyTo", f.replyTo);
    field("Label", f.subject);
    field("SessionId", f.sessionId);
    field("ReplyToSessionId", f.replyToSessionId);
    field("ContentType", f.contentType);
    if (f.properties.isEmpty())
        return;
    w.writeStartElement(QStringLiteral("Properties"));
    for (auto it = f.properties.cbegin(); it != f.properties.cend(); ++it)
        typedValue(w, it.key(), it.value());
    w.writeEndElement();
}

void ruleDescription(QXmlStreamWriter& w, const Rule& rule) {
    startDescription(w, QStringLiteral("RuleDescription"));
    ruleBody(w, rule);
    w.writeEndElement();
}

// Filter, Action and Name: a RuleDescription's, or a subscription's DefaultRuleDescription's.
void ruleBody(QXmlStreamWriter& w, const Rule& rule) {
    w.writeStartElement(QStringLiteral("Filter"));
    switch (rule.filterType) {
    case FilterType::True:
        w.writeAttribute(QStringLiteral("i:type"), QStringLiteral("TrueFilter"));
        sqlBody(w, QStringLiteral("1=1"));
        break;
    case FilterType::False:
        w.writeAttribute(QStringLiteral("i:type"), QStringLiteral("FalseFilter"));
        sqlBody(w, QStringLiteral("1=0"));
        break;
    case FilterType::Sql:
        w.writeAttribute(QStringLiteral("i:type"), QStringLiteral("SqlFilter"));
        sqlBody(w, rule.sqlExpression);
        break;
    case FilterType::Correlation:
        w.writeAttribute(QStringLiteral("i:type"), QStringLiteral("CorrelationFilter"));
        correlationBody(w, rule.correlation);
        break;
    }
    w.writeEndElement(); // Filter
    w.writeStartElement(QStringLiteral("Action"));
    if (rule.hasAction()) {
        w.writeAttribute(QStringLiteral("i:type"), QStringLiteral("SqlRuleAction"));
        sqlBody(w, rule.sqlAction);
    } else {
        w.writeAttribute(QStringLiteral("i:type"), QStringLiteral("EmptyRuleAction"));
    }
    w.writeEndElement(); // Action
    text(w, QStringLiteral("Name"), rule.name);
}

void writeEntity(QXmlStreamWriter& w, const ReplyContext& c, const EntityInfo& e,
                 int subscriptionCount) {
    const QString title = e.kind == EntityKind::Subscription ? e.name : e.path;
    entry(w, c, e.path, title, e.createdAt, e.updatedAt, [&](QXmlStreamWriter& body) {
        switch (e.kind) {
        case EntityKind::Queue:
            queueDescription(body, c, e);
            break;
        case EntityKind::Topic:
            topicDescription(body, e, subscriptionCount);
            break;
        case EntityKind::Subscription:
            subscriptionDescription(body, c, e);
            break;
        }
    });
}

void writeRule(QXmlStreamWriter& w, const ReplyContext& c, const EntityInfo& subscription,
               const Rule& rule) {
    const QString path = subscription.path + QStringLiteral("/Rules/") + rule.name;
    entry(w, c, path, rule.name, subscription.createdAt, subscription.updatedAt,
          [&rule](QXmlStreamWriter& body) { ruleDescription(body, rule); });
}

QString pageUrl(const ReplyContext& c, const FeedPage& page, int skip) {
    return QStringLiteral("%1/%2?$skip=%3&$top=%4&%5")
        .arg(c.origin, page.path)
        .arg(skip)
        .arg(page.top)
        .arg(kApiVersion);
}

QByteArray feed(const ReplyContext& c, const FeedPage& page, const Body& entries) {
    return document([&](QXmlStreamWriter& w) {
        w.writeStartElement(QStringLiteral("feed"));
        w.writeAttribute(QStringLiteral("xmlns"), kAtom);
        w.writeStartElement(QStringLiteral("title"));
        w.writeAttribute(QStringLiteral("type"), QStringLiteral("text"));
        w.writeCharacters(page.title);
        w.writeEndElement();
        text(w, QStringLiteral("id"), pageUrl(c, page, page.skip));
        text(w, QStringLiteral("updated"), formatInstant(c.now));
        w.writeEmptyElement(QStringLiteral("link"));
        w.writeAttribute(QStringLiteral("rel"), QStringLiteral("self"));
        w.writeAttribute(QStringLiteral("href"), pageUrl(c, page, page.skip));
        // The clients ask for the next page only when the feed has a second link.
        if (page.more) {
            w.writeEmptyElement(QStringLiteral("link"));
            w.writeAttribute(QStringLiteral("rel"), QStringLiteral("next"));
            w.writeAttribute(QStringLiteral("href"), pageUrl(c, page, page.skip + page.top));
        }
        entries(w);
        w.writeEndElement();
    });
}
} // namespace

QByteArray entityEntry(const ReplyContext& context, const EntityInfo& entity,
                       int subscriptionCount) {
    return document(
        [&](QXmlStreamWriter& w) { writeEntity(w, context, entity, subscriptionCount); });
}

QByteArray entityFeed(const ReplyContext& context, const FeedPage& page,
                      const QList<EntityInfo>& entities,
                      const QHash<QString, int>& subscriptionCounts) {
    return feed(context, page, [&](QXmlStreamWriter& w) {
        for (const EntityInfo& entity : entities)
            writeEntity(w, context, entity, subscriptionCounts.value(entity.path.toLower()));
    });
}

QByteArray ruleEntry(const ReplyContext& context, const EntityInfo& subscription,
                     const Rule& rule) {
    return document([&](QXmlStreamWriter& w) { writeRule(w, context, subscription, rule); });
}

QByteArray ruleFeed(const ReplyContext& context, const FeedPage& page,
                    const EntityInfo& subscription, const QList<Rule>& rules) {
    return feed(context, page, [&](QXmlStreamWriter& w) {
        for (const Rule& rule : rules)
            writeRule(w, context, subscription, rule);
    });
}

QByteArray namespaceEntry(const ReplyContext& context, const NamespaceInfo& info, Instant created,
                          Instant modified) {
    return document([&](QXmlStreamWriter& w) {
        entry(w, context, QStringLiteral("$namespaceinfo"), info.name, created, modified,
              [&](QXmlStreamWriter& body) {
                  startDescription(body, QStringLiteral("NamespaceInfo"));
                  text(body, QStringLiteral("CreatedTime"), formatInstant(created));
                  text(body, QStringLiteral("MessagingSKU"), tierName(info.tier));
                  // The JavaScript client requires MessagingUnits of a Premium namespace.
                  if (info.tier == Tier::Premium)
                      text(body, QStringLiteral("MessagingUnits"), QStringLiteral("1"));
                  text(body, QStringLiteral("ModifiedTime"), formatInstant(modified));
                  text(body, QStringLiteral("Name"), info.name);
                  text(body, QStringLiteral("NamespaceType"), QStringLiteral("Messaging"));
                  body.writeEndElement();
              });
    });
}

QByteArray entityRequest(const QString& namespaceHost, const EntityInfo& entity, bool update) {
    const Purpose purpose = update ? Purpose::Update : Purpose::Create;
    ReplyContext context;
    context.host = namespaceHost;
    return document([&](QXmlStreamWriter& w) {
        w.writeStartElement(QStringLiteral("entry"));
        w.writeAttribute(QStringLiteral("xmlns"), kAtom);
        w.writeStartElement(QStringLiteral("content"));
        w.writeAttribute(QStringLiteral("type"), QStringLiteral("application/xml"));
        switch (entity.kind) {
        case EntityKind::Queue:
            queueDescription(w, context, entity, purpose);
            break;
        case EntityKind::Topic:
            topicDescription(w, entity, 0, purpose);
            break;
        case EntityKind::Subscription:
            subscriptionDescription(w, context, entity, purpose);
            break;
        }
        w.writeEndElement(); // content
        w.writeEndElement(); // entry
    });
}

QByteArray ruleRequest(const Rule& rule) {
    return document([&](QXmlStreamWriter& w) {
        w.writeStartElement(QStringLiteral("entry"));
        w.writeAttribute(QStringLiteral("xmlns"), kAtom);
        w.writeStartElement(QStringLiteral("content"));
        w.writeAttribute(QStringLiteral("type"), QStringLiteral("application/xml"));
        ruleDescription(w, rule);
        w.writeEndElement(); // content
        w.writeEndElement(); // entry
    });
}

QByteArray writeError(int status, const QString& detail) {
    return document([&](QXmlStreamWriter& w) {
        w.writeStartElement(QStringLiteral("Error"));
        text(w, QStringLiteral("Code"), QString::number(status));
        text(w, QStringLiteral("Detail"), detail);
        w.writeEndElement();
    });
}

} // namespace hourglass::admin
