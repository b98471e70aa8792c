// The first start as the executable does it: the window creates the sample namespace in the
// first database it opens, and only there. Closing a scenario reopens the user's database; that
// must not try to create the sample again (it used to, and the message bar said "The sample
// namespace — MessagingEntityAlreadyExists").

#include "ClientCall.h"
#include "FirstStart.h"
#include "common/BrokerClient.h"
#include "demo/ScenarioController.h"
#include "demo/ScenarioSession.h"
#include "tree/NamespaceTreeModel.h"
#include "window/MainWindow.h"
#include "window/MessageBar.h"

#include <QCoreApplication>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>

using namespace hourglass;
using namespace hourglass::ui;

namespace {

bool treeShows(MainWindow& window, const QString& path) {
    auto* tree = window.findChild<QTreeView*>(QStringLiteral("namespaceTree"));
    if (!tree || !tree->model())
        return false;
    QAbstractItemModel* model = tree->model();
    return !model
                ->match(model->index(0, 0), NamespaceTreeModel::PathRole, path, 1,
                        Qt::MatchExactly | Qt::MatchRecursive)
                .isEmpty();
}

// Every call the window has started has answered, and its answer has been handled.
void settle(MainWindow& window) {
    window.client()->waitForIdle();
    QCoreApplication::sendPostedEvents();
    QCoreApplication::processEvents();
}

} // namespace

class TestAppFirstStart : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("hourglass-tests"));
    }

    void firstStart_sampleIsCreatedInTheFirstDatabase() {
        QTemporaryDir dir;
        MainWindow window;
        app::createSampleWhenOpened(window, dir.filePath(QStringLiteral("hourglass.db")));
        window.openDatabase(dir.filePath(QStringLiteral("hourglass.db")));
        window.show();
        QTRY_VERIFY(treeShows(window, QStringLiteral("sample:orders")));
        QTRY_VERIFY(treeShows(window, QStringLiteral("sample:events/Subscriptions/billing")));
        settle(window);
        QVERIFY2(!window.messageBar()->isVisible(), qPrintable(window.messageBar()->text()));
        // A lock a person can work with: a dead-letter reason typed at reading speed.
        const auto orders = testing::callAndWait(
            *window.client(), [](Broker& b) { return b.entity(QStringLiteral("sample:orders")); });
        QVERIFY(orders.ok());
        QVERIFY(orders->properties.lockDuration >= minutes(2));
    }

    void firstStart_closingAScenarioDoesNotCreateTheSampleAgain() {
        QTemporaryDir dir;
        const QString userDatabase = dir.filePath(QStringLiteral("hourglass.db"));
        MainWindow window;
        app::createSampleWhenOpened(window, userDatabase);
        window.openDatabase(userDatabase);
        window.resize(1280, 800);
        window.show();
        QTRY_VERIFY(treeShows(window, QStringLiteral("sample:orders")));
        settle(window);

        ScenarioController* scenarios = window.scenarios();
        scenarios->openFile(QStringLiteral(":/scenarios/traffic-spike.json"));
        QTRY_VERIFY(scenarios->session() && scenarios->session()->isReady());
        auto* close = window.findChild<QPushButton*>(QStringLiteral("scenarioClose"));
        QVERIFY(close);
        QTest::mouseClick(close, Qt::LeftButton);
        QTRY_VERIFY(window.client() && window.client()->databasePath() == userDatabase);
        QTRY_VERIFY(treeShows(window, QStringLiteral("sample:orders")));
        settle(window);
        QVERIFY2(!window.messageBar()->isVisible(), qPrintable(window.messageBar()->text()));
    }

    void firstStart_welcomeStripShowsOnTheSampleUntilDismissedForGood() {
        QSettings().remove(QStringLiteral("welcome/dismissed"));
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("hourglass.db"));
        {
            MainWindow window;
            app::createSampleWhenOpened(window, path);
            window.openDatabase(path);
            window.resize(1024, 700);
            window.show();
            auto* strip = window.findChild<QWidget*>(QStringLiteral("welcomeStrip"));
            QVERIFY(strip);
            QTRY_VERIFY(strip->isVisible());
            auto* text = window.findChild<QLabel*>(QStringLiteral("welcomeText"));
            QVERIFY(text->text().contains(QStringLiteral("60×")));
            QVERIFY(text->text().contains(QStringLiteral("Dead letters")));
            // It stays out of the way: one short strip, not half the window.
            QVERIFY2(strip->height() < window.height() / 6,
                     qPrintable(QString::number(strip->height())));
            settle(window);
        }
        {
            // The next start (the sample still there, not dismissed): shown again.
            MainWindow window;
            window.openDatabase(path);
            window.show();
            auto* strip = window.findChild<QWidget*>(QStringLiteral("welcomeStrip"));
            QTRY_VERIFY(strip->isVisible());
            QTest::mouseClick(window.findChild<QPushButton*>(QStringLiteral("welcomeDismiss")),
                              Qt::LeftButton);
            QVERIFY(!strip->isVisible());
            settle(window);
        }
        {
            // Dismissed for good: not on the next start either.
            MainWindow window;
            window.openDatabase(path);
            window.show();
            QTRY_VERIFY(treeShows(window, QStringLiteral("sample:orders")));
            QCoreApplication::processEvents();
            QVERIFY(!window.findChild<QWidget*>(QStringLiteral("welcomeStrip"))->isVisible());
            settle(window);
        }
        QSettings().remove(QStringLiteral("welcome/dismissed"));
    }

    void firstStart_onlyTheUsersNewDatabaseGetsTheSample() {
        // The user's database could not be opened (or another was opened first, with File >
        // Open): that other database never gets the sample; the user's own does when it opens.
        QTemporaryDir dir;
        const QString users = dir.filePath(QStringLiteral("hourglass.db"));
        MainWindow window;
        app::createSampleWhenOpened(window, users);
        window.openDatabase(dir.filePath(QStringLiteral("other.db")));
        QTRY_VERIFY(window.client() &&
                    window.client()->databasePath().endsWith(QStringLiteral("other.db")));
        settle(window);
        QVERIFY(!treeShows(window, QStringLiteral("sample:orders")));
        window.openDatabase(users);
        QTRY_VERIFY(treeShows(window, QStringLiteral("sample:orders")));
    }

    void firstStart_anotherDatabaseOpenedLaterStaysEmpty() {
        QTemporaryDir dir;
        MainWindow window;
        app::createSampleWhenOpened(window, dir.filePath(QStringLiteral("first.db")));
        window.openDatabase(dir.filePath(QStringLiteral("first.db")));
        QTRY_VERIFY(treeShows(window, QStringLiteral("sample:orders")));
        settle(window);
        window.openDatabase(dir.filePath(QStringLiteral("second.db")));
        QTRY_VERIFY(window.client() &&
                    window.client()->databasePath().endsWith(QStringLiteral("second.db")));
        settle(window);
        QVERIFY(!treeShows(window, QStringLiteral("sample:orders")));
        QVERIFY2(!window.messageBar()->isVisible(), qPrintable(window.messageBar()->text()));
    }
};

QTEST_MAIN(TestAppFirstStart)
#include "tst_app_first_start.moc"
