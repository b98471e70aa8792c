// Application property types through the broker: a property keeps the type it was
// sent with through the store and a restart (D2), a correlation filter compares type and value
// (R2), and a scenario file, written by the recorder and read by the runner, carries the types.
// Uses only the Broker and scenario APIs, so each test states a behaviour, not an encoding.
#include "EngineChecks.h"
#include "TestBroker.h"
#include "hourglass/scenario/ScenarioRecorder.h"
#include "hourglass/scenario/ScenarioRunner.h"
#include "store/SqliteStatement.h"
#include "store/Store.h"

#include <QCborArray>
#include <QCborMap>
#include <QCborValue>
#include <QDateTime>
#include <QTest>
#include <QUuid>

#include <limits>

using namespace hourglass;
using namespace hourglass::testing;

namespace {

const QString kQueue = QStringLiteral("typed");
const QString kTopic = QStringLiteral("events");
const QString kSub = QStringLiteral("events/Subscriptions/s");

QString describe(const QVariant& value) {
    return QStringLiteral("%1 (%2)").arg(value.toString(), QLatin1String(value.typeName()));
}

// The value of property "p" of the message `seq` in `path`, as the explorer reads it.
QVariant storedProperty(Broker& broker, const QString& path, qint64 seq) {
    const auto message = broker.message(path, seq);
    if (!message)
        qFatal("cannot read message %lld: %s", seq, qPrintable(message.error().description));
    return message->applicationProperties.value(QStringLiteral("p"));
}

// One value of each type Service Bus carries, by its Service Bus name.
void addTypedValueRows() {
    QTest::addColumn<QVariant>("value");
    QTest::newRow("Int32") << QVariant(250);
    QTest::newRow("Int64") << QVariant(qlonglong(250));
    QTest::newRow("Int64.big") << QVariant(std::numeric_limits<qlonglong>::min());
    QTest::newRow("Double") << QVariant(2.5);
    QTest::newRow("Boolean") << QVariant(true);
    QTest::newRow("String") << QVariant(QStringLiteral("two hundred"));
    QTest::newRow("DateTime") << QVariant(
        QDateTime(QDate(2026, 1, 31), QTime(12, 0, 0, 250), Qt::UTC));
    QTest::newRow("Guid") << QVariant(
        QUuid::fromString(QStringLiteral("6f1c2f0e-6a1b-4d4e-9a53-0d1e2c3b4a59")));
    QTest::newRow("Binary") << QVariant(QByteArray("\x00\x01\xfe", 3));
    QTest::newRow("Byte") << QVariant::fromValue(uchar(200));
    QTest::newRow("SByte") << QVariant::fromValue((signed char)(-100));
    QTest::newRow("Int16") << QVariant::fromValue(short(-300));
    QTest::newRow("UInt16") << QVariant::fromValue(ushort(60000));
    QTest::newRow("UInt32") << QVariant::fromValue(uint(4000000000u));
    QTest::newRow("UInt64") << QVariant::fromValue(std::numeric_limits<qulonglong>::max());
    QTest::newRow("Single") << QVariant::fromValue(1.5f);
    QTest::newRow("Char") << QVariant(QChar(u'ß'));
}

void verifySame(const QVariant& actual, const QVariant& expected) {
    QVERIFY2(
        actual.metaType() == expected.metaType() && actual == expected,
        qPrintable(QStringLiteral("read %1, sent %2").arg(describe(actual), describe(expected))));
}

} // namespace

class TestEngineProperties : public QObject {
    Q_OBJECT
private slots:
    // D2: a property reads back with the type it was sent with, before and after a restart
    // (an Int32 used to come back an Int64: the store's CBOR has one integer type).
    void D2_propertyKeepsItsTypeThroughTheStore_data() { addTypedValueRows(); }
    void D2_propertyKeepsItsTypeThroughTheStore() {
        QFETCH(QVariant, value);
        TestBroker t;
        HG_VERIFY_OK(t->createQueue(kQueue, {}));
        OutgoingMessage m = TestBroker::message(QStringLiteral("m"));
        m.applicationProperties.insert(QStringLiteral("p"), value);
        const auto sent = t->send(kQueue, m);
        HG_VERIFY_OK(sent);
        verifySame(storedProperty(t.broker(), kQueue, sent->sequenceNumber), value);
        if (QTest::currentTestFailed())
            return;
        t.reopen();
        verifySame(storedProperty(t.broker(), kQueue, sent->sequenceNumber), value);
        // What a receiver gets, too.
        const auto got = t->receive(kQueue, {ReceiveMode::ReceiveAndDelete, 1, {}});
        HG_VERIFY_OK(got);
        QCOMPARE(got->size(), 1);
        verifySame(got->first().applicationProperties.value(QStringLiteral("p")), value);
    }

    // D2: properties stored before types were kept (plain CBOR maps, as QCborMap wrote them)
    // still read, each integer as an Int64 as it always did.
    void D2_propertiesStoredWithoutTypesStillRead() {
        const QDateTime when(QDate(2026, 1, 31), QTime(12, 0), Qt::UTC);
        const QUuid id = QUuid::fromString(QStringLiteral("6f1c2f0e-6a1b-4d4e-9a53-0d1e2c3b4a59"));
        const QVariantMap written{{QStringLiteral("int"), 250},
                                  {QStringLiteral("text"), QStringLiteral("x")},
                                  {QStringLiteral("flag"), true},
                                  {QStringLiteral("ratio"), 2.5},
                                  {QStringLiteral("when"), when},
                                  {QStringLiteral("id"), id},
                                  {QStringLiteral("bytes"), QByteArray("ab")}};
        const QByteArray oldBlob = QCborValue(QCborMap::fromVariantMap(written)).toCbor();
        const QVariantMap read = decodeProperties(oldBlob);
        QCOMPARE(read.size(), written.size());
        verifySame(read.value(QStringLiteral("int")), QVariant(qlonglong(250)));
        verifySame(read.value(QStringLiteral("text")), QVariant(QStringLiteral("x")));
        verifySame(read.value(QStringLiteral("flag")), QVariant(true));
        verifySame(read.value(QStringLiteral("ratio")), QVariant(2.5));
        verifySame(read.value(QStringLiteral("when")), QVariant(when));
        verifySame(read.value(QStringLiteral("id")), QVariant(id));
        verifySame(read.value(QStringLiteral("bytes")), QVariant(QByteArray("ab")));
    }

    // A tagged entry that is not a [type, value] pair keeps what the tag holds, not Null.
    void D2_malformedTypedEntryKeepsItsPlainValue() {
        QCborMap map;
        map.insert(QStringLiteral("odd"), QCborValue(kTypedPropertyTag, QCborValue(7)));
        map.insert(QStringLiteral("short"),
                   QCborValue(kTypedPropertyTag, QCborArray{QStringLiteral("Int32")}));
        const QVariantMap read = decodeProperties(QCborValue(map).toCbor());
        verifySame(read.value(QStringLiteral("odd")), QVariant(qlonglong(7)));
        QVERIFY(read.contains(QStringLiteral("short")));
        QVERIFY(read.value(QStringLiteral("short")).isValid());
    }

    // D2: rules stored before rule JSON named its types kept Qt's type names beside the rule
    // ("HourglassPropertyTypes"); such a database still reads each value with its type.
    void D2_rulesStoredWithQtTypeNamesStillRead() {
        TestBroker t;
        HG_VERIFY_OK(t->createTopic(kTopic, {}));
        HG_VERIFY_OK(t->createSubscription(kSub, {}));
        t.close();
        SqliteConnection db;
        QCOMPARE(db.open(t.databasePath(), SqliteConnection::Mode::ReadWrite), QString());
        QCOMPARE(db.exec(R"(UPDATE entities SET rules = '[{"Name":"typed","Properties":{
            "FilterType":"Correlation","CorrelationFilter":{"Properties":{"n":250,"w":2,
            "d":"2026-01-31T12:00:00.000Z","g":"{6f1c2a3e-0d4b-4c5e-9f60-718293a4b5c6}"}}},
            "HourglassPropertyTypes":{"n":"int","w":"double","d":"QDateTime","g":"QUuid"}}]'
            WHERE path LIKE '%/s')"),
                 QString());
        db.close();
        t.reopen();
        const auto info = t->entity(kSub);
        HG_VERIFY_OK(info);
        QCOMPARE(info->rules.size(), 1);
        const QVariantMap properties = info->rules.first().correlation.properties;
        verifySame(properties.value(QStringLiteral("n")), QVariant(250));
        verifySame(properties.value(QStringLiteral("w")), QVariant(2.0));
        // A DateTime or Guid was kept as text with its Qt type beside it: it reads typed again.
        verifySame(properties.value(QStringLiteral("d")),
                   QVariant(QDateTime(QDate(2026, 1, 31), QTime(12, 0), Qt::UTC)));
        verifySame(properties.value(QStringLiteral("g")),
                   QVariant(QUuid(QStringLiteral("{6f1c2a3e-0d4b-4c5e-9f60-718293a4b5c6}"))));
    }

    // R2: "Correlation values compare exactly (case and type)": an Int64 250 in a filter does
    // not match an Int32 250 in a message, nor an integer a double of the same value.
    void R2_correlationValuesCompareTypeAndValue_data() {
        QTest::addColumn<QVariant>("filterValue");
        QTest::addColumn<QVariant>("messageValue");
        QTest::addColumn<bool>("matches");
        const QVariant int32(250);
        const QVariant int64(qlonglong(250));
        QTest::newRow("Int64-Int64") << int64 << int64 << true;
        QTest::newRow("Int32-Int32") << int32 << int32 << true;
        QTest::newRow("Int64-Int32") << int64 << int32 << false;
        QTest::newRow("Int32-Int64") << int32 << int64 << false;
        QTest::newRow("Int64-Double") << int64 << QVariant(250.0) << false;
        QTest::newRow("Double-Double") << QVariant(2.5) << QVariant(2.5) << true;
        QTest::newRow("Int64-UInt32") << int64 << QVariant::fromValue(250u) << false;
        QTest::newRow("String-Int64") << QVariant(QStringLiteral("250")) << int64 << false;
        QTest::newRow("String-case")
            << QVariant(QStringLiteral("EU")) << QVariant(QStringLiteral("eu")) << false;
        QTest::newRow("Int64-other") << int64 << QVariant(qlonglong(251)) << false;
    }
    void R2_correlationValuesCompareTypeAndValue() {
        QFETCH(QVariant, filterValue);
        QFETCH(QVariant, messageValue);
        QFETCH(bool, matches);
        TestBroker t;
        HG_VERIFY_OK(t->createTopic(kTopic, {}));
        HG_VERIFY_OK(t->createSubscription(kSub, {}));
        Rule rule;
        rule.name = QStringLiteral("typed");
        rule.filterType = FilterType::Correlation;
        rule.correlation.properties.insert(QStringLiteral("p"), filterValue);
        HG_VERIFY_OK(t->addRule(kSub, rule));
        HG_VERIFY_OK(t->removeRule(kSub, QStringLiteral("$Default")));
        OutgoingMessage m = TestBroker::message(QStringLiteral("m"));
        m.applicationProperties.insert(QStringLiteral("p"), messageValue);
        HG_VERIFY_OK(t->send(kTopic, m));
        const auto counts = t->counts(kSub);
        HG_VERIFY_OK(counts);
        QCOMPARE(counts->active, qint64(matches ? 1 : 0));
    }

    // R2: "application property names match case-insensitively": a filter on `Region` matches a
    // message whose property is `REGION` (the value still compares exactly).
    void R2_correlationPropertyNamesMatchCaseInsensitively_data() {
        QTest::addColumn<QString>("messageName");
        QTest::addColumn<QString>("messageValue");
        QTest::addColumn<bool>("matches");
        QTest::newRow("same name") << "Region"
                                   << "EU" << true;
        QTest::newRow("upper name") << "REGION"
                                    << "EU" << true;
        QTest::newRow("lower name") << "region"
                                    << "EU" << true;
        QTest::newRow("lower value") << "region"
                                     << "eu" << false;
        QTest::newRow("other name") << "Regions"
                                    << "EU" << false;
    }
    void R2_correlationPropertyNamesMatchCaseInsensitively() {
        QFETCH(QString, messageName);
        QFETCH(QString, messageValue);
        QFETCH(bool, matches);
        TestBroker t;
        HG_VERIFY_OK(t->createTopic(kTopic, {}));
        HG_VERIFY_OK(t->createSubscription(kSub, {}));
        Rule rule;
        rule.name = QStringLiteral("region");
        rule.filterType = FilterType::Correlation;
        rule.correlation.properties.insert(QStringLiteral("Region"), QStringLiteral("EU"));
        HG_VERIFY_OK(t->addRule(kSub, rule));
        HG_VERIFY_OK(t->removeRule(kSub, QStringLiteral("$Default")));
        OutgoingMessage m = TestBroker::message(QStringLiteral("m"));
        m.applicationProperties.insert(messageName, messageValue);
        HG_VERIFY_OK(t->send(kTopic, m));
        const auto counts = t->counts(kSub);
        HG_VERIFY_OK(counts);
        QCOMPARE(counts->active, qint64(matches ? 1 : 0));
    }

    // A scenario's Send step types its properties: a plain number is an Int64 (as before), an
    // object names the type. The runner sends them so.
    void scenarioSendTypesItsProperties() {
        const QByteArray document = R"({
          "UserConfig": { "Namespaces": [ { "Name": "demo", "Queues": [ { "Name": "jobs" } ] } ] },
          "Scenario": { "Steps": [ { "At": "PT0S", "Send": { "To": "jobs", "MessageId": "m",
            "Properties": { "plain": 250, "int": { "Type": "Int32", "Value": 250 },
                            "when": { "Type": "DateTime", "Value": "2026-01-31T12:00:00Z" },
                            "name": "job-{n}" } } } ] } })";
        auto scenario = parseScenario(document);
        HG_VERIFY_OK(scenario);
        auto runner = ScenarioRunner::create(*scenario);
        HG_VERIFY_OK(runner);
        (*runner)->run();
        const auto peeked = (*runner)->broker().peek(QStringLiteral("jobs"), 0, 1);
        HG_VERIFY_OK(peeked);
        QCOMPARE(peeked->size(), 1);
        const QVariantMap p = peeked->first().applicationProperties;
        verifySame(p.value(QStringLiteral("plain")), QVariant(qlonglong(250)));
        verifySame(p.value(QStringLiteral("int")), QVariant(250));
        verifySame(p.value(QStringLiteral("when")),
                   QVariant(QDateTime(QDate(2026, 1, 31), QTime(12, 0), Qt::UTC)));
        verifySame(p.value(QStringLiteral("name")), QVariant(QStringLiteral("job-1")));
    }

    // A recorded scenario plays back the types it recorded (send and settle properties).
    void recordedScenarioReplaysPropertyTypes_data() { addTypedValueRows(); }
    void recordedScenarioReplaysPropertyTypes() {
        QFETCH(QVariant, value);
        TestBroker t;
        Broker& b = t.broker();
        auto recorder = std::make_shared<ScenarioRecorder>();
        QVERIFY(recorder->begin(b));
        b.setOperationObserver(recorder);
        HG_VERIFY_OK(b.createQueue(kQueue, {}));
        OutgoingMessage m = TestBroker::message(QStringLiteral("m"));
        m.applicationProperties.insert(QStringLiteral("p"), value);
        HG_VERIFY_OK(b.send(kQueue, m));
        const auto got = b.receive(kQueue, {ReceiveMode::PeekLock, 1, QStringLiteral("r")});
        HG_VERIFY_OK(got);
        QCOMPARE(got->size(), 1);
        HG_VERIFY_OK(b.abandon(LockRef::of(got->first()), {{QStringLiteral("q"), value}}));
        recorder->finish(b);
        b.setOperationObserver(nullptr);

        auto scenario = parseScenario(recorder->toJson());
        HG_VERIFY_OK(scenario);
        ScenarioRunOptions options;
        options.start = kTestStart;
        auto runner = ScenarioRunner::create(*scenario, options);
        HG_VERIFY_OK(runner);
        (*runner)->run();
        const auto replayed = (*runner)->broker().peek(kQueue, 0, 1);
        HG_VERIFY_OK(replayed);
        QCOMPARE(replayed->size(), 1);
        const QVariantMap p = replayed->first().applicationProperties;
        verifySame(p.value(QStringLiteral("p")), value);
        verifySame(p.value(QStringLiteral("q")), value);
    }
};

QTEST_GUILESS_MAIN(TestEngineProperties)
#include "tst_engine_properties.moc"
