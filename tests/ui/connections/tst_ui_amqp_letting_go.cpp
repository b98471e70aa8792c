// The window and the applications connected to it, with real AMQP 1.0 clients (Proton's C API)
// that keep the messages they receive locked: quitting or opening another database asks first
// when they hold locks, saying how many ("2 applications hold 5 message locks. Quit anyway?"),
// and asks nothing when none do; saying yes lets their connections go and their locks return.
// While the clock is not live and applications are connected, the clock toolbar says that they
// see engine time while their SDKs renew locks on real time.

#include "UiTestBroker.h"
#include "WireTestClient.h"
#include "common/BrokerClient.h"
#include "connections/AmqpService.h"
#include "connections/HeldLocksQuestion.h"
#include "window/MainWindow.h"

#include "hourglass/Clock.h"

#include <QApplication>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QStandardPaths>
#include <QTest>

#include <memory>

using namespace hourglass;
using namespace hourglass::ui;
using hourglass::testing::WireTestClient;

namespace {

constexpr int kWaitMs = 10000;
const QString kQueue = QStringLiteral("orders");

// A database with `messages` messages in "orders", served by `window`.
std::shared_ptr<Broker> serveQueue(MainWindow& window, const QTemporaryDir& dir, int messages,
                                   std::shared_ptr<VirtualClock> clock = {}) {
    if (!clock)
        clock = std::make_shared<VirtualClock>();
    auto broker = testing::openUiTestBroker(dir, clock);
    if (!broker->createQueue(kQueue, {}))
        qFatal("createQueue failed");
    for (int i = 0; i < messages; ++i) {
        OutgoingMessage message;
        message.body = QByteArray::number(i);
        if (!broker->send(kQueue, message))
            qFatal("send failed");
    }
    const std::shared_ptr<Broker> shared = std::move(broker);
    window.serveAmqp();
    window.setClient(std::make_unique<BrokerClient>(shared));
    return shared;
}

WireTestClient::Options clientOptions(MainWindow& window, int credit) {
    WireTestClient::Options options;
    options.port = window.amqp()->endpoint()->snapshot().port;
    options.queue = kQueue;
    options.credit = credit;
    return options;
}

QMessageBox* question(MainWindow& window) {
    return window.findChild<QMessageBox*>(QStringLiteral("heldLocksQuestion"));
}

} // namespace

class UiAmqpLettingGoTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QApplication::setQuitOnLastWindowClosed(false);
        QSettings().remove(QStringLiteral("window"));
        AmqpSettings settings;
        settings.port = 0;
        settings.save();
    }

    void theQuestionSaysHowMany() {
        QCOMPARE(heldLocksQuestionText(2, 37, LettingGo::Quit),
                 QStringLiteral("2 applications hold 37 message locks. Quit anyway? Their locks "
                                "go back to the queues."));
        QCOMPARE(heldLocksQuestionText(1, 1, LettingGo::OpenAnotherDatabase),
                 QStringLiteral("1 application holds 1 message lock. Open the other database "
                                "anyway? Their locks go back to the queues."));
    }

    void quittingAsksWhenApplicationsHoldLocks() {
        QTemporaryDir dir;
        MainWindow window;
        const auto broker = serveQueue(window, dir, 5);
        window.show();
        // One after the other, so that each holds some: 2, then the other 3.
        WireTestClient first(clientOptions(window, 2));
        QTRY_COMPARE_WITH_TIMEOUT(first.held(), 2, kWaitMs);
        WireTestClient second(clientOptions(window, 10));
        QTRY_COMPARE_WITH_TIMEOUT(second.held(), 3, kWaitMs);
        QTRY_COMPARE_WITH_TIMEOUT(window.amqp()->lockHolders().locks, 5, kWaitMs);

        window.close();
        QTRY_VERIFY(question(window));
        QMessageBox* box = question(window);
        QCOMPARE(box->text(), QStringLiteral("2 applications hold 5 message locks. Quit anyway? "
                                             "Their locks go back to the queues."));
        QVERIFY(window.isVisible());
        // Cancel: nothing happens, the applications keep their locks.
        QTest::mouseClick(box->button(QMessageBox::Cancel), Qt::LeftButton);
        QTRY_VERIFY(!question(window));
        QVERIFY(window.isVisible());
        QVERIFY(!first.ended() && !second.ended());
        QCOMPARE(broker->counts(kQueue)->locked, 5);

        // Asked again, and this time the window goes.
        window.close();
        QTRY_VERIFY(question(window));
        QCOMPARE(question(window)->button(QMessageBox::Ok)->text(), QStringLiteral("Quit"));
        QTest::mouseClick(question(window)->button(QMessageBox::Ok), Qt::LeftButton);
        QTRY_VERIFY(!window.isVisible());
    }

    void openingAnotherDatabaseAsksWhenApplicationsHoldLocks() {
        QTemporaryDir dir;
        QTemporaryDir other;
        MainWindow window;
        const auto broker = serveQueue(window, dir, 3);
        window.show();
        const QString first = window.client()->databasePath();
        WireTestClient client(clientOptions(window, 10));
        QTRY_COMPARE_WITH_TIMEOUT(client.held(), 3, kWaitMs);
        QTRY_COMPARE_WITH_TIMEOUT(window.amqp()->lockHolders().locks, 3, kWaitMs);

        const QString next = other.filePath(QStringLiteral("next.db"));
        window.openDatabase(next);
        QTRY_VERIFY(question(window));
        QCOMPARE(question(window)->text(),
                 QStringLiteral("1 application holds 3 message locks. Open the other database "
                                "anyway? Their locks go back to the queues."));
        QTest::mouseClick(question(window)->button(QMessageBox::Cancel), Qt::LeftButton);
        QTRY_VERIFY(!question(window));
        // Nothing started opening (an open says so at once), the first database stays.
        auto* label = window.findChild<QLabel*>(QStringLiteral("databaseLabel"));
        QVERIFY2(!label->text().startsWith(QStringLiteral("Opening")), qPrintable(label->text()));
        QCOMPARE(window.client()->databasePath(), first);
        QVERIFY(!client.ended());

        window.openDatabase(next);
        QTRY_VERIFY(question(window));
        QTest::mouseClick(question(window)->button(QMessageBox::Ok), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(window.client()->databasePath(), next, kWaitMs);
        // The application was let go, and its locks came back to the old database's queue.
        QTRY_VERIFY_WITH_TIMEOUT(client.ended(), kWaitMs);
        QTRY_COMPARE_WITH_TIMEOUT(broker->counts(kQueue)->locked, 0, kWaitMs);
    }

    void noQuestionWhenNoApplicationHoldsALock() {
        QTemporaryDir dir;
        MainWindow window;
        serveQueue(window, dir, 0);
        window.show();
        WireTestClient idle(clientOptions(window, 10)); // connected, nothing to lock
        QTRY_VERIFY_WITH_TIMEOUT(idle.linksOpen(), kWaitMs);
        window.close();
        QVERIFY(!question(window));
        QVERIFY(!window.isVisible());
    }

    void theClockBarSaysApplicationsSeeEngineTime() {
        QTemporaryDir dir;
        auto clock = std::make_shared<VirtualClock>();
        clock->resetToRealTime();
        MainWindow window;
        serveQueue(window, dir, 0, clock);
        window.show();
        auto* note = window.findChild<QLabel*>(QStringLiteral("clockAppsNote"));
        QVERIFY(note);
        // Off live without an application: nothing to say.
        clock->pause();
        window.amqp()->readSnapshot();
        QVERIFY(!note->isVisibleTo(&window));

        WireTestClient client(clientOptions(window, 1));
        QTRY_VERIFY_WITH_TIMEOUT(client.linksOpen(), kWaitMs);
        QTRY_VERIFY_WITH_TIMEOUT(note->isVisibleTo(&window), kWaitMs);
        QCOMPARE(
            note->text(),
            QStringLiteral("1 application is connected: it sees engine time, while its SDK renews "
                           "locks on real time."));
        QVERIFY(note->toolTip().contains(QStringLiteral("real clock")));

        // Live again: both agree, the note goes.
        clock->resetToRealTime();
        QTRY_VERIFY_WITH_TIMEOUT(!note->isVisibleTo(&window), kWaitMs);
    }
};

QTEST_MAIN(UiAmqpLettingGoTest)
#include "tst_ui_amqp_letting_go.moc"
