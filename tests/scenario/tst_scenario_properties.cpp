// EntityProperties (service-bus-rules.md E3): defaults per tier, every bound on both sides, and the
// emulator config.json "Properties" object in both directions.

#include "hourglass/EntityProperties.h"

#include <QJsonDocument>
#include <QTest>

using namespace hourglass;

Q_DECLARE_METATYPE(hourglass::EntityKind)
Q_DECLARE_METATYPE(hourglass::Tier)

namespace {

QJsonObject object(const QByteArray& json) {
    return QJsonDocument::fromJson(json).object();
}

const QString kLongPath260 = QString(259, u'a') + u'b';
const QString kLongPath261 = QString(261, u'a');

} // namespace

class EntityPropertiesTest : public QObject {
    Q_OBJECT

private slots:
    void entities_E3_defaults() {
        const EntityProperties standard = EntityProperties::defaults(Tier::Standard);
        QCOMPARE(standard.defaultMessageTimeToLive, kInfinite);
        QCOMPARE(standard.lockDuration, minutes(1));
        QCOMPARE(standard.maxDeliveryCount, 10);
        QCOMPARE(standard.deadLetteringOnMessageExpiration, false);
        QCOMPARE(standard.autoDeleteOnIdle, kInfinite);
        QVERIFY(standard.forwardTo.isEmpty());
        QVERIFY(standard.forwardDeadLetteredMessagesTo.isEmpty());
        QCOMPARE(standard.requiresDuplicateDetection, false);
        QCOMPARE(standard.duplicateDetectionHistoryTimeWindow, minutes(10));
        QCOMPARE(standard.maxSizeInMegabytes, 1024);
        QCOMPARE(standard.maxMessageSizeInKilobytes, 256);
        QCOMPARE(standard.status, EntityStatus::Active);
        QCOMPARE(EntityProperties::defaults(Tier::Premium), standard);
        QCOMPARE(EntityProperties::defaults(Tier::Basic).defaultMessageTimeToLive, days(14));
        for (const Tier tier : {Tier::Basic, Tier::Standard, Tier::Premium}) {
            for (const EntityKind kind :
                 {EntityKind::Queue, EntityKind::Topic, EntityKind::Subscription}) {
                // E5: a Basic namespace has queues only.
                const bool allowed = tier != Tier::Basic || kind == EntityKind::Queue;
                QCOMPARE(EntityProperties::defaults(tier).validate(kind, tier).ok(), allowed);
            }
        }
    }

    // Each row: properties over the tier's defaults, and whether validate() accepts them. A
    // refusal must name the property (and say why).
    void entities_E3_bounds_data() {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<EntityKind>("kind");
        QTest::addColumn<Tier>("tier");
        QTest::addColumn<bool>("valid");
        QTest::addColumn<QString>("mentions");
        const auto Q = EntityKind::Queue;
        const auto T = EntityKind::Topic;
        const auto S = EntityKind::Subscription;
        const auto standard = Tier::Standard;
        const auto basic = Tier::Basic;
        const QString inf = QString::fromLatin1(kInfiniteIso);
        auto row = [](const char* name, const QByteArray& json, EntityKind kind, Tier tier,
                      bool valid, const char* mentions) {
            QTest::newRow(name) << json << kind << tier << valid << QString::fromUtf8(mentions);
        };
        row("ttl.smallest", R"({"DefaultMessageTimeToLive": "PT0.001S"})", Q, standard, true, "");
        row("ttl.zero", R"({"DefaultMessageTimeToLive": "PT0S"})", Q, standard, false,
            "DefaultMessageTimeToLive must be greater than zero");
        row("ttl.zero.topic", R"({"DefaultMessageTimeToLive": "PT0S"})", T, standard, false,
            "DefaultMessageTimeToLive");
        row("ttl.infinite.standard", "{\"DefaultMessageTimeToLive\": \"" + inf.toUtf8() + "\"}", Q,
            standard, true, "");
        row("ttl.basic.max", R"({"DefaultMessageTimeToLive": "P14D"})", Q, basic, true, "");
        row("ttl.basic.over", R"({"DefaultMessageTimeToLive": "P14DT0.001S"})", Q, basic, false,
            "DefaultMessageTimeToLive must be at most P14D");
        row("ttl.basic.infinite", "{\"DefaultMessageTimeToLive\": \"" + inf.toUtf8() + "\"}", S,
            basic, false, "P14D");
        row("ttl.basic.over.topic", R"({"DefaultMessageTimeToLive": "P15D"})", T, basic, false,
            "P14D");
        row("lock.min", R"({"LockDuration": "PT5S"})", Q, standard, true, "");
        row("lock.under", R"({"LockDuration": "PT4.999S"})", Q, standard, false,
            "LockDuration must be between PT5S and PT5M");
        row("lock.max", R"({"LockDuration": "PT5M"})", S, standard, true, "");
        row("lock.over", R"({"LockDuration": "PT5M0.001S"})", S, standard, false, "LockDuration");
        row("lock.ignoredOnTopic", R"({"LockDuration": "PT1S"})", T, standard, true, "");
        row("delivery.min", R"({"MaxDeliveryCount": 1})", Q, standard, true, "");
        row("delivery.zero", R"({"MaxDeliveryCount": 0})", Q, standard, false,
            "MaxDeliveryCount must be at least 1");
        row("delivery.zero.subscription", R"({"MaxDeliveryCount": 0})", S, standard, false,
            "MaxDeliveryCount");
        row("delivery.ignoredOnTopic", R"({"MaxDeliveryCount": 0})", T, standard, true, "");
        row("autodelete.min", R"({"AutoDeleteOnIdle": "PT5M"})", Q, standard, true, "");
        row("autodelete.under", R"({"AutoDeleteOnIdle": "PT4M59.999S"})", Q, standard, false,
            "AutoDeleteOnIdle must be at least PT5M");
        row("autodelete.under.topic", R"({"AutoDeleteOnIdle": "PT1M"})", T, standard, false,
            "AutoDeleteOnIdle");
        row("autodelete.infinite", "{\"AutoDeleteOnIdle\": \"" + inf.toUtf8() + "\"}", S, standard,
            true, "");
        row("dedup.min", R"({"DuplicateDetectionHistoryTimeWindow": "PT20S"})", Q, standard, true,
            "");
        row("dedup.under", R"({"DuplicateDetectionHistoryTimeWindow": "PT19.999S"})", Q, standard,
            false, "DuplicateDetectionHistoryTimeWindow must be between PT20S and P7D");
        row("dedup.max", R"({"DuplicateDetectionHistoryTimeWindow": "P7D"})", T, standard, true,
            "");
        row("dedup.over", R"({"DuplicateDetectionHistoryTimeWindow": "P7DT0.001S"})", T, standard,
            false, "DuplicateDetectionHistoryTimeWindow");
        row("size.min", R"({"MaxSizeInMegabytes": 1})", Q, standard, true, "");
        row("size.zero", R"({"MaxSizeInMegabytes": 0})", Q, standard, false,
            "MaxSizeInMegabytes must be between 1 and 81920");
        row("size.max", R"({"MaxSizeInMegabytes": 81920})", T, standard, true, "");
        row("size.over", R"({"MaxSizeInMegabytes": 81921})", T, standard, false,
            "MaxSizeInMegabytes");
        row("messageSize.min", R"({"MaxMessageSizeInKilobytes": 1})", Q, standard, true, "");
        row("messageSize.zero", R"({"MaxMessageSizeInKilobytes": 0})", Q, standard, false,
            "MaxMessageSizeInKilobytes must be between 1 and 102400");
        row("messageSize.max", R"({"MaxMessageSizeInKilobytes": 102400})", Q, standard, true, "");
        row("messageSize.over", R"({"MaxMessageSizeInKilobytes": 102401})", Q, standard, false,
            "MaxMessageSizeInKilobytes");
        row("sessions", R"({"RequiresSession": true})", Q, standard, true, "");
        row("sessions.subscription", R"({"RequiresSession": true})", S, standard, true, "");
        row("sessions.topic", R"({"RequiresSession": true})", T, standard, false,
            "a topic has no sessions");
        row("sessions.off", R"({"RequiresSession": false})", Q, standard, true, "");
        row("forward.none", R"({"ForwardTo": ""})", Q, standard, true, "");
        row("forward.plain", R"({"ForwardTo": "orders"})", Q, standard, true, "");
        row("forward.nested", R"({"ForwardTo": "a/b.c-d_e"})", S, standard, true, "");
        row("forward.260", "{\"ForwardTo\": \"" + kLongPath260.toUtf8() + "\"}", Q, standard, true,
            "");
        row("forward.261", "{\"ForwardTo\": \"" + kLongPath261.toUtf8() + "\"}", Q, standard, false,
            "ForwardTo");
        row("forward.leadingSlash", R"({"ForwardTo": "/orders"})", Q, standard, false, "ForwardTo");
        row("forward.trailingSlash", R"({"ForwardTo": "orders/"})", Q, standard, false,
            "ForwardTo");
        // Not a raw string: moc would read its "//" as a comment.
        row("forward.emptySegment", "{\"ForwardTo\": \"a//b\"}", Q, standard, false, "ForwardTo");
        row("forward.space", R"({"ForwardTo": "my orders"})", S, standard, false, "ForwardTo");
        row("forwardDlq.bad", R"({"ForwardDeadLetteredMessagesTo": "x y"})", Q, standard, false,
            "ForwardDeadLetteredMessagesTo");
        row("forwardDlq.ok", R"({"ForwardDeadLetteredMessagesTo": "review"})", S, standard, true,
            "");
        row("forward.topic", R"({"ForwardTo": "orders"})", T, standard, false, "ForwardTo");
        row("forwardDlq.ignoredOnTopic", R"({"ForwardDeadLetteredMessagesTo": "x"})", T, standard,
            true, "");
    }
    void entities_E3_bounds() {
        QFETCH(QByteArray, json);
        QFETCH(EntityKind, kind);
        QFETCH(Tier, tier);
        QFETCH(bool, valid);
        QFETCH(QString, mentions);
        const auto parsed =
            EntityProperties::fromJson(object(json), EntityProperties::defaults(tier));
        QVERIFY2(parsed.ok(), parsed.ok() ? "" : qPrintable(parsed.error().description));
        const auto result = parsed->validate(kind, tier);
        QCOMPARE(result.ok(), valid);
        if (!valid) {
            QCOMPARE(result.error().code, ErrorCode::InvalidArgument);
            QVERIFY2(result.error().description.contains(mentions),
                     qPrintable(result.error().description));
        }
    }

    void entities_E3_jsonRoundTrip_data() {
        QTest::addColumn<EntityKind>("kind");
        QTest::newRow("queue") << EntityKind::Queue;
        QTest::newRow("subscription") << EntityKind::Subscription;
    }
    void entities_E3_jsonRoundTrip() {
        QFETCH(EntityKind, kind);
        EntityProperties p;
        p.defaultMessageTimeToLive = minutes(10);
        p.lockDuration = seconds(30);
        p.maxDeliveryCount = 3;
        p.deadLetteringOnMessageExpiration = true;
        p.autoDeleteOnIdle = hours(1) + 500;
        p.forwardTo = QStringLiteral("target");
        p.forwardDeadLetteredMessagesTo = QStringLiteral("review/dead");
        p.requiresDuplicateDetection = true;
        p.duplicateDetectionHistoryTimeWindow = days(2);
        p.maxSizeInMegabytes = 5120;
        p.maxMessageSizeInKilobytes = 1024;
        p.status = EntityStatus::SendDisabled;
        const QJsonObject json = p.toJson(kind);
        QCOMPARE(json.value("DefaultMessageTimeToLive").toString(), QStringLiteral("PT10M"));
        QCOMPARE(json.value("LockDuration").toString(), QStringLiteral("PT30S"));
        QCOMPARE(json.value("AutoDeleteOnIdle").toString(), QStringLiteral("PT1H0.5S"));
        QCOMPARE(json.value("MaxDeliveryCount").toInt(), 3);
        QCOMPARE(json.value("Status").toString(), QStringLiteral("SendDisabled"));
        QCOMPARE(json.value("RequiresSession").toBool(true), false);
        QCOMPARE(json.size(), 13);
        const auto back = EntityProperties::fromJson(json, EntityProperties());
        QVERIFY(back.ok());
        QCOMPARE(*back, p);
    }

    // R5: on by default and then not written (files stay the emulator's); off is written, read
    // back, and refused on anything but a subscription.
    void entities_R5_deadLetteringOnFilterEvaluationExceptions() {
        EntityProperties p;
        QVERIFY(p.deadLetteringOnFilterEvaluationExceptions);
        QVERIFY(!p.toJson(EntityKind::Subscription)
                     .contains(QStringLiteral("DeadLetteringOnFilterEvaluationExceptions")));
        p.deadLetteringOnFilterEvaluationExceptions = false;
        const QJsonObject json = p.toJson(EntityKind::Subscription);
        QCOMPARE(
            json.value(QStringLiteral("DeadLetteringOnFilterEvaluationExceptions")).toBool(true),
            false);
        const auto back = EntityProperties::fromJson(json, EntityProperties());
        QVERIFY(back.ok());
        QCOMPARE(*back, p);
        QVERIFY(p.validate(EntityKind::Subscription, Tier::Standard).ok());
        const auto queue = p.validate(EntityKind::Queue, Tier::Standard);
        QVERIFY(!queue.ok());
        QVERIFY(queue.error().description.contains(
            QStringLiteral("DeadLetteringOnFilterEvaluationExceptions")));
    }

    void entities_E3_infiniteIsTimeSpanMaxValue() {
        const QJsonObject json = EntityProperties().toJson(EntityKind::Queue);
        QCOMPARE(json.value("DefaultMessageTimeToLive").toString(),
                 QStringLiteral("P10675199DT2H48M5.4775807S"));
        QCOMPARE(json.value("AutoDeleteOnIdle").toString(),
                 QStringLiteral("P10675199DT2H48M5.4775807S"));
        // The emulator writes "" for "no forwarding".
        QCOMPARE(json.value("ForwardTo").toString(QStringLiteral("absent")), QString());
        const auto back = EntityProperties::fromJson(json, EntityProperties::defaults(Tier::Basic));
        QVERIFY(back.ok());
        QCOMPARE(back->defaultMessageTimeToLive, kInfinite);
    }

    void entities_E3_topicJsonHasOnlyTopicProperties() {
        EntityProperties p;
        p.defaultMessageTimeToLive = hours(1);
        p.maxSizeInMegabytes = 2048;
        p.status = EntityStatus::Disabled;
        const QJsonObject json = p.toJson(EntityKind::Topic);
        QCOMPARE(json.keys(),
                 (QStringList{"AutoDeleteOnIdle", "DefaultMessageTimeToLive",
                              "DuplicateDetectionHistoryTimeWindow", "MaxMessageSizeInKilobytes",
                              "MaxSizeInMegabytes", "RequiresDuplicateDetection", "Status"}));
        const auto back = EntityProperties::fromJson(json, EntityProperties());
        QVERIFY(back.ok());
        QCOMPARE(*back, p);
    }

    void fromJson_appliesOnlyPresentMembers() {
        EntityProperties base;
        base.lockDuration = seconds(45);
        base.maxDeliveryCount = 7;
        const auto parsed = EntityProperties::fromJson(object(R"({"MaxDeliveryCount": 2})"), base);
        QVERIFY(parsed.ok());
        QCOMPARE(parsed->maxDeliveryCount, 2);
        QCOMPARE(parsed->lockDuration, seconds(45));
        const auto cleared = EntityProperties::fromJson(
            object(R"({"ForwardTo": "", "ForwardDeadLetteredMessagesTo": ""})"), [] {
                EntityProperties p;
                p.forwardTo = QStringLiteral("x");
                p.forwardDeadLetteredMessagesTo = QStringLiteral("y");
                return p;
            }());
        QVERIFY(cleared.ok());
        QVERIFY(cleared->forwardTo.isEmpty());
        QVERIFY(cleared->forwardDeadLetteredMessagesTo.isEmpty());
    }

    void fromJson_refusesUnknownAndMistyped_data() {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("unknown") << QByteArray(R"({"LockDuratoin": "PT1M"})")
                                 << QStringLiteral("LockDuratoin: unknown property");
        QTest::newRow("caseMatters") << QByteArray(R"({"lockDuration": "PT1M"})")
                                     << QStringLiteral("lockDuration: unknown property");
        QTest::newRow("durationNumber") << QByteArray(R"({"LockDuration": 60})")
                                        << QStringLiteral("LockDuration: expected an ISO-8601");
        QTest::newRow("durationText") << QByteArray(R"({"DefaultMessageTimeToLive": "PT"})")
                                      << QStringLiteral("DefaultMessageTimeToLive: 'PT' is not "
                                                        "an ISO-8601 duration");
        QTest::newRow("negativeDuration") << QByteArray(R"({"AutoDeleteOnIdle": "-PT5M"})")
                                          << QStringLiteral("AutoDeleteOnIdle:");
        QTest::newRow("intAsString") << QByteArray(R"({"MaxDeliveryCount": "3"})")
                                     << QStringLiteral("MaxDeliveryCount: expected an integer");
        QTest::newRow("fraction") << QByteArray(R"({"MaxSizeInMegabytes": 1.5})")
                                  << QStringLiteral("MaxSizeInMegabytes:");
        QTest::newRow("boolAsString") << QByteArray(R"({"RequiresDuplicateDetection": "true"})")
                                      << QStringLiteral("RequiresDuplicateDetection: expected "
                                                        "true or false");
        QTest::newRow("forwardNumber")
            << QByteArray(R"({"ForwardTo": 1})") << QStringLiteral("ForwardTo: expected a string");
        QTest::newRow("forwardNull") << QByteArray(R"({"ForwardTo": null})")
                                     << QStringLiteral("ForwardTo: expected a string");
        QTest::newRow("status") << QByteArray(R"({"Status": "Paused"})")
                                << QStringLiteral("Status: 'Paused' is not one of");
    }
    void fromJson_refusesUnknownAndMistyped() {
        QFETCH(QByteArray, json);
        QFETCH(QString, mentions);
        const auto parsed = EntityProperties::fromJson(object(json), EntityProperties());
        QVERIFY(!parsed.ok());
        QCOMPARE(parsed.error().code, ErrorCode::InvalidArgument);
        QVERIFY2(parsed.error().description.contains(mentions),
                 qPrintable(parsed.error().description));
    }

    void names() {
        QCOMPARE(entityKindName(EntityKind::Queue), QStringLiteral("Queue"));
        QCOMPARE(entityKindName(EntityKind::Topic), QStringLiteral("Topic"));
        QCOMPARE(entityKindName(EntityKind::Subscription), QStringLiteral("Subscription"));
        for (const auto status : {EntityStatus::Active, EntityStatus::Disabled,
                                  EntityStatus::SendDisabled, EntityStatus::ReceiveDisabled})
            QCOMPARE(entityStatusFromName(entityStatusName(status)), status);
        QCOMPARE(entityStatusName(EntityStatus::ReceiveDisabled),
                 QStringLiteral("ReceiveDisabled"));
        QVERIFY(!entityStatusFromName(QStringLiteral("Paused")));
        for (const auto tier : {Tier::Basic, Tier::Standard, Tier::Premium})
            QCOMPARE(tierFromName(tierName(tier)), tier);
        QCOMPARE(tierName(Tier::Premium), QStringLiteral("Premium"));
        QVERIFY(!tierFromName(QStringLiteral("Gold")));
    }
};

QTEST_GUILESS_MAIN(EntityPropertiesTest)
#include "tst_scenario_properties.moc"
