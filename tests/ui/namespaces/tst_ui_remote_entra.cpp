// The window signing in with Microsoft Entra ID: File > Connect to namespace… with a string
// without a key, "Sign in with Microsoft Entra ID" and the app registration's ids, against a
// served namespace trusting a stand-in identity provider (tests/remote/StandInIdentityProvider.h).
// The browser flow goes through QDesktopServices::openUrl, which the test hands to its browser
// (QDesktopServices::setUrlHandler); the device code is shown in a small dialog with Cancel.
// A sign-in serves the session: connecting again after Disconnect asks nothing; a declined one is
// said in the namespace's header.

#include "PrivateHome.h"
#include "RemoteWindowSteps.h"
#include "ServedNamespace.h"
#include "StandInIdentityProvider.h"
#include "TestJwtIssuer.h"

#include "namespaces/SavedNamespaces.h"

#include <QDesktopServices>
#include <QSignalSpy>
#include <QTemporaryDir>

using namespace hourglass;
using namespace hourglass::ui;
using namespace hourglass::testing;
using namespace namespaces_test;

namespace {

// The system browser, as QDesktopServices::openUrl reaches it for http addresses.
class BrowserHandler : public QObject {
    Q_OBJECT
public:
    TestBrowser browser;
public slots:
    void open(const QUrl& url) { browser.opener()(url); }
};

struct EntraFields {
    QString clientId = StandInIdentityProvider::kClientId;
    bool deviceCode = false;
};

} // namespace

class TestRemoteEntra : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        if (privateHome().isEmpty())
            QSKIP("run through secret-service.sh: this test needs a home of its own");
        QCoreApplication::setOrganizationName(QStringLiteral("hourglass-tests"));
        m_issuer = std::make_unique<TestJwtIssuer>();
        m_served = std::make_unique<ServedNamespace>(ServedNamespace::Transport::Plain);
        m_served->testBroker().clock().resetToRealTime();
        auto validator =
            tls::JwtValidator::fromPem(TestJwtIssuer::kIssuer, m_issuer->publicKeyPem());
        QVERIFY(validator.ok());
        m_served->trustIssuer(
            std::make_shared<const tls::JwtValidator>(std::move(validator.value())));
        QVERIFY(m_served->broker().createQueue(QStringLiteral("orders"), {}).ok());
        QDesktopServices::setUrlHandler(QStringLiteral("http"), &m_handler, "open");
    }
    void cleanupTestCase() { QDesktopServices::unsetUrlHandler(QStringLiteral("http")); }
    void init() {
        m_provider = std::make_unique<StandInIdentityProvider>(*m_issuer);
        m_window = std::make_unique<MainWindow>();
        QSignalSpy opened(m_window.get(), &MainWindow::databaseOpened);
        m_window->openDatabase(m_dir.filePath(QStringLiteral("local-%1.db").arg(++m_count)));
        m_window->show();
        QVERIFY(opened.wait(20000));
    }
    void cleanup() {
        m_window.reset();
        m_provider.reset();
    }

    void theChoiceIsOfferedOnlyForAStringWithoutAKey() {
        QDialog* dialog = openConnect();
        QVERIFY(dialog);
        auto* signIn = dialog->findChild<QCheckBox*>(QStringLiteral("entraSignIn"));
        auto* save = dialog->findChild<QAbstractButton*>(QStringLiteral("save"));
        dialog->findChild<QLineEdit*>(QStringLiteral("connectionString"))
            ->setText(m_served->connectionText());
        QVERIFY(!signIn->isVisible());
        dialog->findChild<QLineEdit*>(QStringLiteral("connectionString"))
            ->setText(m_served->connectionText(false));
        QVERIFY(signIn->isVisible());
        auto* clientId = dialog->findChild<QLineEdit*>(QStringLiteral("entraClientId"));
        QVERIFY(!clientId->isEnabled());
        QVERIFY(save->isEnabled());
        signIn->setChecked(true);
        QVERIFY(clientId->isEnabled());
        QVERIFY(!save->isEnabled()); // the app registration's id is needed
        clientId->setText(StandInIdentityProvider::kClientId);
        QVERIFY(save->isEnabled());
        dialog->reject();
    }

    void theBrowserSignInOpensTheNamespace() {
        RemoteNamespaceView* view = connectWithEntra(QStringLiteral("Entra (browser)"), {});
        QVERIFY(view);
        QTRY_VERIFY_WITH_TIMEOUT(
            findPath(view->tree()->view()->model(), QStringLiteral("localhost:orders")).isValid(),
            15000);
        QCOMPARE(m_provider->authorizeRequests.size(), 1);
        QTRY_COMPARE(m_handler.browser.loopbackStatus, 200);
        QTRY_VERIFY(!openDialog(QStringLiteral("entraSignInDialog")));

        // The choice was saved with the namespace, the tokens nowhere.
        const auto saved = m_window->remotes()->saved()->find(view->saved().id);
        QVERIFY(saved);
        QVERIFY(saved->entra.signIn);
        QCOMPARE(saved->entra.clientId, StandInIdentityProvider::kClientId);
        QCOMPARE(filesHolding(privateHome(), m_provider->issuedTokens.last().right(40)),
                 QStringList());

        // Disconnect, connect: the session's sign-in serves again, nothing asked.
        auto* connectButton = view->findChild<QToolButton*>(QStringLiteral("namespaceConnect"));
        connectButton->click();
        QVERIFY(!view->isConnected());
        connectButton->click();
        QTRY_VERIFY_WITH_TIMEOUT(view->isConnected(), 20000);
        QCOMPARE(m_provider->authorizeRequests.size(), 1);
    }

    void theDeviceCodeIsShownUntilTheUserSignsIn() {
        m_provider->pendingPolls = 1; // one poll of a second before the user has signed in
        EntraFields fields;
        fields.deviceCode = true;
        QDialog* shown = nullptr;
        QString code;
        RemoteNamespaceView* view =
            connectWithEntra(QStringLiteral("Entra (device code)"), fields, [&] {
                shown = openDialog(QStringLiteral("entraSignInDialog"));
                if (!shown)
                    return false;
                code = shown->findChild<QLabel*>(QStringLiteral("entraUserCode"))->text();
                return !code.isEmpty();
            });
        QVERIFY(view);
        QVERIFY(code.startsWith(QStringLiteral("HGLS-")));
        QVERIFY(m_provider->authorizeRequests.isEmpty());
        QVERIFY(m_provider->devicePollTimes.size() >= 2);
    }

    void cancellingTheDeviceCodeLeavesItDisconnected() {
        m_provider->pendingPolls = 1'000'000;
        EntraFields fields;
        fields.deviceCode = true;
        QVERIFY(saveWithEntra(QStringLiteral("Entra (cancelled)"), fields));
        QDialog* shown = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT(
            (shown = openDialog(QStringLiteral("entraSignInDialog"))) &&
                shown->findChild<QLabel*>(QStringLiteral("entraUserCode"))->isVisible(),
            10000);
        QVERIFY(shown->findChild<QLabel*>(QStringLiteral("entraVerificationUri"))
                    ->text()
                    .contains(QStringLiteral("https://microsoft.com/devicelogin")));
        shown->findChild<QAbstractButton*>(QStringLiteral("entraCancel"))->click();
        RemoteNamespaceView* view = viewNamed(QStringLiteral("Entra (cancelled)"));
        QVERIFY(view);
        QTRY_COMPARE(view->header()->state(), NamespaceHeader::State::Disconnected);
        QVERIFY(!view->isConnected());
        // The polling stopped with the cancel.
        const int polls = m_provider->devicePollTimes.size();
        QTest::qWait(1500);
        QVERIFY(m_provider->devicePollTimes.size() <= polls + 1);
    }

    void aDeclinedSignInIsSaidInTheHeader() {
        m_provider->behaviour = StandInIdentityProvider::Behaviour::Deny;
        QVERIFY(saveWithEntra(QStringLiteral("Entra (declined)"), {}));
        RemoteNamespaceView* view = nullptr;
        QTRY_VERIFY((view = viewNamed(QStringLiteral("Entra (declined)"))));
        QTRY_COMPARE_WITH_TIMEOUT(view->header()->state(), NamespaceHeader::State::Failed, 20000);
        QVERIFY(view->findChild<QLabel*>(QStringLiteral("namespaceStatus"))
                    ->text()
                    .contains(QStringLiteral("declined")));
        QVERIFY(!view->isConnected());
        QTRY_VERIFY(!openDialog(QStringLiteral("entraSignInDialog")));
    }

private:
    QDialog* openConnect() {
        m_window->findChild<QAction*>(QStringLiteral("connectNamespaceAction"))->trigger();
        QDialog* dialog = nullptr;
        (void)QTest::qWaitFor(
            [&] { return (dialog = openDialog(QStringLiteral("connectDialog"))); }, 5000);
        return dialog;
    }

    // The Connect dialog filled for the stand-in provider and saved.
    bool saveWithEntra(const QString& name, const EntraFields& fields) {
        QDialog* dialog = openConnect();
        if (!dialog)
            return false;
        dialog->findChild<QLineEdit*>(QStringLiteral("connectionString"))
            ->setText(m_served->connectionText(false));
        dialog->findChild<QLineEdit*>(QStringLiteral("name"))->setText(name);
        dialog->findChild<QCheckBox*>(QStringLiteral("entraSignIn"))->setChecked(true);
        dialog->findChild<QLineEdit*>(QStringLiteral("entraTenant"))
            ->setText(StandInIdentityProvider::kTenant);
        dialog->findChild<QLineEdit*>(QStringLiteral("entraClientId"))->setText(fields.clientId);
        dialog->findChild<QLineEdit*>(QStringLiteral("entraAuthority"))
            ->setText(m_provider->authority());
        dialog->findChild<QCheckBox*>(QStringLiteral("entraDeviceCode"))
            ->setChecked(fields.deviceCode);
        auto* save = dialog->findChild<QAbstractButton*>(QStringLiteral("save"));
        if (!QTest::qWaitFor([&] { return save->isEnabled(); }, 5000))
            return false;
        save->click();
        return true;
    }

    RemoteNamespaceView* viewNamed(const QString& name) {
        for (RemoteNamespaceView* shown : m_window->remotes()->views())
            if (shown->saved().name == name)
                return shown;
        return nullptr;
    }

    // Saves and waits for the view to connect; `whileWaiting` must have been true once.
    RemoteNamespaceView* connectWithEntra(const QString& name, const EntraFields& fields,
                                          const std::function<bool()>& whileWaiting = {}) {
        if (!saveWithEntra(name, fields))
            return nullptr;
        bool seen = !whileWaiting;
        RemoteNamespaceView* view = nullptr;
        (void)QTest::qWaitFor(
            [&] {
                if (!seen)
                    seen = whileWaiting();
                view = viewNamed(name);
                return view && view->isConnected();
            },
            30000);
        return view && view->isConnected() && seen ? view : nullptr;
    }

    QTemporaryDir m_dir;
    int m_count = 0;
    BrowserHandler m_handler;
    std::unique_ptr<TestJwtIssuer> m_issuer;
    std::unique_ptr<ServedNamespace> m_served;
    std::unique_ptr<StandInIdentityProvider> m_provider;
    std::unique_ptr<MainWindow> m_window;
};

QTEST_MAIN(TestRemoteEntra)
#include "tst_ui_remote_entra.moc"
