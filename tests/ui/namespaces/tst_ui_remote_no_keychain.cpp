// The window on a remote namespace where no keychain answers (secret-service.sh without: no D-Bus
// session bus at all): the string typed into the Connect dialog opens it, the key is written
// nowhere, and connecting again after Disconnect asks for the key, saying why.

#include "PrivateHome.h"
#include "RemoteWindowSteps.h"
#include "ServedNamespace.h"

#include "namespaces/SavedNamespaces.h"

#include <QSignalSpy>
#include <QTemporaryDir>

using namespace hourglass;
using namespace hourglass::ui;
using namespace hourglass::testing;
using namespace namespaces_test;

class TestRemoteNoKeychain : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        if (privateHome().isEmpty())
            QSKIP("run through secret-service.sh: this test needs a home without a keychain");
        QCoreApplication::setOrganizationName(QStringLiteral("hourglass-tests"));
    }

    void keyIsAskedEachTimeAndKeptNowhere() {
        ServedNamespace served(ServedNamespace::Transport::Plain);
        QVERIFY(served.broker().createQueue(QStringLiteral("orders"), {}).ok());
        QTemporaryDir dir;
        MainWindow window;
        QVERIFY(showWithDatabase(window, dir));

        RemoteNamespaceView* view =
            connectThroughDialog(window, served.connectionText(), {}, QStringLiteral("Plain"));
        QVERIFY(view);
        QTRY_VERIFY(
            findPath(view->tree()->view()->model(), QStringLiteral("localhost:orders")).isValid());
        QCOMPARE(window.remotes()->saved()->keychain(), SavedNamespaces::Keychain::Unavailable);
        QCOMPARE(filesHolding(privateHome(), QStringLiteral("SAS_KEY_VALUE")), QStringList());

        view->findChild<QToolButton*>(QStringLiteral("namespaceConnect"))->click(); // Disconnect
        QVERIFY(!view->isConnected());
        QVERIFY(answerKeyPrompt(view, QStringLiteral("SAS_KEY_VALUE")));
        QTRY_VERIFY_WITH_TIMEOUT(view->isConnected(), 20000);
        QCOMPARE(filesHolding(privateHome(), QStringLiteral("SAS_KEY_VALUE")), QStringList());
    }
};

QTEST_MAIN(TestRemoteNoKeychain)
#include "tst_ui_remote_no_keychain.moc"
