// Message templates of the send dialog: saved (through the name prompt), loaded and deleted
// (after a confirmation), typed application properties and a binary body kept exactly, and a
// corrupt templates file reported inline and kept aside.

#include "SendTestEnv.h"
#include "common/PropertyTableEditor.h"
#include "send/MessageTemplates.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDateTime>
#include <QFile>
#include <QInputDialog>
#include <QJsonArray>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTest>

#include <QUuid>
#include <limits>

using namespace hourglass;
using namespace hourglass::testing;
using namespace hourglass::ui;

class TestUiSendTemplates : public QObject {
    Q_OBJECT
private slots:
    void templatesRoundTrip();
    void templateKeepsTypesAndBinaryBody();
    void corruptTemplatesFileIsReported();
};

void TestUiSendTemplates::templatesRoundTrip() {
    SendEnv env;
    {
        auto dialog = env.dialog();
        child<QPlainTextEdit>(dialog.get(), "sendBody")->setPlainText(QStringLiteral("hello"));
        child<QComboBox>(dialog.get(), "sendContentType")
            ->setEditText(QStringLiteral("text/plain"));
        setLine(dialog.get(), "sendSubject", QStringLiteral("greeting"));
        setLine(dialog.get(), "sendTo", QStringLiteral("world"));
        setLine(dialog.get(), "sendTimeToLive", QStringLiteral("PT30S"));
        child<QCheckBox>(dialog.get(), "sendScheduled")->setChecked(true);
        child<QSpinBox>(dialog.get(), "sendScheduleIn")->setValue(3);
        child<QSpinBox>(dialog.get(), "sendRepeat")->setValue(4);
        child<PropertyTableEditor>(dialog.get(), "sendProperties")
            ->addRow(QStringLiteral("n"), PropertyType::Int64, QStringLiteral("12"));
        QTest::mouseClick(child<QPushButton>(dialog.get(), "saveTemplate"), Qt::LeftButton);
        auto* prompt = dialog->findChild<QInputDialog*>(QStringLiteral("templateNameDialog"));
        QVERIFY(prompt);
        prompt->setTextValue(QStringLiteral("greeting"));
        prompt->accept();
        QCOMPARE(child<QComboBox>(dialog.get(), "sendTemplate")->currentText(),
                 QStringLiteral("greeting"));
    }
    auto dialog = env.dialog();
    auto* combo = child<QComboBox>(dialog.get(), "sendTemplate");
    QCOMPARE(combo->count(), 1);
    QCOMPARE(combo->currentText(), QStringLiteral("greeting"));
    QVERIFY(dialog->loadTemplate(QStringLiteral("greeting")));
    QCOMPARE(child<QPlainTextEdit>(dialog.get(), "sendBody")->toPlainText(),
             QStringLiteral("hello"));
    QCOMPARE(child<QComboBox>(dialog.get(), "sendContentType")->currentText(),
             QStringLiteral("text/plain"));
    QCOMPARE(child<QLineEdit>(dialog.get(), "sendSubject")->text(), QStringLiteral("greeting"));
    QCOMPARE(child<QLineEdit>(dialog.get(), "sendTo")->text(), QStringLiteral("world"));
    QCOMPARE(child<QLineEdit>(dialog.get(), "sendTimeToLive")->text(), QStringLiteral("PT30S"));
    QVERIFY(child<QCheckBox>(dialog.get(), "sendScheduled")->isChecked());
    QCOMPARE(child<QSpinBox>(dialog.get(), "sendScheduleIn")->value(), 3);
    QCOMPARE(child<QComboBox>(dialog.get(), "sendScheduleUnit")->currentText(),
             QStringLiteral("minutes"));
    QCOMPARE(child<QSpinBox>(dialog.get(), "sendRepeat")->value(), 4);
    const auto properties =
        child<PropertyTableEditor>(dialog.get(), "sendProperties")->properties();
    QVERIFY(properties.ok());
    QCOMPARE(properties->value(QStringLiteral("n")).typeId(), QMetaType::LongLong);

    // Delete asks first; accepting removes it from the combo and the file.
    QTest::mouseClick(child<QPushButton>(dialog.get(), "deleteTemplate"), Qt::LeftButton);
    auto* confirm = dialog->findChild<QMessageBox*>(QStringLiteral("confirmDeleteTemplate"));
    QVERIFY(confirm);
    QVERIFY(confirm->text().contains(QStringLiteral("greeting")));
    confirm->accept();
    QCOMPARE(combo->count(), 0);
    QVERIFY(!child<QPushButton>(dialog.get(), "deleteTemplate")->isEnabled());
    QVERIFY(MessageTemplates(env.templatesPath()).names().isEmpty());
}

void TestUiSendTemplates::templateKeepsTypesAndBinaryBody() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("sub/templates.json"));
    MessageTemplate t;
    t.name = QStringLiteral("binary");
    OutgoingMessage& m = t.message;
    m.body = QByteArray("\xff\x00\x10", 3);
    m.messageId = QStringLiteral("id");
    m.correlationId = QStringLiteral("c");
    m.sessionId = QStringLiteral("s");
    m.replyTo = QStringLiteral("r");
    m.replyToSessionId = QStringLiteral("rs");
    m.timeToLive = days(2);
    t.scheduleOffset = seconds(90);
    t.repeat = 7;
    m.applicationProperties = {
        {QStringLiteral("long"), QVariant(qlonglong(9007199254740993LL))},
        {QStringLiteral("int"), QVariant(3)},
        {QStringLiteral("double"), QVariant(0.1)},
        {QStringLiteral("flag"), QVariant(false)},
        {QStringLiteral("when"),
         QVariant(QDateTime(QDate(2026, 1, 2), QTime(3, 4, 5, 6), Qt::UTC))},
        {QStringLiteral("id"), QVariant(QUuid::createUuid())},
        // Written as "Infinity" and "-Infinity": they must read back, or the whole file fails.
        {QStringLiteral("huge"), QVariant(std::numeric_limits<double>::infinity())},
        {QStringLiteral("tiny"), QVariant(-std::numeric_limits<double>::infinity())},
    };
    {
        MessageTemplates store(path);
        QVERIFY(store.save(t).ok());
    }
    MessageTemplates reread(path);
    QVERIFY2(reread.loadError().isEmpty(), qPrintable(reread.loadError()));
    const auto back = reread.find(QStringLiteral("binary"));
    QVERIFY(back.has_value());
    QCOMPARE(back->message.body, m.body);
    QCOMPARE(back->message.timeToLive, m.timeToLive);
    QCOMPARE(back->scheduleOffset, t.scheduleOffset);
    QCOMPARE(back->message.applicationProperties, m.applicationProperties);
    QCOMPARE(back->message.applicationProperties.value(QStringLiteral("int")).typeId(),
             QMetaType::Int);
    QVERIFY(*back == t); // and every other member
    QVERIFY(!reread.remove(QStringLiteral("absent")).ok());
    QVERIFY(reread.remove(QStringLiteral("binary")).ok());
    QVERIFY(MessageTemplates(path).names().isEmpty());
}

void TestUiSendTemplates::corruptTemplatesFileIsReported() {
    SendEnv env;
    QFile file(env.templatesPath());
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("{\"templates\": [ {\"name\": ");
    file.close();
    auto dialog = env.dialog();
    auto* error = child<QLabel>(dialog.get(), "templateError");
    QVERIFY(error->isVisibleTo(dialog.get()));
    QVERIFY2(error->text().contains(QStringLiteral("not valid JSON")), qPrintable(error->text()));
    QCOMPARE(child<QComboBox>(dialog.get(), "sendTemplate")->count(), 0);
    // A template with a property that does not parse is refused whole, not half loaded.
    QVERIFY(
        !MessageTemplate::fromJson(
             QJsonObject{{QStringLiteral("name"), QStringLiteral("x")},
                         {QStringLiteral("applicationProperties"),
                          QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("n")},
                                                 {QStringLiteral("type"), QStringLiteral("int")},
                                                 {QStringLiteral("value"), QStringLiteral("x")}}}}})
             .ok());
    // Saving keeps the unreadable file aside and starts a good one.
    QVERIFY(dialog->saveTemplate(QStringLiteral("fresh")));
    QVERIFY(!error->isVisibleTo(dialog.get()));
    QVERIFY(QFile::exists(env.dir.filePath(QStringLiteral("templates.corrupt.json"))));
    QCOMPARE(MessageTemplates(env.templatesPath()).names(), QStringList{QStringLiteral("fresh")});
}

QTEST_MAIN(TestUiSendTemplates)
#include "tst_ui_send_templates.moc"
