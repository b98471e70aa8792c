// The window's AMQP endpoint: it serves the open database and follows it to the next one, its
// status item counts connections and copies the connection string, a busy port is said in the
// message bar while the window works on, and the settings restart it (or turn it off).

#include "RawSocket.h"
#include "UiTestBroker.h"
#include "common/BrokerClient.h"
#include "common/LockHolderText.h"
#include "connections/AmqpService.h"
#include "connections/AmqpStatusItem.h"
#include "connections/ConnectionsModel.h"
#include "connections/ConnectionsPanel.h"
#include "tree/NamespaceTreeModel.h"
#include "window/MainWindow.h"
#include "window/MessageBar.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QStandardPaths>
#include <QTest>
#include <QThreadPool>
#include <QTreeView>

using namespace hourglass;
using namespace hourglass::ui;

namespace {
// A plain TCP connection is enough for the endpoint to count it.
using TcpPeer = testing::RawSocket;

std::unique_ptr<BrokerClient> clientOn(const QTemporaryDir& dir) {
    auto clock = std::make_shared<VirtualClock>();
    return std::make_unique<BrokerClient>(testing::openUiTestBroker(dir, clock));
}

// The "detail=" line of the owner file beside the test's database (engine/store's
// DatabaseOwner writes it), empty when there is none.
QString ownerDetail(const QTemporaryDir& dir) {
    QFile file(dir.filePath(QStringLiteral("broker.db.owner")));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    for (const QString& line : QString::fromUtf8(file.readAll()).split(u'\n')) {
        if (line.startsWith(QStringLiteral("detail=")))
            return line.mid(7);
    }
    return {};
}

void useSettings(const AmqpSettings& settings) {
    settings.save();
}
} // namespace

class UiAmqpTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void init() { QSettings().remove(QStringLiteral("amqp")); }

    void aWindowServesOnlyWhenAsked() {
        QTemporaryDir dir;
        MainWindow window;
        window.setClient(clientOn(dir));
        QVERIFY(!window.amqp());
        QVERIFY(!window.findChild<AmqpStatusItem*>(QStringLiteral("amqpStatus")));
    }

    void servesTheOpenDatabaseAndCountsConnections() {
        AmqpSettings settings;
        settings.port = 0;
        useSettings(settings);
        QTemporaryDir dir;
        MainWindow window;
        window.setClient(clientOn(dir));
        window.serveAmqp();
        AmqpService* amqp = window.amqp();
        QVERIFY(amqp);
        QVERIFY(amqp->endpoint());
        const quint16 port = amqp->endpoint()->snapshot().port;
        QVERIFY(port != 0);
        // A second opener of the database is told where the window serves it.
        QCOMPARE(ownerDetail(dir), QStringLiteral("AMQP on 127.0.0.1:%1").arg(port));
        auto* item = window.findChild<AmqpStatusItem*>(QStringLiteral("amqpStatus"));
        QVERIFY(item);
        QCOMPARE(item->text(), QStringLiteral("AMQP localhost:%1 · 0 connections").arg(port));
        {
            TcpPeer a(port);
            TcpPeer b(port);
            QVERIFY(a.connected() && b.connected());
            QTRY_COMPARE_WITH_TIMEOUT(
                item->text(), QStringLiteral("AMQP localhost:%1 · 2 connections").arg(port), 5000);
        }
        QTRY_COMPARE_WITH_TIMEOUT(
            item->text(), QStringLiteral("AMQP localhost:%1 · 0 connections").arg(port), 5000);

        // A click copies the connection string.
        QApplication::clipboard()->clear();
        item->click();
        QCOMPARE(QApplication::clipboard()->text(),
                 QStringLiteral("Endpoint=sb://localhost:%1;SharedAccessKeyName="
                                "RootManageSharedAccessKey;SharedAccessKey=SAS_KEY_VALUE;"
                                "UseDevelopmentEmulator=true;")
                     .arg(port));
        QVERIFY(item->toolTip().contains(QApplication::clipboard()->text()));
    }

    void followsTheNextDatabase() {
        AmqpSettings settings;
        settings.port = 0;
        useSettings(settings);
        QTemporaryDir first;
        QTemporaryDir second;
        MainWindow window;
        window.serveAmqp();
        QVERIFY(!window.amqp()->endpoint()); // no database yet
        auto* item = window.findChild<AmqpStatusItem*>(QStringLiteral("amqpStatus"));
        QCOMPARE(item->text(), QStringLiteral("AMQP: no database"));
        window.setClient(clientOn(first));
        QVERIFY(window.amqp()->endpoint());
        window.setClient(clientOn(second));
        QVERIFY(window.amqp()->endpoint());
        QCOMPARE(window.amqp()->endpoint()->snapshot().listening, true);
        window.setClient(nullptr);
        QVERIFY(!window.amqp()->endpoint());
    }

    void aBusyPortIsSaidAndTheWindowWorksOn() {
        // Another endpoint holds a port; the window is set to the same one.
        QTemporaryDir other;
        auto holder = testing::openUiTestBroker(other, std::make_shared<VirtualClock>());
        amqp::EndpointOptions options;
        options.port = 0;
        amqp::AmqpEndpoint occupying(*holder, options);
        const auto busy = occupying.start();
        QVERIFY(busy.ok());

        AmqpSettings settings;
        settings.port = *busy;
        useSettings(settings);
        QTemporaryDir dir;
        MainWindow window;
        window.setClient(clientOn(dir));
        window.serveAmqp();
        QVERIFY(!window.amqp()->endpoint());
        auto* bar = window.messageBar();
        QVERIFY(bar->isVisibleTo(&window));
        const QString shown = bar->text();
        QVERIFY2(shown.contains(QString::number(*busy)), qPrintable(shown));
        auto* item = window.findChild<AmqpStatusItem*>(QStringLiteral("amqpStatus"));
        QCOMPARE(item->text(), QStringLiteral("AMQP: not serving on port %1").arg(*busy));
        QVERIFY(item->toolTip().contains(QString::number(*busy)));
        // The window works on: its tree shows the database.
        QVERIFY(window.tree());

        // The settings move it to a free port: it serves, and the bar is taken down.
        settings.port = 0;
        window.amqp()->apply(settings);
        QVERIFY(window.amqp()->endpoint());
        QVERIFY(item->text().startsWith(QStringLiteral("AMQP localhost:")));
        QCOMPARE(AmqpSettings::load(), settings);
    }

    void offMeansOff() {
        AmqpSettings settings;
        settings.enabled = false;
        useSettings(settings);
        QTemporaryDir dir;
        MainWindow window;
        window.setClient(clientOn(dir));
        window.serveAmqp();
        QVERIFY(!window.amqp()->endpoint());
        auto* item = window.findChild<AmqpStatusItem*>(QStringLiteral("amqpStatus"));
        QCOMPARE(item->text(), QStringLiteral("AMQP off"));
        QCOMPARE(ownerDetail(dir), QString());
        settings.enabled = true;
        settings.port = 0;
        window.amqp()->apply(settings);
        QVERIFY(window.amqp()->endpoint());
        QVERIFY(ownerDetail(dir).startsWith(QStringLiteral("AMQP on 127.0.0.1:")));
        // Off again: the owner file no longer names an address.
        settings.enabled = false;
        window.amqp()->apply(settings);
        QCOMPARE(ownerDetail(dir), QString());
    }

    void theConnectionsViewListsAndClosesConnections() {
        AmqpSettings settings;
        settings.port = 0;
        useSettings(settings);
        QTemporaryDir dir;
        MainWindow window;
        window.setClient(clientOn(dir));
        window.serveAmqp();
        auto* panel = window.findChild<ConnectionsPanel*>(QStringLiteral("connectionsView"));
        QVERIFY(panel);
        QAbstractItemModelTester tester(panel->model(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        auto* toggle = window.findChild<QAction*>(QStringLiteral("connectionsAction"));
        QVERIFY(toggle);
        auto* empty = panel->findChild<QLabel*>(QStringLiteral("connectionsEmpty"));
        const quint16 port = window.amqp()->endpoint()->snapshot().port;
        panel->refresh();
        QVERIFY(empty->text().contains(QStringLiteral("No application is connected")));
        auto* string = panel->findChild<QLineEdit*>(QStringLiteral("connectionsEmptyString"));
        QCOMPARE(string->text(), window.amqp()->endpoint()->connectionString());

        TcpPeer first(port);
        TcpPeer second(port);
        QTRY_COMPARE_WITH_TIMEOUT(panel->model()->rowCount(), 2, 5000);
        const QModelIndex row = panel->model()->index(0, ConnectionsModel::Name);
        QVERIFY(row.data().toString().contains(QStringLiteral("127.0.0.1:")));
        QCOMPARE(panel->model()->index(0, ConnectionsModel::Role).data().toString(),
                 QStringLiteral("(not open yet)"));

        // The operator closes one: it goes, the other stays.
        panel->view()->setCurrentIndex(row);
        auto* close = panel->findChild<QPushButton*>(QStringLiteral("closeConnection"));
        QVERIFY(close->isEnabled());
        close->click();
        QTRY_COMPARE_WITH_TIMEOUT(panel->model()->rowCount(), 1, 5000);
        QTRY_COMPARE_WITH_TIMEOUT(window.amqp()->endpoint()->connectionCount(), 1, 5000);
    }

    void lockHolderNames_data() {
        QTest::addColumn<QString>("holder");
        QTest::addColumn<QString>("shown");
        QTest::newRow("a receiver of the window") << "alice"
                                                  << "alice";
        QTest::newRow("a wire link") << "amqp/3/orders-5f1c"
                                     << "AMQP link orders-5f1c (connection 3)";
        QTest::newRow("a link name with a slash") << "amqp/12/a/b"
                                                  << "AMQP link a/b (connection 12)";
        QTest::newRow("not quite") << "amqp/7"
                                   << "amqp/7";
    }
    void lockHolderNames() {
        QFETCH(QString, holder);
        QFETCH(QString, shown);
        QCOMPARE(lockHolderText(holder), shown);
    }

    // A key of the user's own is kept in the database it guards, not in the user's settings:
    // the endpoint signs with it at once, and the next window on that database serves with it.
    void aKeyOfOneselfIsKeptInTheDatabase() {
        AmqpSettings settings;
        settings.port = 0;
        useSettings(settings);
        QTemporaryDir dir;
        {
            MainWindow window;
            window.setClient(clientOn(dir));
            window.serveAmqp();
            QVERIFY(window.amqp()->endpoint());
            QCOMPARE(window.amqp()->settings().key, QString());
            settings.key = QStringLiteral("my-own-key");
            window.amqp()->apply(settings);
            QVERIFY(window.amqp()->endpoint()->connectionString().contains(
                QStringLiteral("SharedAccessKey=my-own-key;")));
            const auto broker = window.client()->sharedBroker();
            QTRY_COMPARE_WITH_TIMEOUT(broker->setting(amqp::kKeySetting),
                                      QStringLiteral("my-own-key"), 5000);
            QVERIFY(!QSettings().contains(QStringLiteral("amqp/key")));
        }
        // The key is in the broker's memory before it is on disk: the write (off the GUI
        // thread, holding the broker) ends before the database is opened again.
        QThreadPool::globalInstance()->waitForDone();
        MainWindow again;
        again.setClient(std::make_unique<BrokerClient>(
            testing::openUiTestBroker(dir, std::make_shared<VirtualClock>(), QString())));
        again.serveAmqp();
        QCOMPARE(again.amqp()->settings().key, QStringLiteral("my-own-key"));
        QVERIFY(again.amqp()->endpoint()->connectionString().contains(
            QStringLiteral("SharedAccessKey=my-own-key;")));
    }

    void aPublicAddressWithTheWellKnownKeyIsRefused() {
        AmqpSettings settings;
        settings.host = QStringLiteral("0.0.0.0");
        settings.port = 0;
        useSettings(settings);
        QTemporaryDir dir;
        MainWindow window;
        window.setClient(clientOn(dir));
        window.serveAmqp();
        QVERIFY(!window.amqp()->endpoint());
        QVERIFY(window.amqp()->problem().contains(QStringLiteral("SAS_KEY_VALUE")));
    }

    // Each namespace has its own key: the tree's context menu copies the selected namespace's
    // own connection string; the status item's is the default namespace's.
    void eachNamespaceCopiesItsOwnConnectionString() {
        AmqpSettings settings;
        settings.port = 0;
        useSettings(settings);
        QTemporaryDir dir;
        auto client = clientOn(dir); // namespace "test": the oldest, the default
        QVERIFY(client->sharedBroker()
                    ->createNamespace({QStringLiteral("other"), Tier::Standard})
                    .ok());
        MainWindow window;
        window.setClient(std::move(client));
        window.serveAmqp();
        amqp::AmqpEndpoint* endpoint = window.amqp()->endpoint();
        QVERIFY(endpoint);
        QCOMPARE(endpoint->defaultNamespace(), QStringLiteral("test"));

        auto* tree = window.findChild<QTreeView*>(QStringLiteral("namespaceTree"));
        QVERIFY(tree);
        QAction* copy = window.findChild<QAction*>(QStringLiteral("copyNamespaceConnectionString"));
        QVERIFY(copy);
        QVERIFY(tree->actions().contains(copy)); // in the tree's context menu
        const auto select = [&](const QString& name) {
            QAbstractItemModel* model = tree->model();
            const QModelIndexList hits =
                model->match(model->index(0, 0), NamespaceTreeModel::PathRole, name, 1,
                             Qt::MatchExactly | Qt::MatchRecursive);
            QVERIFY(!hits.isEmpty());
            tree->setCurrentIndex(hits.first());
        };
        QTRY_VERIFY(tree->model()->rowCount() == 2);

        select(QStringLiteral("other"));
        QTRY_COMPARE(window.selectedPath(), QStringLiteral("other"));
        QVERIFY(copy->isEnabled());
        QApplication::clipboard()->clear();
        copy->trigger();
        const QString other = QApplication::clipboard()->text();
        QVERIFY2(other.startsWith(
                     QStringLiteral("Endpoint=sb://localhost:%1;").arg(endpoint->snapshot().port)),
                 qPrintable(other));
        QVERIFY(!other.contains(QStringLiteral("SAS_KEY_VALUE")));
        QCOMPARE(other, endpoint->connectionString(QStringLiteral("other")));

        select(QStringLiteral("test"));
        QTRY_COMPARE(window.selectedPath(), QStringLiteral("test"));
        copy->trigger();
        QVERIFY(QApplication::clipboard()->text().contains(QStringLiteral("SAS_KEY_VALUE")));
        auto* item = window.findChild<AmqpStatusItem*>(QStringLiteral("amqpStatus"));
        QVERIFY(item->toolTip().contains(QStringLiteral("'test'")));
    }
};

QTEST_MAIN(UiAmqpTest)
#include "tst_ui_amqp.moc"
