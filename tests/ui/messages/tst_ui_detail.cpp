// The message detail panel: the body formatter's layouts and view choice, and the panel over a
// real broker (system properties including T9's derived expiry, application properties, body
// views, copy buttons, inline errors, L7 dead-letter reasons, what the body was on the wire), and
// the fixed-pitch body font.

#include "ClientCall.h"
#include "TestBroker.h"
#include "UiTestBroker.h"
#include "common/BodyFormatter.h"
#include "common/BrokerClient.h"
#include "common/FixedPitchFont.h"
#include "hourglass/amqpcodec/WireExtras.h"
#include "messages/MessageDetailPanel.h"

#include <QClipboard>
#include <QComboBox>
#include <QFontInfo>
#include <QGuiApplication>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QSplitter>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

#include <optional>

using namespace hourglass;
using namespace hourglass::ui;

namespace {

// A broker on a temporary database and a paused virtual clock, handed to a BrokerClient. The
// queues exist before the client does; afterwards every broker call goes through the client.
struct Env {
    QTemporaryDir dir;
    std::shared_ptr<VirtualClock> clock = std::make_shared<VirtualClock>(testing::kTestStart);
    std::unique_ptr<BrokerClient> client;

    explicit Env(Millis defaultTimeToLive = kInfinite) {
        std::unique_ptr<Broker> broker = testing::openUiTestBroker(dir, clock);
        EntityProperties properties = EntityProperties::defaults(Tier::Standard);
        properties.defaultMessageTimeToLive = defaultTimeToLive;
        if (!broker->createQueue(QStringLiteral("q"), properties))
            qFatal("createQueue failed");
        client = std::make_unique<BrokerClient>(std::move(broker));
    }

    // Runs one broker call through the client and returns its result on this (GUI) thread.
    template <typename Work> auto call(Work work) {
        return hourglass::testing::callAndWait(*client, std::move(work));
    }

    qint64 send(const OutgoingMessage& message) {
        const auto sent =
            call([message](Broker& b) { return b.send(QStringLiteral("q"), message); });
        if (!sent)
            qFatal("send failed: %s", qPrintable(sent.error().toString()));
        return sent->sequenceNumber;
    }
};

// The value column of the system-properties row with this name, or a marker when absent.
QString systemValue(const QTableWidget* table, const QString& name) {
    for (int row = 0; row < table->rowCount(); ++row)
        if (table->item(row, 0) && table->item(row, 0)->text() == name)
            return table->item(row, 1)->text();
    return QStringLiteral("<no row %1>").arg(name);
}

// "value | type" of the application-properties row with this name.
QString applicationRow(const QTableWidget* table, const QString& name) {
    for (int row = 0; row < table->rowCount(); ++row)
        if (table->item(row, 0) && table->item(row, 0)->text() == name)
            return table->item(row, 1)->text() + QStringLiteral(" | ") +
                   table->item(row, 2)->text();
    return QStringLiteral("<no row %1>").arg(name);
}

OutgoingMessage fullMessage() {
    OutgoingMessage m;
    m.body = R"({"order":7,"items":["a","b"]})";
    m.messageId = QStringLiteral("msg-1");
    m.correlationId = QStringLiteral("corr-1");
    m.sessionId = QStringLiteral("session-1");
    m.replyTo = QStringLiteral("replies");
    m.replyToSessionId = QStringLiteral("reply-session");
    m.to = QStringLiteral("someone");
    m.subject = QStringLiteral("an order");
    m.contentType = QStringLiteral("application/json");
    m.timeToLive = minutes(10);
    m.applicationProperties = {
        {QStringLiteral("name"), QStringLiteral("widget")},
        {QStringLiteral("count"), 42},
        {QStringLiteral("ratio"), 2.5},
        {QStringLiteral("urgent"), true},
    };
    return m;
}

const QString kPrettyOrder = QStringLiteral("{\n"
                                            "    \"items\": [\n"
                                            "        \"a\",\n"
                                            "        \"b\"\n"
                                            "    ],\n"
                                            "    \"order\": 7\n"
                                            "}");

} // namespace

class TestUiDetail : public QObject {
    Q_OBJECT
private slots:
    // The panel's splitters remember their sizes in QSettings: the test's own, not the user's.
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("hourglass-tests"));
        QSettings().remove(QStringLiteral("messageDetail"));
    }
    void jsonIsIndented();
    void jsonErrorSaysWhy();
    void xmlIsIndented();
    void xmlErrorSaysWhy();
    void deepNestingIsRefusedOrShownWhole();
    void hexDumpOf20Bytes();
    void invalidUtf8IsShownSafely();
    void bestView_data();
    void bestView();

    void fixedPitchFontFromAProportionalOne();
    void panelShowsEveryProperty();
    void bodyViewSwitchesToHex();
    void copyButtonsFillTheClipboard();
    void t9_derivedExpiryIsMarked();
    void unknownMessageIsSaidCalmly();
    void l7_deadLetteredMessageShowsItsReason();
    void newerRequestWins();
    void followsLockAndSettlement();
    void clearShowsTheEmptyState();
    void wireBodyKindIsSaid_data();
    void wireBodyKindIsSaid();
    void propertyPaneResizedAndRemembered();
};

void TestUiDetail::jsonIsIndented() {
    const FormattedBody f = formatJson(R"({"order":7,"items":["a","b"]})");
    QVERIFY(f.ok);
    QCOMPARE(f.text, kPrettyOrder);
}

void TestUiDetail::jsonErrorSaysWhy() {
    const FormattedBody f = formatJson("{\"open\": ");
    QVERIFY(!f.ok);
    QVERIFY2(f.text.startsWith(QStringLiteral("Not JSON: ")), qPrintable(f.text));
}

void TestUiDetail::xmlIsIndented() {
    const FormattedBody f = formatXml(R"(<order id="7"><item>a</item><empty/></order>)");
    QVERIFY2(f.ok, qPrintable(f.text));
    QCOMPARE(f.text, QStringLiteral("<order id=\"7\">\n"
                                    "    <item>a</item>\n"
                                    "    <empty/>\n"
                                    "</order>"));
    // A declaration the sender wrote stays.
    const FormattedBody declared = formatXml(R"(<?xml version="1.0"?><a><b/></a>)");
    QVERIFY2(declared.ok, qPrintable(declared.text));
    QCOMPARE(declared.text, QStringLiteral("<?xml version=\"1.0\"?>\n<a>\n    <b/>\n</a>"));
}

void TestUiDetail::xmlErrorSaysWhy() {
    const FormattedBody f = formatXml("<order><item></order>");
    QVERIFY(!f.ok);
    QVERIFY2(f.text.startsWith(QStringLiteral("Not XML: ")), qPrintable(f.text));
    QVERIFY(!formatXml("just words").ok);
}

// A body is an application's bytes: 200,000 levels of JSON arrays or XML elements (a few
// hundred KB) must neither overflow the stack nor hang the detail panel. Qt's JSON parser
// refuses past 1,024 levels; the XML view streams, with its open tags on the heap; past 64
// levels neither is indented, since indentation grows with depth.
void TestUiDetail::deepNestingIsRefusedOrShownWhole() {
    constexpr int kLevels = 200000;
    const FormattedBody json = formatJson(QByteArray(kLevels, '[') + QByteArray(kLevels, ']'));
    QVERIFY(!json.ok);
    QVERIFY2(json.text.startsWith(QStringLiteral("Not JSON: ")), qPrintable(json.text.left(80)));
    QCOMPARE(hourglass::ui::bestView(QByteArray(kLevels, '['), QString()), BodyView::Text);

    QByteArray xml;
    for (int i = 0; i < kLevels; ++i)
        xml += "<a>";
    for (int i = 0; i < kLevels; ++i)
        xml += "</a>";
    // Shown whole, unindented: indenting 200,000 levels would take tens of gigabytes.
    const FormattedBody flat = formatXml(xml);
    QVERIFY2(flat.ok, qPrintable(flat.text.left(80)));
    // Every tag kept, the innermost pair written as "<a/>".
    QVERIFY(flat.text.startsWith(QStringLiteral("<a><a><a>")));
    QCOMPARE(flat.text.size(), qsizetype(xml.size()) - 3);

    // Past 64 levels, JSON is shown compact; up to it, indented.
    const FormattedBody deepJson = formatJson(QByteArray(65, '[') + "1" + QByteArray(65, ']'));
    QVERIFY(deepJson.ok);
    QCOMPARE(deepJson.text, QString::fromLatin1(QByteArray(65, '[') + "1" + QByteArray(65, ']')));
    const FormattedBody indented = formatJson(QByteArray(64, '[') + "1" + QByteArray(64, ']'));
    QVERIFY(indented.ok);
    QVERIFY(indented.text.contains(QStringLiteral("\n    [")));
}

void TestUiDetail::hexDumpOf20Bytes() {
    const QByteArray body = QByteArray("Hello, hex dump!") + QByteArray("\x00\x7f\xff"
                                                                        "A",
                                                                        4);
    QCOMPARE(body.size(), 20);
    const FormattedBody f = formatHex(body);
    QVERIFY(f.ok);
    const QStringList lines = f.text.split(QLatin1Char('\n'));
    QCOMPARE(lines.size(), 2);
    QCOMPARE(lines.at(0), QStringLiteral("00000000  48 65 6c 6c 6f 2c 20 68  65 78 20 64 75 6d 70 "
                                         "21  |Hello, hex dump!|"));
    // The short last line keeps the ASCII column aligned with the full one above.
    QCOMPARE(lines.at(1), QStringLiteral("00000010  00 7f ff 41") + QString(39, QLatin1Char(' ')) +
                              QStringLiteral("|...A|"));
    QCOMPARE(lines.at(1).indexOf(QLatin1Char('|')), lines.at(0).indexOf(QLatin1Char('|')));
    QCOMPARE(formatHex(QByteArray()).text, QString());
}

void TestUiDetail::invalidUtf8IsShownSafely() {
    const QByteArray body("ok \xff\xfe end");
    QVERIFY(!isValidUtf8(body));
    QVERIFY(isValidUtf8(QByteArray("caf\xc3\xa9")));
    const FormattedBody f = formatText(body);
    QVERIFY(f.ok);
    QVERIFY(f.text.startsWith(QStringLiteral("ok ")));
    QVERIFY(f.text.endsWith(QStringLiteral(" end")));
    QVERIFY(f.text.contains(QChar::ReplacementCharacter));
}

void TestUiDetail::bestView_data() {
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<QString>("contentType");
    QTest::addColumn<int>("view");
    const auto row = [](const char* name, const QByteArray& body, const QString& type,
                        BodyView view) { QTest::newRow(name) << body << type << int(view); };
    row("json content type", "not really", QStringLiteral("application/json"), BodyView::Json);
    row("body starts with {", " {\"a\":1}", QString(), BodyView::Json);
    row("body starts with [", "[1,2]", QStringLiteral("text/plain"), BodyView::Json);
    row("bracketed text is not json", "[warn] disk full", QString(), BodyView::Text);
    row("xml content type", "<a/>", QStringLiteral("application/xml"), BodyView::Xml);
    row("body starts with <", "<a><b/></a>", QString(), BodyView::Xml);
    row("not utf-8", QByteArray("\x00\x01\xff\xfe", 4), QString(), BodyView::Hex);
    row("plain text", "hello", QString(), BodyView::Text);
}

void TestUiDetail::bestView() {
    QFETCH(QByteArray, body);
    QFETCH(QString, contentType);
    QFETCH(int, view);
    QCOMPARE(int(ui::bestView(body, contentType)), view);
}

// The system's fixed font is fixed-pitch on a machine with few fonts, so the panel test alone never
// reaches the fallbacks; a proportional base (the application's sans-serif font) always does.
void TestUiDetail::fixedPitchFontFromAProportionalOne() {
    QFont base = QGuiApplication::font();
    base.setFamily(QStringLiteral("DejaVu Sans"));
    base.setPointSize(13);
    base.setBold(true);
    const QFont fixed = fixedPitchFont(base);
    QVERIFY2(QFontInfo(fixed).fixedPitch(), qPrintable(QFontInfo(fixed).family()));
    QCOMPARE(fixed.pointSize(), 13);
    QVERIFY(fixed.bold());
    QVERIFY(QFontInfo(fixedPitchFont()).fixedPitch());
}

void TestUiDetail::panelShowsEveryProperty() {
    Env env;
    const qint64 seq = env.send(fullMessage());
    MessageDetailPanel panel(*env.client);
    panel.show();
    auto* system = panel.findChild<QTableWidget*>(QStringLiteral("systemProperties"));
    auto* application = panel.findChild<QTableWidget*>(QStringLiteral("applicationProperties"));
    auto* body = panel.findChild<QPlainTextEdit*>(QStringLiteral("messageBody"));
    auto* view = panel.findChild<QComboBox*>(QStringLiteral("bodyView"));
    QVERIFY(system && application && body && view);
    QVERIFY(body->isReadOnly());
    QVERIFY(QFontInfo(body->font()).fixedPitch());

    panel.showMessage(QStringLiteral("test:q"), seq);
    QTRY_COMPARE(systemValue(system, QStringLiteral("MessageId")), QStringLiteral("msg-1"));
    QCOMPARE(systemValue(system, QStringLiteral("CorrelationId")), QStringLiteral("corr-1"));
    QCOMPARE(systemValue(system, QStringLiteral("SessionId")), QStringLiteral("session-1"));
    QCOMPARE(systemValue(system, QStringLiteral("ReplyTo")), QStringLiteral("replies"));
    QCOMPARE(systemValue(system, QStringLiteral("ReplyToSessionId")),
             QStringLiteral("reply-session"));
    QCOMPARE(systemValue(system, QStringLiteral("To")), QStringLiteral("someone"));
    QCOMPARE(systemValue(system, QStringLiteral("Subject")), QStringLiteral("an order"));
    QCOMPARE(systemValue(system, QStringLiteral("ContentType")),
             QStringLiteral("application/json"));
    QCOMPARE(systemValue(system, QStringLiteral("SequenceNumber")), QString::number(seq));
    QCOMPARE(systemValue(system, QStringLiteral("State")), QStringLiteral("Active"));
    QCOMPARE(systemValue(system, QStringLiteral("DeliveryCount")), QStringLiteral("0"));
    QCOMPARE(systemValue(system, QStringLiteral("EnqueuedTimeUtc")),
             formatInstant(testing::kTestStart));
    QCOMPARE(systemValue(system, QStringLiteral("ScheduledEnqueueTimeUtc")),
             QStringLiteral("\u2014"));
    QCOMPARE(systemValue(system, QStringLiteral("TimeToLive")), QStringLiteral("PT10M"));
    QCOMPARE(systemValue(system, QStringLiteral("EffectiveTimeToLive")), QStringLiteral("PT10M"));
    QCOMPARE(systemValue(system, QStringLiteral("ExpiresAtUtc")),
             formatInstant(testing::kTestStart + minutes(10)));
    QCOMPARE(systemValue(system, QStringLiteral("LockedUntilUtc")), QStringLiteral("\u2014"));
    QCOMPARE(systemValue(system, QStringLiteral("DeadLetterReason")), QStringLiteral("\u2014"));
    QVERIFY(systemValue(system, QStringLiteral("Size")).endsWith(QStringLiteral(" bytes")));

    QCOMPARE(application->rowCount(), 4);
    QCOMPARE(applicationRow(application, QStringLiteral("name")),
             QStringLiteral("widget | String"));
    QCOMPARE(applicationRow(application, QStringLiteral("count")), QStringLiteral("42 | Int32"));
    QCOMPARE(applicationRow(application, QStringLiteral("ratio")), QStringLiteral("2.5 | Double"));
    QCOMPARE(applicationRow(application, QStringLiteral("urgent")),
             QStringLiteral("true | Boolean"));

    QCOMPARE(view->currentIndex(), int(BodyView::Json));
    QCOMPARE(body->toPlainText(), kPrettyOrder);
}

void TestUiDetail::bodyViewSwitchesToHex() {
    Env env;
    OutgoingMessage m = testing::TestBroker::message(QStringLiteral("plain"), "Hi there");
    const qint64 seq = env.send(m);
    MessageDetailPanel panel(*env.client);
    auto* body = panel.findChild<QPlainTextEdit*>(QStringLiteral("messageBody"));
    auto* view = panel.findChild<QComboBox*>(QStringLiteral("bodyView"));
    panel.showMessage(QStringLiteral("test:q"), seq);
    QTRY_COMPARE(body->toPlainText(), QStringLiteral("Hi there"));
    QCOMPARE(view->currentIndex(), int(BodyView::Text));

    view->setCurrentIndex(int(BodyView::Hex));
    QCOMPARE(body->toPlainText(), formatHex("Hi there").text);
    QVERIFY(body->toPlainText().startsWith(QStringLiteral("00000000  48 69 20 74")));

    view->setCurrentIndex(int(BodyView::Json)); // not JSON: the view says why
    QVERIFY(body->toPlainText().startsWith(QStringLiteral("Not JSON: ")));
}

void TestUiDetail::copyButtonsFillTheClipboard() {
    Env env;
    const qint64 seq = env.send(fullMessage());
    MessageDetailPanel panel(*env.client);
    panel.show();
    auto* body = panel.findChild<QPlainTextEdit*>(QStringLiteral("messageBody"));
    panel.showMessage(QStringLiteral("test:q"), seq);
    QTRY_COMPARE(body->toPlainText(), kPrettyOrder);

    QGuiApplication::clipboard()->clear();
    QTest::mouseClick(panel.findChild<QPushButton*>(QStringLiteral("copyBody")), Qt::LeftButton);
    QCOMPARE(QGuiApplication::clipboard()->text(), kPrettyOrder);

    QTest::mouseClick(panel.findChild<QPushButton*>(QStringLiteral("copyProperties")),
                      Qt::LeftButton);
    const QStringList lines = QGuiApplication::clipboard()->text().split(QLatin1Char('\n'));
    QVERIFY(lines.contains(QStringLiteral("MessageId: msg-1")));
    QVERIFY(lines.contains(QStringLiteral("TimeToLive: PT10M")));
    QVERIFY(lines.contains(QStringLiteral("name: widget")));
    QVERIFY(lines.contains(QStringLiteral("count: 42")));
    QCOMPARE(QGuiApplication::clipboard()->text(), panel.propertiesText());
}

void TestUiDetail::t9_derivedExpiryIsMarked() {
    Env env(hours(1));
    const qint64 seq = env.send(testing::TestBroker::message(QStringLiteral("no-ttl")));
    MessageDetailPanel panel(*env.client);
    auto* system = panel.findChild<QTableWidget*>(QStringLiteral("systemProperties"));
    panel.showMessage(QStringLiteral("test:q"), seq);
    QTRY_COMPARE(systemValue(system, QStringLiteral("MessageId")), QStringLiteral("no-ttl"));
    QCOMPARE(systemValue(system, QStringLiteral("TimeToLive")), QStringLiteral("\u2014"));
    QCOMPARE(systemValue(system, QStringLiteral("EffectiveTimeToLive")), QStringLiteral("PT1H"));
    QCOMPARE(systemValue(system, QStringLiteral("ExpiresAtUtc")),
             formatInstant(testing::kTestStart + hours(1)) +
                 QStringLiteral(" (derived from the entity)"));

    Env noDefault;
    const qint64 other = noDefault.send(testing::TestBroker::message(QStringLiteral("forever")));
    MessageDetailPanel infinite(*noDefault.client);
    auto* table = infinite.findChild<QTableWidget*>(QStringLiteral("systemProperties"));
    infinite.showMessage(QStringLiteral("test:q"), other);
    QTRY_COMPARE(systemValue(table, QStringLiteral("MessageId")), QStringLiteral("forever"));
    QCOMPARE(systemValue(table, QStringLiteral("EffectiveTimeToLive")), QStringLiteral("never"));
    QVERIFY(systemValue(table, QStringLiteral("ExpiresAtUtc")).startsWith(QStringLiteral("never")));
}

void TestUiDetail::unknownMessageIsSaidCalmly() {
    // A message that is not there is the everyday case (settled, expired, moved): the empty
    // state says so in words, with the engine's code in its tooltip, not as an error.
    Env env;
    MessageDetailPanel panel(*env.client);
    panel.show();
    auto* empty = panel.findChild<QLabel*>(QStringLiteral("detailEmpty"));
    auto* error = panel.findChild<QLabel*>(QStringLiteral("detailError"));
    QVERIFY(empty && error);
    panel.showMessage(QStringLiteral("test:q"), 999);
    QTRY_COMPARE(empty->text(), QStringLiteral("Message 999 is no longer in test:q: it was "
                                               "completed, received, expired or moved."));
    QVERIFY(empty->isVisible());
    QVERIFY(!error->isVisible());
    QVERIFY2(empty->toolTip().contains(QStringLiteral("MessageNotFound")),
             qPrintable(empty->toolTip()));
    panel.clear();
    QCOMPARE(empty->text(), QStringLiteral("Select a message"));
}

void TestUiDetail::l7_deadLetteredMessageShowsItsReason() {
    Env env;
    const qint64 seq = env.send(testing::TestBroker::message(QStringLiteral("poison")));
    const auto dead = env.call([](Broker& b) -> Result<void> {
        auto received = b.receive(QStringLiteral("q"), ReceiveOptions{});
        if (!received)
            return received.error();
        return b.deadLetter(
            LockRef::of(received->first()),
            DeadLetterOptions{QStringLiteral("BadOrder"), QStringLiteral("no such product"), {}});
    });
    QVERIFY(dead.ok());

    MessageDetailPanel panel(*env.client);
    auto* system = panel.findChild<QTableWidget*>(QStringLiteral("systemProperties"));
    panel.showMessage(QStringLiteral("test:q/$deadletterqueue"), seq);
    QTRY_COMPARE(systemValue(system, QStringLiteral("DeadLetterReason")),
                 QStringLiteral("BadOrder"));
    QCOMPARE(systemValue(system, QStringLiteral("DeadLetterErrorDescription")),
             QStringLiteral("no such product"));
    QCOMPARE(systemValue(system, QStringLiteral("MessageId")), QStringLiteral("poison"));
    QVERIFY(systemValue(system, QStringLiteral("State")).contains(QStringLiteral("dead-letter")));
}

void TestUiDetail::newerRequestWins() {
    Env env;
    const qint64 first = env.send(testing::TestBroker::message(QStringLiteral("first")));
    const qint64 second = env.send(testing::TestBroker::message(QStringLiteral("second")));
    MessageDetailPanel panel(*env.client);
    auto* system = panel.findChild<QTableWidget*>(QStringLiteral("systemProperties"));
    panel.showMessage(QStringLiteral("test:q"), first);
    panel.showMessage(QStringLiteral("test:q"), second);
    QTRY_COMPARE(systemValue(system, QStringLiteral("MessageId")), QStringLiteral("second"));
    env.client->waitForIdle();
    QCoreApplication::processEvents();
    QCOMPARE(systemValue(system, QStringLiteral("MessageId")), QStringLiteral("second"));
}

void TestUiDetail::followsLockAndSettlement() {
    Env env;
    const qint64 seq = env.send(fullMessage());
    MessageDetailPanel panel(*env.client);
    panel.show();
    auto* system = panel.findChild<QTableWidget*>(QStringLiteral("systemProperties"));
    auto* view = panel.findChild<QComboBox*>(QStringLiteral("bodyView"));
    auto* error = panel.findChild<QLabel*>(QStringLiteral("detailError"));
    panel.showMessage(QStringLiteral("test:q"), seq);
    QTRY_COMPARE(systemValue(system, QStringLiteral("MessageId")), QStringLiteral("msg-1"));
    view->setCurrentIndex(int(BodyView::Hex));

    const auto received = env.call([](Broker& b) {
        return b.receive(QStringLiteral("q"),
                         ReceiveOptions{ReceiveMode::PeekLock, 1, QStringLiteral("worker-1")});
    });
    QVERIFY(received.ok() && received->size() == 1);
    QTRY_COMPARE(systemValue(system, QStringLiteral("LockHolder")), QStringLiteral("worker-1"));
    QCOMPARE(systemValue(system, QStringLiteral("DeliveryCount")), QStringLiteral("1"));
    QCOMPARE(systemValue(system, QStringLiteral("LockedUntilUtc")),
             formatInstant(received->first().lockedUntil));
    QCOMPARE(view->currentIndex(), int(BodyView::Hex)); // the reload kept the chosen view

    const LockRef lock = LockRef::of(received->first());
    QVERIFY(env.call([lock](Broker& b) { return b.complete(lock); }).ok());
    auto* empty = panel.findChild<QLabel*>(QStringLiteral("detailEmpty"));
    QTRY_VERIFY(empty->isVisible());
    QVERIFY2(empty->text().contains(QStringLiteral("no longer in test:q")),
             qPrintable(empty->text()));
    QVERIFY(!error->isVisible());
}

void TestUiDetail::clearShowsTheEmptyState() {
    Env env;
    const qint64 seq = env.send(testing::TestBroker::message(QStringLiteral("gone")));
    MessageDetailPanel panel(*env.client);
    panel.show();
    auto* empty = panel.findChild<QLabel*>(QStringLiteral("detailEmpty"));
    auto* body = panel.findChild<QPlainTextEdit*>(QStringLiteral("messageBody"));
    QVERIFY(empty->isVisible());
    QCOMPARE(empty->text(), QStringLiteral("Select a message"));

    // A reply still under way when clear() runs is dropped.
    panel.showMessage(QStringLiteral("test:q"), seq);
    panel.clear();
    env.client->waitForIdle();
    QCoreApplication::processEvents();
    QVERIFY(empty->isVisible());
    QVERIFY(body->toPlainText().isEmpty());
    QVERIFY(panel.propertiesText().isEmpty());
}

// A message an application sent over AMQP with an amqp-value or amqp-sequence body keeps its
// sections in wireExtras; the panel says what the body was, and nothing for data.
void TestUiDetail::wireBodyKindIsSaid_data() {
    QTest::addColumn<QByteArray>("sections");
    QTest::addColumn<QString>("said");
    QTest::newRow("data") << QByteArray() << QString();
    QTest::newRow("value string") << QByteArray("\x00\x53\x77\xa1\x05hello", 10)
                                  << QStringLiteral("AMQP value body: string");
    QTest::newRow("value map") << QByteArray("\x00\x53\x77\xc1\x01\x00", 6)
                               << QStringLiteral("AMQP value body: map (shown as JSON)");
    QTest::newRow("sequence") << QByteArray("\x00\x53\x76\x45", 4)
                              << QStringLiteral("AMQP sequence body (shown as JSON)");
}

void TestUiDetail::wireBodyKindIsSaid() {
    QFETCH(QByteArray, sections);
    QFETCH(QString, said);
    Env env;
    OutgoingMessage m = testing::TestBroker::message(QStringLiteral("wire"), "hello");
    amqp::WireExtras extras;
    extras.bodySections = sections;
    m.wireExtras = amqp::encodeWireExtras(extras);
    const qint64 seq = env.send(m);
    MessageDetailPanel panel(*env.client);
    panel.show();
    auto* kind = panel.findChild<QLabel*>(QStringLiteral("bodyKind"));
    QVERIFY(kind);
    panel.showMessage(QStringLiteral("test:q"), seq);
    QTRY_COMPARE(panel.findChild<QPlainTextEdit*>(QStringLiteral("messageBody"))->toPlainText(),
                 QStringLiteral("hello"));
    QCOMPARE(kind->text(), said);
    QCOMPARE(kind->isVisible(), !said.isEmpty());
    panel.clear();
    QVERIFY(kind->isHidden());
}

// The property pane is as wide as the user drags it (the splitter beside the body), and the next
// panel (the next database, the next start) opens with that width and the tables' split.
void TestUiDetail::propertyPaneResizedAndRemembered() {
    Env env;
    const qint64 seq = env.send(fullMessage());
    const QSize size(1200, 360); // room to drag the pane 150 px wider, the body keeping its minimum
    int dragged = 0;
    QList<int> tables;
    {
        MessageDetailPanel panel(*env.client);
        panel.resize(size);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        panel.showMessage(QStringLiteral("test:q"), seq);
        auto* splitter = panel.findChild<QSplitter*>(QStringLiteral("detailSplitter"));
        QVERIFY(splitter);
        QTRY_VERIFY(splitter->isVisible());
        const int before = splitter->sizes().value(0);
        QVERIFY(before > 0);
        // Dragged by its handle as a user would: 150 px to the right.
        QSplitterHandle* handle = splitter->handle(1);
        QVERIFY(handle->width() >= 6); // wide enough to find with the mouse
        const QPoint grip(handle->width() / 2, handle->height() / 2);
        QTest::mousePress(handle, Qt::LeftButton, {}, grip);
        QTest::mouseMove(handle, grip + QPoint(150, 0));
        QTest::mouseRelease(handle, Qt::LeftButton, {}, grip + QPoint(150, 0));
        dragged = splitter->sizes().value(0);
        QVERIFY2(dragged >= before + 140,
                 qPrintable(QStringLiteral("%1 -> %2").arg(before).arg(dragged)));
        // The two tables, split by their own splitter, are remembered too.
        auto* inner = panel.findChild<QSplitter*>(QStringLiteral("detailPropertiesSplitter"));
        QVERIFY(inner);
        const QList<int> tablesBefore = inner->sizes();
        QTest::mousePress(inner->handle(1), Qt::LeftButton, {}, QPoint(20, 2));
        QTest::mouseMove(inner->handle(1), QPoint(20, -60));
        QTest::mouseRelease(inner->handle(1), Qt::LeftButton, {}, QPoint(20, -60));
        tables = inner->sizes();
        QVERIFY(tables != tablesBefore);
    }
    QVERIFY(QSettings().contains(QStringLiteral("messageDetail/detailSplitter")));

    MessageDetailPanel again(*env.client);
    again.resize(size);
    again.show();
    QVERIFY(QTest::qWaitForWindowExposed(&again));
    again.showMessage(QStringLiteral("test:q"), seq);
    auto* splitter = again.findChild<QSplitter*>(QStringLiteral("detailSplitter"));
    QTRY_VERIFY(splitter->isVisible());
    QCOMPARE(splitter->sizes().value(0), dragged);
    QCOMPARE(again.findChild<QSplitter*>(QStringLiteral("detailPropertiesSplitter"))->sizes(),
             tables);
}

QTEST_MAIN(TestUiDetail)
#include "tst_ui_detail.moc"
