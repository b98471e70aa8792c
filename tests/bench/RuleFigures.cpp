// Figures 8 and 9: SQL rule evaluations per second on one core, next to a correlation
// filter on the same messages; and durable sends to a topic of 100 subscriptions each holding one
// SQL filter, next to the same topic with 100 true filters, measured in alternating chunks.

#include "BenchFigures.h"

#include <QDir>

#include <vector>

namespace hourglass::bench {

namespace {

constexpr int kSubscriptions = 100;
constexpr int kPreparedMessages = 1000;

double rate(qint64 operations, double seconds) {
    return seconds > 0 ? operations / seconds : 0;
}

Rule compiledRule(FilterType type, const QString& sql = {}) {
    Rule rule;
    rule.name = QStringLiteral("r");
    rule.filterType = type;
    rule.sqlExpression = sql;
    if (type == FilterType::Correlation)
        rule.correlation.properties.insert(QStringLiteral("color"), QStringLiteral("red"));
    orDie(rule.validate(), "Rule::validate"); // compiles the filter once, as addRule does
    return rule;
}

// Order-like messages: a third red, quantities 0-10, stores 1-20, half of the subjects "order-".
std::vector<OutgoingMessage> orderMessages() {
    std::vector<OutgoingMessage> messages;
    messages.reserve(kPreparedMessages);
    for (int i = 0; i < kPreparedMessages; ++i) {
        OutgoingMessage m;
        m.messageId = QStringLiteral("m-%1").arg(i);
        m.subject = (i % 2 ? QStringLiteral("order-%1") : QStringLiteral("invoice-%1")).arg(i);
        m.applicationProperties.insert(QStringLiteral("color"), i % 3 == 0 ? QStringLiteral("red")
                                                                : i % 3 == 1
                                                                    ? QStringLiteral("blue")
                                                                    : QStringLiteral("green"));
        m.applicationProperties.insert(QStringLiteral("quantity"), qint32(i % 11));
        m.applicationProperties.insert(QStringLiteral("StoreId"),
                                       QStringLiteral("Store%1").arg(i % 20 + 1));
        messages.push_back(std::move(m));
    }
    return messages;
}

// Evaluations per second of `rule` over the prepared messages, `count` evaluations in all.
double evaluationsPerSecond(const Rule& rule, const std::vector<OutgoingMessage>& messages,
                            qint64 count) {
    SqlBrokerFields fields;
    fields.sequenceNumber = 1;
    qint64 matched = 0;
    const Stopwatch watch;
    for (qint64 i = 0; i < count; ++i) {
        const auto result = rule.evaluate(messages[size_t(i % kPreparedMessages)], fields);
        matched += result && *result;
    }
    const double seconds = watch.seconds();
    if (matched == 0 || matched == count) // a filter that never varies measures nothing
        die(QStringLiteral("rule '%1' matched %2 of %3")
                .arg(rule.sqlExpression)
                .arg(matched)
                .arg(count));
    return rate(count, seconds);
}

// A topic `path` with kSubscriptions subscriptions, each holding `rule` only.
void createFannedTopic(Broker& broker, const QString& path, const Rule& rule) {
    orDie(broker.createTopic(path, EntityProperties::defaults(Tier::Standard)), "createTopic");
    for (int s = 0; s < kSubscriptions; ++s)
        orDie(broker.createSubscription(QStringLiteral("%1/Subscriptions/s%2").arg(path).arg(s),
                                        EntityProperties::defaults(Tier::Standard), {rule}),
              "createSubscription");
}

// Sends `count` order messages (small bodies) to `topic` in batches of 10.
double sendToTopic(Broker& broker, const QString& topic, const std::vector<OutgoingMessage>& orders,
                   qint64 first, int count) {
    const Stopwatch watch;
    QList<OutgoingMessage> batch;
    for (qint64 i = first; i < first + count; ++i) {
        OutgoingMessage m = orders[size_t(i % kPreparedMessages)];
        m.messageId = QStringLiteral("t-%1").arg(i);
        m.body = QByteArray(100, 'x');
        batch.append(std::move(m));
        if (batch.size() == 10) {
            (void)orDie(broker.sendBatch(topic, batch), "sendBatch (topic)");
            batch.clear();
        }
    }
    if (!batch.isEmpty())
        (void)orDie(broker.sendBatch(topic, batch), "sendBatch (topic)");
    return watch.seconds();
}

} // namespace

void measureRules(const BenchOptions& options, BenchReport& report) {
    const std::vector<OutgoingMessage> orders = orderMessages();
    const qint64 evaluations = options.quick ? 200000 : 4000000;
    const Rule correlation = compiledRule(FilterType::Correlation);
    const double baseline = evaluationsPerSecond(correlation, orders, evaluations);
    const struct {
        const char* id;
        const char* label; // what fits the table
        const char* sql;
    } filters[] = {
        {"8a", "color = 'red' AND quantity > 5", "color = 'red' AND quantity > 5"},
        {"8b", "StoreId IN (10 stores)",
         "StoreId IN ('Store1', 'Store2', 'Store3', 'Store4', 'Store5', 'Store6', "
         "'Store7', 'Store8', 'Store9', 'Store10')"},
        {"8c", "sys.Label LIKE 'order%'", "sys.Label LIKE 'order%'"},
    };
    for (const auto& filter : filters) {
        const Rule rule = compiledRule(FilterType::Sql, QString::fromLatin1(filter.sql));
        Figure figure(
            QString::fromLatin1(filter.id),
            QStringLiteral("SQL filter evals, 1 core: %1").arg(QString::fromLatin1(filter.label)),
            evaluationsPerSecond(rule, orders, evaluations), QStringLiteral("eval/s"));
        figure.baseline = baseline;
        figure.baselineName = QStringLiteral("a correlation filter (color = 'red') on the same "
                                             "messages");
        figure.target = 2000000;
        report.add(figure);
    }

    // Sends through 100 subscriptions: SQL filters that every message passes (the rule cost
    // alone) and ones that pass 1 in 10, against true filters, in alternating chunks.
    const QDir dir(options.directory);
    auto broker = openBroker(dir.filePath(QStringLiteral("rules.db")), Durability::PowerSafe, {});
    orDie(broker->createNamespace({QStringLiteral("bench"), Tier::Standard}), "createNamespace");
    const QString sqlTopic = QStringLiteral("sql-all");
    const QString tenthTopic = QStringLiteral("sql-tenth");
    const QString trueTopic = QStringLiteral("true-all");
    createFannedTopic(*broker, sqlTopic, compiledRule(FilterType::Sql, "quantity >= 0"));
    createFannedTopic(*broker, tenthTopic, compiledRule(FilterType::Sql, "quantity = 3"));
    createFannedTopic(*broker, trueTopic, Rule::trueRule());
    const int messages = options.quick ? 200 : 2000;
    const int chunk = messages / kRounds;
    qint64 ordinal = 0;
    sendToTopic(*broker, trueTopic, orders, ordinal, 20); // warm-up, not measured
    ordinal += 20;
    const PairedSeconds all = alternate(
        [&](int round) {
            return sendToTopic(*broker, sqlTopic, orders, ordinal + round * chunk, chunk);
        },
        [&](int round) {
            return sendToTopic(*broker, trueTopic, orders, ordinal + round * chunk, chunk);
        });
    ordinal += messages;
    const PairedSeconds tenth = alternate(
        [&](int round) {
            return sendToTopic(*broker, tenthTopic, orders, ordinal + round * chunk, chunk);
        },
        [&](int round) {
            return sendToTopic(*broker, trueTopic, orders, ordinal + round * chunk, chunk);
        });

    const QString perSecond = QStringLiteral("msg/s");
    Figure sqlSends(
        QStringLiteral("9a"),
        QStringLiteral("topic sends, %1 SQL subscriptions, all match").arg(kSubscriptions),
        rate(messages, all.engine), perSecond);
    sqlSends.baseline = rate(messages, all.baseline);
    sqlSends.baselineName =
        QStringLiteral("the same topic with %1 true filters").arg(kSubscriptions);
    sqlSends.target = 0.5;
    sqlSends.targetIsRatio = true;
    report.add(sqlSends);
    Figure tenthSends(
        QStringLiteral("9b"),
        QStringLiteral("topic sends, %1 SQL subscriptions, 1 in 11 match").arg(kSubscriptions),
        rate(messages, tenth.engine), perSecond);
    tenthSends.baseline = rate(messages, tenth.baseline);
    tenthSends.baselineName =
        QStringLiteral("the same topic with %1 true filters (all match)").arg(kSubscriptions);
    report.add(tenthSends);
}

} // namespace hourglass::bench
