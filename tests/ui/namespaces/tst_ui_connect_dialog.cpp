// The Connect dialog, driven by object name: the string masked until shown, read as typed (a
// problem inline without the string, Save off), the one line saying what opening will do for
// each kind of string and option, the administration-only string, the CA file, and what Save
// keeps. Run without a keychain (secret-service.sh without): the keychain has its own test.

#include "PrivateHome.h"

#include "namespaces/ConnectDialog.h"
#include "namespaces/ConnectionPlan.h"
#include "namespaces/SavedNamespaces.h"

#include <QCheckBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryFile>
#include <QtTest>

using namespace hourglass;
using namespace hourglass::ui;
using namespace namespaces_test;

namespace {

const QString kAzure = QStringLiteral("Endpoint=sb://contoso.servicebus.windows.net/;"
                                      "SharedAccessKeyName=RootManageSharedAccessKey;"
                                      "SharedAccessKey=c2VjcmV0LWtleS12YWx1ZQ==");
const QString kEmulator = QStringLiteral("Endpoint=sb://localhost;SharedAccessKeyName="
                                         "RootManageSharedAccessKey;SharedAccessKey=SAS_KEY_VALUE;"
                                         "UseDevelopmentEmulator=true;");

} // namespace

class TestConnectDialog : public QObject {
    Q_OBJECT
private slots:
    void init();
    void cleanup();
    void stringIsMaskedUntilShown();
    void refusesAStringWithoutShowingIt();
    void refusesAStringWithoutShowingIt_data();
    void plansEachKindOfString();
    void plansEachKindOfString_data();
    void webSocketsNeedTls();
    void caFileMustExist();
    void saveKeepsTheOptions();

private:
    template <typename T> T* child(const char* name) {
        auto* widget = m_dialog->findChild<T*>(QString::fromLatin1(name));
        if (!widget)
            qFatal("no child %s", name);
        return widget;
    }
    std::unique_ptr<QSettings> m_settings;
    std::unique_ptr<SavedNamespaces> m_store;
    std::unique_ptr<ConnectDialog> m_dialog;
};

void TestConnectDialog::init() {
    if (privateHome().isEmpty())
        QSKIP("run through secret-service.sh: the dialog must not reach the user's keychain");
    m_settings =
        privateSettings(QStringLiteral("dialog-") + QUuid::createUuid().toString(QUuid::Id128));
    m_store = std::make_unique<SavedNamespaces>(m_settings.get(), QStringLiteral("hourglass-test"));
    m_dialog = std::make_unique<ConnectDialog>(m_store.get());
    m_dialog->show();
}

void TestConnectDialog::cleanup() {
    m_dialog.reset();
    m_store.reset();
    m_settings.reset();
}

void TestConnectDialog::stringIsMaskedUntilShown() {
    auto* field = child<QLineEdit>("connectionString");
    auto* admin = child<QLineEdit>("adminConnectionString");
    QCOMPARE(field->echoMode(), QLineEdit::Password);
    QCOMPARE(admin->echoMode(), QLineEdit::Password);
    child<QCheckBox>("showSecret")->click();
    QCOMPARE(field->echoMode(), QLineEdit::Normal);
    QCOMPARE(admin->echoMode(), QLineEdit::Normal);
    child<QCheckBox>("showSecret")->click();
    QCOMPARE(field->echoMode(), QLineEdit::Password);
}

void TestConnectDialog::refusesAStringWithoutShowingIt_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("problem");
    QTest::newRow("no endpoint") << QStringLiteral(
                                        "SharedAccessKeyName=k;SharedAccessKey=TOPSECRET")
                                 << QStringLiteral("no Endpoint");
    QTest::newRow("key without name")
        << QStringLiteral("Endpoint=sb://a.example/;SharedAccessKey=TOPSECRET")
        << QStringLiteral("SharedAccessKey");
    QTest::newRow("http scheme")
        << QStringLiteral(
               "Endpoint=https://a.example/;SharedAccessKeyName=k;SharedAccessKey=TOPSECRET")
        << QStringLiteral("sb://");
    QTest::newRow("path in the endpoint")
        << QStringLiteral(
               "Endpoint=sb://a.example/orders;SharedAccessKeyName=k;SharedAccessKey=TOPSECRET")
        << QStringLiteral("EntityPath");
}

void TestConnectDialog::refusesAStringWithoutShowingIt() {
    QFETCH(QString, text);
    QFETCH(QString, problem);
    auto* error = child<QLabel>("connectionError");
    auto* save = child<QPushButton>("save");
    QVERIFY(!error->isVisible());
    QVERIFY(!save->isEnabled()); // nothing typed yet

    child<QLineEdit>("connectionString")->setText(text);
    QVERIFY(error->isVisible());
    QVERIFY2(error->text().contains(problem), qPrintable(error->text()));
    QVERIFY(error->text().startsWith(QStringLiteral("InvalidArgument: ")));
    QVERIFY(!error->text().contains(QStringLiteral("TOPSECRET")));
    QVERIFY(!error->toolTip().contains(QStringLiteral("TOPSECRET")));
    QVERIFY(!child<QLabel>("plan")->text().contains(QStringLiteral("TOPSECRET")));
    QVERIFY(!save->isEnabled());

    // Corrected, the problem goes and Save comes on.
    child<QLineEdit>("connectionString")->setText(kAzure);
    QVERIFY(!error->isVisible());
    QVERIFY(save->isEnabled());
}

void TestConnectDialog::plansEachKindOfString_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("admin");
    QTest::addColumn<QString>("plan");
    QTest::newRow("azure") << kAzure << QString()
                           << QStringLiteral(
                                  "AMQP over TLS to contoso.servicebus.windows.net:5671, "
                                  "administration over HTTPS on 443");
    QTest::newRow("emulator") << kEmulator << QString()
                              << QStringLiteral("Plain AMQP to localhost:5672, administration over "
                                                "HTTP on 5672");
    QTest::newRow("emulator with its administration string")
        << kEmulator
        << QStringLiteral(
               "Endpoint=sb://localhost:5300;SharedAccessKeyName=RootManageSharedAccessKey;"
               "SharedAccessKey=SAS_KEY_VALUE;UseDevelopmentEmulator=true;")
        << QStringLiteral("Plain AMQP to localhost:5672, administration over HTTP on 5300");
    QTest::newRow("administration on another host")
        << kEmulator
        << QStringLiteral("Endpoint=sb://admin.example:5300;SharedAccessKeyName=k;"
                          "SharedAccessKey=a2V5;UseDevelopmentEmulator=true")
        << QStringLiteral("Plain AMQP to localhost:5672, administration over HTTP on "
                          "admin.example:5300");
    QTest::newRow("another hourglass over TLS on one port")
        << QStringLiteral("Endpoint=sb://[::1]:5671/;SharedAccessKeyName=k;SharedAccessKey=a2V5")
        << QString()
        << QStringLiteral("AMQP over TLS to [::1]:5671, administration over HTTPS on 5671");
}

void TestConnectDialog::plansEachKindOfString() {
    QFETCH(QString, text);
    QFETCH(QString, admin);
    QFETCH(QString, plan);
    child<QLineEdit>("connectionString")->setText(text);
    child<QLineEdit>("adminConnectionString")->setText(admin);
    QCOMPARE(child<QLabel>("plan")->text(), plan);
    QVERIFY(child<QPushButton>("save")->isEnabled());
}

void TestConnectDialog::webSocketsNeedTls() {
    auto* webSockets = child<QCheckBox>("webSockets");
    child<QLineEdit>("connectionString")->setText(kAzure);
    QVERIFY(webSockets->isEnabled());
    webSockets->click();
    QCOMPARE(
        child<QLabel>("plan")->text(),
        QStringLiteral("AMQP over WebSockets to contoso.servicebus.windows.net:443 through the "
                       "system proxy, administration over HTTPS on 443"));
    // An emulator-style string has no TLS to carry them: the option goes off and says why.
    child<QLineEdit>("connectionString")->setText(kEmulator);
    QVERIFY(!webSockets->isEnabled());
    QVERIFY(!webSockets->isChecked());
    QVERIFY(!webSockets->toolTip().isEmpty());
    QVERIFY(child<QLabel>("plan")->text().startsWith(QStringLiteral("Plain AMQP")));
    // A bad administration string is refused like the main one.
    child<QLineEdit>("adminConnectionString")->setText(QStringLiteral("Endpoint=nonsense"));
    QVERIFY(child<QLabel>("adminConnectionError")->isVisible());
    QVERIFY(!child<QPushButton>("save")->isEnabled());
}

void TestConnectDialog::caFileMustExist() {
    child<QLineEdit>("connectionString")->setText(kAzure);
    auto* ca = child<QLineEdit>("caFile");
    ca->setText(QDir(privateHome()).filePath(QStringLiteral("missing.pem")));
    QVERIFY(child<QLabel>("caFileError")->isVisible());
    QVERIFY(!child<QPushButton>("save")->isEnabled());
    QTemporaryFile pem(QDir(privateHome()).filePath(QStringLiteral("XXXXXX.pem")));
    QVERIFY(pem.open());
    ca->setText(pem.fileName());
    QVERIFY(!child<QLabel>("caFileError")->isVisible());
    QVERIFY(child<QPushButton>("save")->isEnabled());
}

void TestConnectDialog::saveKeepsTheOptions() {
    child<QLineEdit>("connectionString")->setText(kAzure);
    QCOMPARE(child<QLineEdit>("name")->placeholderText(),
             QStringLiteral("contoso.servicebus.windows.net"));
    child<QLineEdit>("name")->setText(QStringLiteral("  Production  "));
    child<QCheckBox>("webSockets")->click();
    child<QCheckBox>("readOnly")->click();
    QSignalSpy finished(m_dialog.get(), &QDialog::finished);
    child<QPushButton>("save")->click();
    QVERIFY(finished.wait(20000));
    QCOMPARE(m_dialog->result(), int(QDialog::Accepted));

    const QList<SavedNamespace> listed = m_store->list();
    QCOMPARE(listed.size(), 1);
    QCOMPARE(listed.first().id, m_dialog->savedId());
    QCOMPARE(listed.first().name, QStringLiteral("Production"));
    QCOMPARE(listed.first().connection.host, QStringLiteral("contoso.servicebus.windows.net"));
    QCOMPARE(listed.first().connection.keyName, QStringLiteral("RootManageSharedAccessKey"));
    QVERIFY(listed.first().webSockets);
    QVERIFY(listed.first().readOnly);
    QVERIFY(!listed.first().admin.has_value());
    m_settings->sync();
    QVERIFY(!fileBytes(m_settings->fileName()).contains("c2VjcmV0LWtleS12YWx1ZQ"));
}

QTEST_MAIN(TestConnectDialog)
#include "tst_ui_connect_dialog.moc"
