#include "SampleNamespace.h"

#include <QList>

namespace hourglass::app {

namespace {
OutgoingMessage message(const QString& id, const QString& subject, std::optional<Millis> ttl,
                        const QByteArray& body) {
    OutgoingMessage m;
    m.messageId = id;
    m.subject = subject;
    m.timeToLive = ttl;
    m.contentType = QStringLiteral("application/json");
    m.body = body;
    return m;
}
} // namespace

Result<void> createSampleNamespace(Broker& broker) {
    if (auto created = broker.createNamespace({QStringLiteral("sample"), Tier::Standard}); !created)
        return created;
    const QString ns = QStringLiteral("sample:");

    EntityProperties orders;
    orders.defaultMessageTimeToLive = minutes(10);
    // Long enough for a first dead-letter typed at reading speed; the settle dialog renews it
    // while open too. The lock countdown still moves visibly.
    orders.lockDuration = minutes(2);
    orders.maxDeliveryCount = 3;
    orders.deadLetteringOnMessageExpiration = true;
    EntityProperties notifications;
    notifications.defaultMessageTimeToLive = hours(1);
    EntityProperties replies;
    replies.autoDeleteOnIdle = minutes(5);
    EntityProperties eventsTopic;
    eventsTopic.defaultMessageTimeToLive = minutes(30);

    for (const auto& [path, properties] : {std::pair{QStringLiteral("orders"), orders},
                                           std::pair{QStringLiteral("outbox"), notifications},
                                           std::pair{QStringLiteral("replies-7f3a"), replies}}) {
        if (auto created = broker.createQueue(ns + path, properties); !created)
            return created.error();
    }
    if (auto created = broker.createTopic(ns + QStringLiteral("events"), eventsTopic); !created)
        return created.error();
    if (auto created =
            broker.createSubscription(ns + QStringLiteral("events/Subscriptions/audit"), {});
        !created)
        return created.error();
    Rule invoices;
    invoices.name = QStringLiteral("invoices-only");
    invoices.filterType = FilterType::Correlation;
    invoices.correlation.subject = QStringLiteral("invoice");
    EntityProperties billing;
    billing.deadLetteringOnMessageExpiration = true;
    billing.defaultMessageTimeToLive = minutes(15);
    if (auto created = broker.createSubscription(
            ns + QStringLiteral("events/Subscriptions/billing"), billing, {invoices});
        !created)
        return created.error();

    // An SQL filter with an action, so that the Routing tab has a rule to explain: large
    // invoices get their own copy, marked for review.
    Rule large;
    large.name = QStringLiteral("large-invoices");
    large.filterType = FilterType::Sql;
    large.sqlExpression = QStringLiteral("sys.Label = 'invoice' AND amount > 500");
    large.sqlAction = QStringLiteral("SET review = 'manual'");
    if (auto created = broker.createSubscription(ns + QStringLiteral("events/Subscriptions/review"),
                                                 {}, {large});
        !created)
        return created.error();

    // Orders that run out one after the other over the next ten minutes.
    QList<OutgoingMessage> batch;
    const Millis ttls[] = {minutes(1), minutes(2), minutes(3), minutes(5), minutes(8)};
    int n = 0;
    for (Millis ttl : ttls) {
        ++n;
        batch.append(
            message(QStringLiteral("order-%1").arg(1000 + n), QStringLiteral("order"), ttl,
                    QStringLiteral(R"({"order":%1,"items":%2})").arg(1000 + n).arg(n).toUtf8()));
    }
    batch.append(message(QStringLiteral("order-1006"), QStringLiteral("order"), std::nullopt,
                         R"({"order":1006,"note":"uses the queue's default TTL"})"));
    if (auto sent = broker.sendBatch(ns + QStringLiteral("orders"), batch); !sent)
        return sent.error();
    OutgoingMessage later = message(QStringLiteral("order-1007"), QStringLiteral("order"),
                                    minutes(10), R"({"order":1007,"scheduled":true})");
    if (auto sent = broker.schedule(ns + QStringLiteral("orders"), later,
                                    broker.clock().now() + minutes(2));
        !sent)
        return sent.error();
    if (auto sent = broker.send(ns + QStringLiteral("outbox"),
                                message(QStringLiteral("welcome"), QStringLiteral("welcome"),
                                        std::nullopt, R"({"text":"Hello from Hourglass"})"));
        !sent)
        return sent.error();
    const struct {
        const char* id;
        const char* subject;
        double amount;
    } events[] = {
        {"evt-1", "invoice", 120.0}, {"evt-2", "shipment", 0.0}, {"evt-3", "invoice", 980.0}};
    for (const auto& event : events) {
        OutgoingMessage m = message(QLatin1String(event.id), QLatin1String(event.subject),
                                    minutes(4), R"({"event":true})");
        if (event.amount > 0)
            m.applicationProperties.insert(QStringLiteral("amount"), event.amount);
        if (auto sent = broker.send(ns + QStringLiteral("events"), m); !sent)
            return sent.error();
    }
    return {};
}

} // namespace hourglass::app
