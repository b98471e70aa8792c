// The send dialog over a real broker on a virtual clock: every system property and typed
// application properties reach the stored message; TTL (T1); scheduling on the engine's clock
// (L11, T2); a repeat count sends that many copies; duplicates (L13); the engine's errors with
// code, description, tracking id and retryability (L1); input refused before any call.

#include "SendTestEnv.h"
#include "common/PropertyTableEditor.h"
#include "common/Theme.h"
#include "messages/MessageDetailPanel.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QDateTime>
#include <QFile>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableWidget>
#include <QTest>
#include <QToolButton>
#include <QUuid>

#include <tuple>

using namespace hourglass;
using namespace hourglass::testing;
using namespace hourglass::ui;

class TestUiSend : public QObject {
    Q_OBJECT
private slots:
    void everyPropertyReachesTheStoredMessage();
    void int32PropertyArrivesAndShowsAsInt32();
    void statusStripFollowsTheDarkTheme();
    void t1_timeToLiveIsStored();
    void t1_timeToLiveTakesWhatPeopleType();
    void l11_scheduledOnTheEngineClock();
    void repeatSendsThatManyCopies();
    void repeatGoesInChunks();
    void l13_duplicateIsAcceptedAndDropped();
    void l1_oversizeShowsTheEngineError();
    void l1_disabledAndUnknownEntities();
    void badInputIsRefusedBeforeAnyCall();
    void bodyFromFileKeepsItsBytes();
    void propertyRowsReadWholeAtTheDefaultSize();
};

void TestUiSend::everyPropertyReachesTheStoredMessage() {
    SendEnv env;
    auto dialog = env.dialog();
    QCOMPARE(dialog->windowTitle(), QStringLiteral("Send to test:q"));
    dialog->show();
    child<QPlainTextEdit>(dialog.get(), "sendBody")->setPlainText(QStringLiteral("{\"order\":7}"));
    child<QComboBox>(dialog.get(), "sendContentType")
        ->setEditText(QStringLiteral("application/json"));
    setLine(dialog.get(), "sendMessageId", QStringLiteral("msg-1"));
    setLine(dialog.get(), "sendCorrelationId", QStringLiteral("corr-1"));
    setLine(dialog.get(), "sendSessionId", QStringLiteral("session-1"));
    setLine(dialog.get(), "sendReplyTo", QStringLiteral("replies"));
    setLine(dialog.get(), "sendReplyToSessionId", QStringLiteral("reply-session"));
    setLine(dialog.get(), "sendTo", QStringLiteral("someone"));
    setLine(dialog.get(), "sendSubject", QStringLiteral("an order"));
    auto* properties = child<PropertyTableEditor>(dialog.get(), "sendProperties");
    using T = PropertyType;
    const QUuid uuid = QUuid::createUuid();
    properties->addRow(QStringLiteral("name"), T::String, QStringLiteral("widget"));
    properties->addRow(QStringLiteral("count"), T::Int32, QStringLiteral("42"));
    properties->addRow(QStringLiteral("big"), T::Int64, QStringLiteral("9007199254740993"));
    properties->addRow(QStringLiteral("ratio"), T::Double, QStringLiteral("2.5"));
    properties->addRow(QStringLiteral("urgent"), T::Boolean, QStringLiteral("true"));
    properties->addRow(QStringLiteral("due"), T::DateTime, QStringLiteral("2026-02-03T04:05:06Z"));
    properties->addRow(QStringLiteral("ref"), T::Guid, uuid.toString(QUuid::WithoutBraces));

    clickSend(dialog.get());
    QTRY_COMPARE(resultText(dialog.get()), QStringLiteral("Accepted: sequence number 1"));
    QVERIFY(dialog->isVisible()); // sending does not close the dialog

    const auto stored = env.call([](Broker& b) { return b.message(kQueue, 1); });
    QVERIFY2(stored.ok(), qPrintable(stored.ok() ? QString() : stored.error().toString()));
    QCOMPARE(stored->body, QByteArray("{\"order\":7}"));
    QCOMPARE(stored->contentType, QStringLiteral("application/json"));
    QCOMPARE(stored->messageId, QStringLiteral("msg-1"));
    QCOMPARE(stored->correlationId, QStringLiteral("corr-1"));
    QCOMPARE(stored->sessionId, QStringLiteral("session-1"));
    QCOMPARE(stored->replyTo, QStringLiteral("replies"));
    QCOMPARE(stored->replyToSessionId, QStringLiteral("reply-session"));
    QCOMPARE(stored->to, QStringLiteral("someone"));
    QCOMPARE(stored->subject, QStringLiteral("an order"));
    QVERIFY(!stored->timeToLive.has_value()); // empty TTL: the entity default (T3)
    const QVariantMap& app = stored->applicationProperties;
    QCOMPARE(app.value(QStringLiteral("name")), QVariant(QStringLiteral("widget")));
    // Each property comes back with the type it was sent with: an Int32 stays an Int32.
    QCOMPARE(app.value(QStringLiteral("count")).typeId(), QMetaType::Int);
    QCOMPARE(app.value(QStringLiteral("count")).toInt(), 42);
    QCOMPARE(app.value(QStringLiteral("big")).typeId(), QMetaType::LongLong);
    QCOMPARE(app.value(QStringLiteral("big")).toLongLong(), 9007199254740993LL);
    QCOMPARE(app.value(QStringLiteral("ratio")).typeId(), QMetaType::Double);
    QCOMPARE(app.value(QStringLiteral("ratio")).toDouble(), 2.5);
    QCOMPARE(app.value(QStringLiteral("urgent")).typeId(), QMetaType::Bool);
    QCOMPARE(app.value(QStringLiteral("urgent")).toBool(), true);
    QCOMPARE(app.value(QStringLiteral("due")).toDateTime(),
             QDateTime(QDate(2026, 2, 3), QTime(4, 5, 6), Qt::UTC));
    QCOMPARE(app.value(QStringLiteral("due")).typeId(), QMetaType::QDateTime);
    QCOMPARE(app.value(QStringLiteral("ref")).typeId(), QMetaType::QUuid);
    QCOMPARE(app.value(QStringLiteral("ref")).toUuid(), uuid);

    // The dialog stays usable: the same message again gets the next sequence number.
    clickSend(dialog.get());
    QTRY_COMPARE(resultText(dialog.get()), QStringLiteral("Accepted: sequence number 2"));
}

void TestUiSend::t1_timeToLiveIsStored() {
    SendEnv env;
    auto dialog = env.dialog();
    auto* ttl = child<QLineEdit>(dialog.get(), "sendTimeToLive");
    auto* readable = child<QLabel>(dialog.get(), "sendTimeToLiveText");
    QCOMPARE(readable->text(), QStringLiteral("entity default"));
    ttl->setText(QStringLiteral("PT10M"));
    QCOMPARE(readable->text(), QStringLiteral("= 10m 00s"));
    // Ctrl+Return sends as the button does.
    QCOMPARE(dialog->sendAction()->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_Return));
    dialog->sendAction()->trigger();
    QTRY_COMPARE(resultText(dialog.get()), QStringLiteral("Accepted: sequence number 1"));
    const auto stored = env.call([](Broker& b) { return b.message(kQueue, 1); });
    QVERIFY(stored.ok());
    QCOMPARE(stored->timeToLive, std::optional<Millis>(minutes(10)));
    QCOMPARE(stored->expiresAt, testing::kTestStart + minutes(10)); // T1
}

// "1h30m" is a time to live too; the form shows the ISO-8601 form it understood.
void TestUiSend::t1_timeToLiveTakesWhatPeopleType() {
    SendEnv env;
    auto dialog = env.dialog();
    auto* ttl = child<QLineEdit>(dialog.get(), "sendTimeToLive");
    QTest::keyClicks(ttl, QStringLiteral("1h30m"));
    QCOMPARE(child<QLabel>(dialog.get(), "sendTimeToLiveText")->text(),
             QStringLiteral("= PT1H30M"));
    clickSend(dialog.get());
    QTRY_COMPARE(resultText(dialog.get()), QStringLiteral("Accepted: sequence number 1"));
    const auto stored = env.call([](Broker& b) { return b.message(kQueue, 1); });
    QVERIFY(stored.ok());
    QCOMPARE(stored->timeToLive, std::optional<Millis>(minutes(90)));
}

void TestUiSend::l11_scheduledOnTheEngineClock() {
    SendEnv env;
    // The virtual clock is far from the wall clock: the schedule must follow the engine's.
    env.clock->advance(hours(5));
    const Instant now = env.clock->now();
    auto dialog = env.dialog();
    child<QCheckBox>(dialog.get(), "sendScheduled")->setChecked(true);
    child<QSpinBox>(dialog.get(), "sendScheduleIn")->setValue(2);
    QCOMPARE(child<QComboBox>(dialog.get(), "sendScheduleUnit")->currentText(),
             QStringLiteral("minutes"));
    clickSend(dialog.get());
    QTRY_COMPARE(resultText(dialog.get()),
                 QStringLiteral("Scheduled for 05:02:00 UTC as sequence number 1"));
    const auto stored = env.call([](Broker& b) { return b.message(kQueue, 1); });
    QVERIFY(stored.ok());
    QCOMPARE(stored->state, MessageState::Scheduled);
    QCOMPARE(stored->scheduledEnqueueTime, now + minutes(2));
    // Two minutes later on the virtual clock it becomes active (with a new number, L11).
    QVERIFY(env.call([](Broker& b) { return b.advanceClock(minutes(2)); }).ok());
    const auto counts = env.call([](Broker& b) { return b.counts(kQueue); });
    QVERIFY(counts.ok());
    QCOMPARE(counts->scheduled, 0);
    QCOMPARE(counts->active, 1);
}

void TestUiSend::repeatSendsThatManyCopies() {
    SendEnv env;
    auto dialog = env.dialog();
    child<QPlainTextEdit>(dialog.get(), "sendBody")->setPlainText(QStringLiteral("copy"));
    child<PropertyTableEditor>(dialog.get(), "sendProperties")
        ->addRow(QStringLiteral("batch"), PropertyType::Int32, QStringLiteral("9"));
    child<QSpinBox>(dialog.get(), "sendRepeat")->setValue(25);
    clickSend(dialog.get());
    QTRY_COMPARE(resultText(dialog.get()),
                 QStringLiteral("Accepted 25 messages (sequence numbers 1-25)"));
    const QList<MessageView> stored = env.messages();
    QCOMPARE(stored.size(), 25);
    QSet<QString> ids;
    for (const MessageView& m : stored) {
        QCOMPARE(m.body, QByteArray("copy"));
        QCOMPARE(m.applicationProperties.value(QStringLiteral("batch")).toInt(), 9);
        ids.insert(m.messageId);
    }
    QCOMPARE(ids.size(), 25); // an empty message id: a fresh one per copy
}

void TestUiSend::repeatGoesInChunks() {
    SendEnv env;
    auto dialog = env.dialog();
    QSignalSpy sent(dialog.get(), &SendDialog::sent);
    const int total = 2 * SendDialog::kChunk + 1;
    child<QSpinBox>(dialog.get(), "sendRepeat")->setValue(total);
    clickSend(dialog.get());
    QVERIFY(dialog->isSending());
    QVERIFY(!child<QPushButton>(dialog.get(), "sendButton")->isEnabled());
    QTRY_COMPARE(sent.count(), 1);
    QCOMPARE(sent.at(0).at(1).toInt(), total);
    QCOMPARE(resultText(dialog.get()),
             QStringLiteral("Accepted 1001 messages (sequence numbers 1-1001)"));
    QVERIFY(child<QPushButton>(dialog.get(), "sendButton")->isEnabled());
    QCOMPARE(env.messages().size(), total);
}

void TestUiSend::l13_duplicateIsAcceptedAndDropped() {
    SendEnv env;
    auto dialog = env.dialog(QStringLiteral("test:dedup"));
    setLine(dialog.get(), "sendMessageId", QStringLiteral("same"));
    clickSend(dialog.get());
    QTRY_COMPARE(resultText(dialog.get()), QStringLiteral("Accepted: sequence number 1"));
    clickSend(dialog.get());
    QTRY_COMPARE(resultText(dialog.get()), QStringLiteral("Accepted as a duplicate and dropped"));
    child<QSpinBox>(dialog.get(), "sendRepeat")->setValue(3);
    setLine(dialog.get(), "sendMessageId", QStringLiteral("other"));
    clickSend(dialog.get());
    QTRY_COMPARE(resultText(dialog.get()),
                 QStringLiteral("Accepted 1 message (sequence number 2); 2 duplicates dropped"));
    QCOMPARE(env.messages(QStringLiteral("test:dedup")).size(), 2);
}

void TestUiSend::l1_oversizeShowsTheEngineError() {
    SendEnv env;
    auto dialog = env.dialog(QStringLiteral("test:small"));
    child<QPlainTextEdit>(dialog.get(), "sendBody")->setPlainText(QString(2000, QLatin1Char('x')));
    clickSend(dialog.get());
    auto* code = child<QLabel>(dialog.get(), "sendResultCode");
    QTRY_COMPARE(code->text(), QStringLiteral("MessageSizeExceeded"));
    QVERIFY(code->isVisibleTo(dialog.get()));
    QVERIFY2(child<QLabel>(dialog.get(), "sendResultDescription")
                 ->text()
                 .contains(QStringLiteral("MaxMessageSizeInKilobytes=1")),
             qPrintable(resultText(dialog.get())));
    auto* tracking = child<QLabel>(dialog.get(), "sendResultTrackingId");
    QVERIFY(tracking->text().startsWith(QStringLiteral("Tracking id: ")));
    QVERIFY(tracking->text().size() > QStringLiteral("Tracking id: ").size() + 8);
    QVERIFY(tracking->textInteractionFlags() & Qt::TextSelectableByMouse);
    QCOMPARE(child<QLabel>(dialog.get(), "sendResultRetry")->text(),
             QStringLiteral("Retrying will not help"));
    QCOMPARE(env.messages(QStringLiteral("test:small")).size(), 0);
}

void TestUiSend::l1_disabledAndUnknownEntities() {
    SendEnv env;
    auto disabled = env.dialog(QStringLiteral("test:off"));
    clickSend(disabled.get());
    QTRY_COMPARE(child<QLabel>(disabled.get(), "sendResultCode")->text(),
                 QStringLiteral("MessagingEntityDisabled"));
    QCOMPARE(child<QLabel>(disabled.get(), "sendResultRetry")->text(),
             QStringLiteral("Retrying will not help"));

    auto unknown = env.dialog(QStringLiteral("test:nowhere"));
    child<QSpinBox>(unknown.get(), "sendRepeat")->setValue(3);
    clickSend(unknown.get());
    QTRY_COMPARE(child<QLabel>(unknown.get(), "sendResultCode")->text(),
                 QStringLiteral("MessagingEntityNotFound"));
    QVERIFY(resultText(unknown.get()).startsWith(QStringLiteral("Sent 0 of 3 before")));
    QVERIFY(child<QPushButton>(unknown.get(), "sendButton")->isEnabled());
}

void TestUiSend::badInputIsRefusedBeforeAnyCall() {
    SendEnv env;
    auto dialog = env.dialog();
    QSignalSpy sent(dialog.get(), &SendDialog::sent);
    setLine(dialog.get(), "sendTimeToLive", QStringLiteral("ten minutes"));
    QCOMPARE(child<QLabel>(dialog.get(), "sendTimeToLiveText")->text(),
             QStringLiteral("not a duration"));
    clickSend(dialog.get());
    // Refused at once, without a broker call.
    QVERIFY(!dialog->isSending());
    QVERIFY2(resultText(dialog.get())
                 .startsWith(QStringLiteral("Not sent: the time to live 'ten "
                                            "minutes'")),
             qPrintable(resultText(dialog.get())));
    setLine(dialog.get(), "sendTimeToLive", QStringLiteral("PT0S"));
    clickSend(dialog.get());
    QVERIFY(resultText(dialog.get()).contains(QStringLiteral("longer than zero")));

    setLine(dialog.get(), "sendTimeToLive", QString());
    child<PropertyTableEditor>(dialog.get(), "sendProperties")
        ->addRow(QStringLiteral("count"), PropertyType::Int32, QStringLiteral("many"));
    clickSend(dialog.get());
    QVERIFY(!dialog->isSending());
    QVERIFY2(resultText(dialog.get()).startsWith(QStringLiteral("Not sent: ")),
             qPrintable(resultText(dialog.get())));
    QVERIFY(resultText(dialog.get()).contains(QStringLiteral("count")));
    env.client->waitForIdle();
    QCoreApplication::processEvents();
    QCOMPARE(sent.count(), 0);
    QCOMPARE(env.messages().size(), 0);
}

void TestUiSend::bodyFromFileKeepsItsBytes() {
    SendEnv env;
    const QByteArray bytes("\x00\x01\xff\xfe\r\nend", 8);
    QFile file(env.dir.filePath(QStringLiteral("body.bin")));
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(bytes);
    file.close();
    auto dialog = env.dialog();
    QVERIFY(dialog->loadBodyFromFile(file.fileName()));
    QVERIFY(child<QPlainTextEdit>(dialog.get(), "sendBody")->isReadOnly());
    QCOMPARE(child<QLabel>(dialog.get(), "sendBodySource")->text(),
             QStringLiteral("From body.bin, 8 bytes"));
    clickSend(dialog.get());
    QTRY_COMPARE(resultText(dialog.get()), QStringLiteral("Accepted: sequence number 1"));
    const auto stored = env.call([](Broker& b) { return b.message(kQueue, 1); });
    QVERIFY(stored.ok());
    QCOMPARE(stored->body, bytes);
    QVERIFY(!dialog->loadBodyFromFile(env.dir.filePath(QStringLiteral("missing.bin"))));
    QVERIFY(resultText(dialog.get()).startsWith(QStringLiteral("Not sent: ")));
}

// A property typed Int32 in the dialog is stored as an Int32 (it came back an Int64)
// and the detail panel names its type as Service Bus does.
void TestUiSend::int32PropertyArrivesAndShowsAsInt32() {
    SendEnv env;
    auto dialog = env.dialog();
    dialog->show();
    QVERIFY(QTest::qWaitForWindowExposed(dialog.get()));
    QTest::mouseClick(child<QToolButton>(dialog.get(), "addProperty"), Qt::LeftButton);
    auto* table = child<QTableWidget>(dialog.get(), "propertyTable");
    QCOMPARE(table->rowCount(), 1);
    table->item(0, 0)->setText(QStringLiteral("attempt"));
    auto* type = child<QComboBox>(dialog.get(), "propertyType0");
    type->setCurrentIndex(type->findText(QStringLiteral("Int32")));
    QCOMPARE(type->currentText(), QStringLiteral("Int32"));
    table->item(0, 2)->setText(QStringLiteral("250"));
    clickSend(dialog.get());
    QTRY_COMPARE(resultText(dialog.get()), QStringLiteral("Accepted: sequence number 1"));

    const auto stored = env.call([](Broker& b) { return b.message(kQueue, 1); });
    QVERIFY(stored.ok());
    const QVariant attempt = stored->applicationProperties.value(QStringLiteral("attempt"));
    QCOMPARE(attempt.typeId(), QMetaType::Int);
    QCOMPARE(attempt.toInt(), 250);

    MessageDetailPanel panel(*env.client);
    auto* application = child<QTableWidget>(&panel, "applicationProperties");
    panel.showMessage(kQueue, 1);
    QTRY_COMPARE(application->rowCount(), 1);
    QCOMPARE(application->item(0, 0)->text(), QStringLiteral("attempt"));
    QCOMPARE(application->item(0, 1)->text(), QStringLiteral("250"));
    QCOMPARE(application->item(0, 2)->text(), QStringLiteral("Int32"));
}

// The result strip under the form was light grey, green or pink in the dark theme
// too; it takes the dark theme's tones (a dark background, the theme's light text).
void TestUiSend::statusStripFollowsTheDarkTheme() {
    applyTheme(ThemeChoice::Dark);
    auto restore = qScopeGuard([] { applyTheme(ThemeChoice::System); });
    SendEnv env;
    auto dialog = env.dialog();
    dialog->show();
    QVERIFY(QTest::qWaitForWindowExposed(dialog.get()));
    auto* strip = child<SettlementView>(dialog.get(), "sendResult");
    auto* summary = child<QLabel>(dialog.get(), "sendResultSummary");
    // The strip as drawn: a pixel of its margin, beside the summary's text colour.
    auto background = [strip] { return QColor(strip->grab().toImage().pixel(3, 3)); };
    auto verifyDark = [&](const char* when) {
        const QColor fill = background();
        const QColor text = summary->palette().color(QPalette::WindowText);
        QVERIFY2(fill.lightness() < 110,
                 qPrintable(QStringLiteral("%1: background %2").arg(when, fill.name())));
        QVERIFY2(
            text.lightness() > fill.lightness() + 100,
            qPrintable(QStringLiteral("%1: text %2 on %3").arg(when, text.name(), fill.name())));
    };
    verifyDark("not sent yet");
    clickSend(dialog.get());
    QTRY_COMPARE(resultText(dialog.get()), QStringLiteral("Accepted: sequence number 1"));
    verifyDark("accepted");
    setLine(dialog.get(), "sendTimeToLive", QStringLiteral("not a duration"));
    clickSend(dialog.get());
    QTRY_VERIFY(resultText(dialog.get()) != QStringLiteral("Accepted: sequence number 1"));
    verifyDark("refused");
    // Switching back to the light theme with the dialog open paints the strip light.
    applyTheme(ThemeChoice::Light);
    QTRY_VERIFY(background().lightness() > 180);
}

// At the dialog's default size each property row shows its name, its type and its value whole:
// no column cut, the type chooser as tall as its row, nothing scrolled out of sight sideways.
void TestUiSend::propertyRowsReadWholeAtTheDefaultSize() {
    SendEnv env;
    auto dialog = env.dialog();
    auto* properties = child<PropertyTableEditor>(dialog.get(), "sendProperties");
    const QList<std::tuple<QString, PropertyType, QString>> rows = {
        {QStringLiteral("customerReference"), PropertyType::String,
         QStringLiteral("C-2026-000481-EU")},
        {QStringLiteral("quantity"), PropertyType::Int32, QStringLiteral("12")},
        {QStringLiteral("requestedDelivery"), PropertyType::DateTime,
         QStringLiteral("2026-11-30T09:00:00Z")},
    };
    for (const auto& [name, type, value] : rows)
        properties->addRow(name, type, value);
    dialog->show();
    QVERIFY(QTest::qWaitForWindowExposed(dialog.get()));
    auto* table = child<QTableWidget>(dialog.get(), "propertyTable");
    QTest::qWait(0); // the layout's posted requests
    const QFontMetrics metrics(table->font());
    const int margins = 8; // a cell's text margins, both sides
    QTRY_VERIFY2(table->horizontalHeader()->length() <= table->viewport()->width(),
                 qPrintable(QStringLiteral("columns %1 px in a viewport of %2 px")
                                .arg(table->horizontalHeader()->length())
                                .arg(table->viewport()->width())));
    for (int row = 0; row < rows.size(); ++row) {
        const auto& [name, type, value] = rows[row];
        QVERIFY2(table->columnWidth(0) >= metrics.horizontalAdvance(name) + margins,
                 qPrintable(QStringLiteral("name column %1 px, '%2' needs %3 px")
                                .arg(table->columnWidth(0))
                                .arg(name)
                                .arg(metrics.horizontalAdvance(name) + margins)));
        QVERIFY2(table->columnWidth(2) >= metrics.horizontalAdvance(value) + margins,
                 qPrintable(QStringLiteral("value column %1 px, '%2' needs %3 px")
                                .arg(table->columnWidth(2))
                                .arg(value)
                                .arg(metrics.horizontalAdvance(value) + margins)));
        auto* chooser =
            child<QComboBox>(dialog.get(), qPrintable(QStringLiteral("propertyType%1").arg(row)));
        QCOMPARE(PropertyType(chooser->currentData().toInt()), type);
        QVERIFY(chooser->width() >= chooser->sizeHint().width());
        QVERIFY2(table->rowHeight(row) >= chooser->sizeHint().height(),
                 qPrintable(QStringLiteral("row %1 px, chooser %2 px")
                                .arg(table->rowHeight(row))
                                .arg(chooser->sizeHint().height())));
        // The whole row is in sight, not scrolled past.
        QVERIFY(table->visualRect(table->model()->index(row, 2)).bottom() <
                table->viewport()->height());
        QCOMPARE(table->item(row, 0)->toolTip(), name); // said whole if ever elided
    }
}

QTEST_MAIN(TestUiSend)
#include "tst_ui_send.moc"
