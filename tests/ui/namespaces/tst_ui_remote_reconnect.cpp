// The window on a remote namespace whose connection breaks: an in-process served namespace
// (tests/remote/ServedNamespace.h, TLS) reached through a relay the test cuts and holds down
// (tests/remote/CuttableRelay.h). Two messages received peek-locked in Receive & settle; the
// break: the namespace's header says when the connection was lost and that it is reconnecting,
// in the error colour; the held locks are shown lost with a one-line note, not counting down;
// the relay up again: the header is back to its counts line, a send from the window works, and
// a lock taken on the new connection settles.
// With SHOT_DIR set, the header and the window in the lost state are saved there.

#include "CuttableRelay.h"
#include "PrivateHome.h"
#include "RemoteWindowSteps.h"
#include "ServedNamespace.h"

#include "common/InlineError.h"
#include "messages/MessageListModel.h"
#include "window/EntityWorkspace.h"

#include <QComboBox>
#include <QLabel>
#include <QPlainTextEdit>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

using namespace hourglass;
using namespace hourglass::ui;
using namespace hourglass::testing;
using namespace namespaces_test;

class TestRemoteReconnect : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        if (privateHome().isEmpty())
            QSKIP("run through secret-service.sh: this test needs a home of its own");
        QCoreApplication::setOrganizationName(QStringLiteral("hourglass-tests"));
    }

    void brokenConnectionIsSaidAndMended() {
        QSettings().clear();
        ServedNamespace served(ServedNamespace::Transport::Tls);
        served.testBroker().clock().resetToRealTime();
        QVERIFY(served.broker().createQueue(QStringLiteral("orders"), {}).ok());
        for (const char* id : {"a", "b"})
            QVERIFY(served.broker().send(QStringLiteral("orders"), TestBroker::message(id)).ok());
        CuttableRelay relay(quint16(served.connection().amqpPort()));
        // The served string, its port the relay's (the certificate names localhost).
        QString text = served.connectionText();
        text.replace(QRegularExpression(QStringLiteral("localhost:\\d+")),
                     QStringLiteral("localhost:%1").arg(relay.port()));

        QTemporaryDir dir;
        MainWindow window;
        QVERIFY(showWithDatabase(window, dir));
        RemoteNamespaceView* view =
            connectThroughDialog(window, text, served.caFile(), QStringLiteral("Served"));
        QVERIFY(view);
        QVERIFY(selectInRemote(window, view, QStringLiteral("localhost:orders")));
        auto* status = view->findChild<QLabel*>(QStringLiteral("namespaceStatus"));
        QTRY_VERIFY_WITH_TIMEOUT(status->text().contains(QStringLiteral("counts every")), 10000);
        const QColor mutedColour = status->palette().color(QPalette::WindowText);

        // Two messages under lock as "alice".
        EntityWorkspace* workspace = view->workspace();
        workspace->showTab(EntityWorkspace::ReceiveTab);
        workspace->findChild<QComboBox*>(QStringLiteral("lockReceiver"))
            ->setEditText(QStringLiteral("alice"));
        workspace->findChild<QSpinBox*>(QStringLiteral("lockCount"))->setValue(2);
        QVERIFY(QTest::qWaitFor([&] { return press(workspace, QStringLiteral("lockReceive")); },
                                10000));
        auto* locks = workspace->findChild<QTableView*>(QStringLiteral("lockList"));
        QTRY_COMPARE_WITH_TIMEOUT(locks->model()->rowCount(), 2, 15000);
        auto stateOf = [locks](int row) {
            return locks->model()->index(row, MessageListModel::StateColumn).data().toString();
        };
        QVERIFY(stateOf(0) != QStringLiteral("Lock lost"));
        QTRY_COMPARE_WITH_TIMEOUT(served.broker().counts(QStringLiteral("orders"))->locked,
                                  qint64(2), 10000);

        // The break, and the namespace unreachable for a while.
        relay.setDown(true);
        relay.cut();
        QTRY_VERIFY_WITH_TIMEOUT(status->text().startsWith(QStringLiteral("Connection lost at ")),
                                 10000);
        QVERIFY2(QRegularExpression(
                     QStringLiteral("^Connection lost at \\d\\d:\\d\\d:\\d\\d — reconnecting…$"))
                     .match(status->text())
                     .hasMatch(),
                 qPrintable(status->text()));
        QCOMPARE(status->palette().color(QPalette::WindowText), errorTextColor());
        QVERIFY(errorTextColor() != mutedColour);
        QVERIFY(!status->toolTip().isEmpty()); // why it broke
        // The held locks: lost, with a line saying why.
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(0), QStringLiteral("Lock lost"), 5000);
        QCOMPARE(stateOf(1), QStringLiteral("Lock lost"));
        auto* note = workspace->findChild<QLabel*>(QStringLiteral("lockStatus"));
        QVERIFY2(note->text().contains(QStringLiteral("2 locks lost")) &&
                     note->text().contains(QStringLiteral("broke")),
                 qPrintable(note->text()));
        const QString tip =
            locks->model()->index(0, MessageListModel::LockColumn).data(Qt::ToolTipRole).toString();
        QVERIFY2(tip.contains(QStringLiteral("\"Served\"")) ||
                     tip.contains(QStringLiteral("Served")),
                 qPrintable(tip));
        const QString shots = qEnvironmentVariable("SHOT_DIR");
        if (!shots.isEmpty()) {
            view->header()->grab().save(shots + QStringLiteral("/header-lost.png"));
            window.grab().save(shots + QStringLiteral("/window-lost.png"));
        }

        // Reachable again: the header goes back to its counts line on its own.
        relay.setDown(false);
        QTRY_VERIFY_WITH_TIMEOUT(status->text().contains(QStringLiteral("counts every")), 30000);
        QCOMPARE(status->palette().color(QPalette::WindowText), mutedColour);
        if (!shots.isEmpty())
            view->header()->grab().save(shots + QStringLiteral("/header-back.png"));
        // The served side let the locks go with the connection; a send works.
        QTRY_COMPARE_WITH_TIMEOUT(served.broker().counts(QStringLiteral("orders"))->locked,
                                  qint64(0), 10000);
        QDialog* send = window.openSendDialog();
        QVERIFY(send);
        send->findChild<QPlainTextEdit*>(QStringLiteral("sendBody"))
            ->setPlainText(QStringLiteral("after the break"));
        QVERIFY(QMetaObject::invokeMethod(send, "send"));
        QTRY_COMPARE_WITH_TIMEOUT(served.broker().counts(QStringLiteral("orders"))->active,
                                  qint64(3), 15000);
        send->close();
        // The lost locks stay lost (they settle nowhere); one taken on the new connection is
        // held, and completes.
        QCOMPARE(stateOf(0), QStringLiteral("Lock lost"));
        workspace->findChild<QSpinBox*>(QStringLiteral("lockCount"))->setValue(1);
        QVERIFY(QTest::qWaitFor([&] { return press(workspace, QStringLiteral("lockReceive")); },
                                10000));
        // The first message again (its row, lost, is replaced by the one now held).
        int held = -1;
        QVERIFY(QTest::qWaitFor(
            [&] {
                for (int row = 0; row < locks->model()->rowCount(); ++row)
                    if (stateOf(row) != QStringLiteral("Lock lost"))
                        held = row;
                return held >= 0;
            },
            15000));
        QCOMPARE(locks->model()->rowCount(), 2);
        QTRY_COMPARE_WITH_TIMEOUT(served.broker().counts(QStringLiteral("orders"))->locked,
                                  qint64(1), 10000);
        locks->selectRow(held);
        QVERIFY(QTest::qWaitFor([&] { return press(workspace, QStringLiteral("lockComplete")); },
                                10000));
        QTRY_COMPARE_WITH_TIMEOUT(served.broker().counts(QStringLiteral("orders"))->active,
                                  qint64(2), 15000);
        QTRY_COMPARE_WITH_TIMEOUT(locks->model()->rowCount(), 1, 10000);
    }
};

QTEST_MAIN(TestRemoteReconnect)
#include "tst_ui_remote_reconnect.moc"
