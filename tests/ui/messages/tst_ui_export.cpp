// Message export: the JSON of one message (every system property, typed application properties
// that read back, the body as text or base64), the files, and the dead-letter panel's export of
// selected messages over a real broker.

#include "DeadLetterTestEnv.h"
#include "common/BrokerClient.h"
#include "common/BulkJob.h"
#include "deadletter/DeadLetterPanel.h"
#include "deadletter/DeadLetterReasonsModel.h"
#include "messages/MessageExport.h"
#include "messages/MessageViewModel.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QLabel>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace hourglass;
using namespace hourglass::ui;
using namespace hourglass::testing::deadletter;
using Kind = NamespaceTreeModel::NodeKind;

class TestUiExport : public QObject {
    Q_OBJECT
private slots:
    void exportJsonReadsBack();
    void exportRefusesAMissingDirectory();
    void exportSelectedWritesJsonFiles();
};

void TestUiExport::exportJsonReadsBack() {
    MessageView m;
    m.entityPath = QStringLiteral("t/Subscriptions/s1");
    m.subQueue = SubQueue::DeadLetter;
    m.sequenceNumber = 42;
    m.messageId = QStringLiteral("id-1");
    m.deadLetterReason = QStringLiteral("BadOrder");
    m.enqueuedTime = testing::kTestStart;
    m.timeToLive = minutes(5);
    const QDateTime when = QDateTime::fromMSecsSinceEpoch(testing::kTestStart + 123, Qt::UTC);
    m.applicationProperties = {
        {QStringLiteral("s"), QStringLiteral("text")},
        {QStringLiteral("b"), true},
        {QStringLiteral("i"), -7},
        {QStringLiteral("u"), 7u},
        {QStringLiteral("big"), Q_INT64_C(9007199254740993)}, // 2^53 + 1: a double would round it
        {QStringLiteral("ubig"), Q_UINT64_C(18446744073709551615)},
        {QStringLiteral("d"), 2.5},
        {QStringLiteral("f"), 1.5f},
        {QStringLiteral("when"), when},
        {QStringLiteral("guid"),
         QUuid::fromString(QStringLiteral("{6f1c2a3b-4d5e-4f60-8a9b-0c1d2e3f4a5b}"))},
        {QStringLiteral("bytes"), QByteArray("\x00\xff", 2)},
        {QStringLiteral("nothing"), QVariant::fromValue(nullptr)},
    };
    m.hasBody = true;
    m.body = "h\xc3\xa9llo";

    const QJsonObject json = messageToJson(m);
    QCOMPARE(json.value(QStringLiteral("format")).toString(), messageExportFormat());
    QCOMPARE(json.value(QStringLiteral("sequenceNumber")).toInteger(), 42);
    QCOMPARE(json.value(QStringLiteral("subQueue")).toString(), QStringLiteral("DeadLetter"));
    QCOMPARE(json.value(QStringLiteral("deadLetterReason")).toString(), QStringLiteral("BadOrder"));
    QCOMPARE(json.value(QStringLiteral("timeToLive")).toString(), QStringLiteral("PT5M"));
    QCOMPARE(json.value(QStringLiteral("enqueuedTimeUtc")).toString(),
             formatInstant(testing::kTestStart));
    QCOMPARE(json.value(QStringLiteral("bodyEncoding")).toString(), QStringLiteral("utf-8"));
    QCOMPARE(json.value(QStringLiteral("body")).toString(), QString::fromUtf8("h\xc3\xa9llo"));

    // Through text and back: every property with its value and its type.
    const QJsonObject reread = QJsonDocument::fromJson(QJsonDocument(json).toJson()).object();
    auto properties = applicationPropertiesFromJson(
        reread.value(QStringLiteral("applicationProperties")).toObject());
    QVERIFY2(properties.ok(), why(properties).constData());
    QCOMPARE(properties->size(), m.applicationProperties.size());
    for (auto it = m.applicationProperties.begin(); it != m.applicationProperties.end(); ++it) {
        const QVariant back = properties->value(it.key());
        QVERIFY2(back.typeId() == it.value().typeId(), qPrintable(it.key()));
        if (it.value().typeId() != QMetaType::Nullptr)
            QVERIFY2(back == it.value(), qPrintable(it.key()));
    }

    m.body = QByteArray("\x00\xff\xfe", 3);
    const QJsonObject binary = messageToJson(m);
    QCOMPARE(binary.value(QStringLiteral("bodyEncoding")).toString(), QStringLiteral("base64"));
    QCOMPARE(QByteArray::fromBase64(binary.value(QStringLiteral("body")).toString().toLatin1()),
             m.body);

    QCOMPARE(exportFileName(m), QStringLiteral("t_Subscriptions_s1-42.json"));
    QVERIFY(!applicationPropertiesFromJson(
                 QJsonObject{{QStringLiteral("x"),
                              QJsonObject{{QStringLiteral("type"), QStringLiteral("Int32")},
                                          {QStringLiteral("value"), QStringLiteral("7")}}}})
                 .ok());
}
void TestUiExport::exportRefusesAMissingDirectory() {
    QTemporaryDir dir;
    MessageView m;
    m.entityPath = kQueue;
    m.sequenceNumber = 1;
    const QString missing = dir.filePath(QStringLiteral("no/such/dir"));
    auto refused = exportMessages({m}, missing);
    QVERIFY(!refused.ok());
    QVERIFY2(refused.error().description.contains(missing),
             qPrintable(refused.error().description));
    QVERIFY(!QDir(missing).exists());

    auto written = exportMessages({m}, dir.path());
    QVERIFY2(written.ok(), why(written).constData());
    QCOMPARE(*written, QStringList{dir.filePath(QStringLiteral("orders-1.json"))});
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{QStringLiteral("orders-1.json")});
}
void TestUiExport::exportSelectedWritesJsonFiles() {
    Env env;
    env.deadLetter(kQueue, 3, QStringLiteral("BadOrder"), QStringLiteral("Customer is missing"));
    DeadLetterPanel panel(*env.client);
    QSignalSpy status(&panel, &DeadLetterPanel::statusMessage);
    QSignalSpy errors(&panel, &DeadLetterPanel::errorOccurred);
    panel.setEntity(QStringLiteral("test:orders"), Kind::Queue);
    QTRY_COMPARE(panel.model()->rowCount(), 3);
    const MessageView first = panel.model()->messageAt(0);
    const MessageView third = panel.model()->messageAt(2);
    panel.selectSequenceNumbers({first.sequenceNumber, third.sequenceNumber});

    QTemporaryDir out;
    panel.exportSelectedTo(out.path());
    QTRY_VERIFY(!status.isEmpty());
    QCOMPARE(status.last().first().toString(),
             QStringLiteral("Exported 2 messages to %1").arg(out.path()));
    QStringList expected = {QStringLiteral("orders-%1.json").arg(first.sequenceNumber),
                            QStringLiteral("orders-%1.json").arg(third.sequenceNumber)};
    expected.sort();
    QCOMPARE(QDir(out.path()).entryList(QDir::Files, QDir::Name), expected);

    QFile file(QDir(out.path()).filePath(expected.first()));
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QJsonObject json = QJsonDocument::fromJson(file.readAll()).object();
    QCOMPARE(json.value(QStringLiteral("messageId")).toString(), first.messageId);
    QCOMPARE(json.value(QStringLiteral("deadLetterReason")).toString(), QStringLiteral("BadOrder"));
    QCOMPARE(json.value(QStringLiteral("deadLetterErrorDescription")).toString(),
             QStringLiteral("Customer is missing"));
    QCOMPARE(json.value(QStringLiteral("bodyEncoding")).toString(), QStringLiteral("utf-8"));
    QCOMPARE(json.value(QStringLiteral("body")).toString(),
             QStringLiteral("{\"id\":\"%1\"}").arg(first.messageId));
    auto properties = applicationPropertiesFromJson(
        json.value(QStringLiteral("applicationProperties")).toObject());
    QVERIFY(properties.ok());
    QCOMPARE(properties->value(QStringLiteral("attempt")), QVariant(3));
    QCOMPARE(properties->value(QStringLiteral("DeadLetterReason")),
             QVariant(QStringLiteral("BadOrder")));

    // A directory that does not exist: an error, inline and signalled, and nothing written.
    panel.exportSelectedTo(out.filePath(QStringLiteral("missing")));
    QTRY_COMPARE(errors.size(), 1);
    auto* error = child<QLabel>(panel, "deadLetterError");
    QVERIFY(error->isVisibleTo(&panel));
    QVERIFY2(error->text().contains(QStringLiteral("no such directory")),
             qPrintable(error->text()));
    QCOMPARE(env.counts(kQueue).deadLettered, 3); // export leaves the queue alone

    // A message gone meanwhile is skipped, the others are written.
    QTemporaryDir again;
    auto stored = env.call([&](Broker& b) {
        return exportStored(b, kDlq, {first.sequenceNumber, 999999}, again.path());
    });
    QVERIFY2(stored.ok(), why(stored).constData());
    QCOMPARE(QDir(again.path()).entryList(QDir::Files),
             QStringList{QStringLiteral("orders-%1.json").arg(first.sequenceNumber)});
}
QTEST_MAIN(TestUiExport)
#include "tst_ui_export.moc"
