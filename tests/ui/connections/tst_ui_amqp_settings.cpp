// The window's endpoint at start-up and in its settings: a busy port when the window opens its
// database is said in the message bar (the window opens the database the way the application
// does) and in View > AMQP endpoint…; the extra host names a token may name are a field of that
// dialog, saved with the other endpoint settings and served. "Copy connection string" of a
// namespace created a moment ago never waits on the database in the GUI thread: its key is made
// by a worker, here while another connection holds the database's write lock.

#include "UiTestBroker.h"
#include "common/BrokerClient.h"
#include "connections/AmqpService.h"
#include "connections/AmqpSettingsDialog.h"
#include "tree/NamespaceTreeModel.h"
#include "window/MainWindow.h"
#include "window/MessageBar.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QDialogButtonBox>
#include <QElapsedTimer>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QStandardPaths>
#include <QTest>
#include <QTreeView>

#include <sqlite3.h>

using namespace hourglass;
using namespace hourglass::ui;

namespace {
constexpr int kWaitMs = 10000;

// A second connection to the window's database holding its write lock until released.
class WriteLockHolder {
public:
    explicit WriteLockHolder(const QString& path) {
        if (sqlite3_open_v2(path.toUtf8().constData(), &m_db, SQLITE_OPEN_READWRITE, nullptr) !=
            SQLITE_OK)
            qFatal("cannot open %s", qPrintable(path));
    }
    ~WriteLockHolder() {
        release();
        sqlite3_close(m_db);
    }
    bool hold() { return exec("BEGIN IMMEDIATE"); }
    void release() {
        if (std::exchange(m_holding, false))
            exec("ROLLBACK");
    }

private:
    bool exec(const char* sql) {
        const bool ok = sqlite3_exec(m_db, sql, nullptr, nullptr, nullptr) == SQLITE_OK;
        if (ok && QByteArray(sql).startsWith("BEGIN"))
            m_holding = true;
        return ok;
    }
    sqlite3* m_db = nullptr;
    bool m_holding = false;
};
} // namespace

class UiAmqpSettingsTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void init() { QSettings().remove(QStringLiteral("amqp")); }

    void aBusyPortAtStartUpIsSaidInTheBarAndTheDialog() {
        QTemporaryDir other;
        auto holder = testing::openUiTestBroker(other, std::make_shared<VirtualClock>());
        amqp::EndpointOptions options;
        options.port = 0;
        amqp::AmqpEndpoint occupying(*holder, options);
        const auto busy = occupying.start();
        QVERIFY(busy.ok());
        AmqpSettings settings;
        settings.port = *busy;
        settings.save();

        // As the application starts: the endpoint first, then the database opens.
        QTemporaryDir dir;
        MainWindow window;
        window.serveAmqp();
        window.openDatabase(dir.filePath(QStringLiteral("start.db")));
        QTRY_VERIFY_WITH_TIMEOUT(window.client(), kWaitMs);
        QVERIFY(!window.amqp()->endpoint());
        MessageBar* bar = window.messageBar();
        QVERIFY(bar->isVisibleTo(&window));
        QVERIFY2(bar->text().contains(QStringLiteral("127.0.0.1:%1").arg(*busy)),
                 qPrintable(bar->text()));
        QVERIFY2(bar->text().contains(QStringLiteral("in use")), qPrintable(bar->text()));

        // The endpoint's dialog says it too, where the port is changed.
        QDialog* dialog = window.openAmqpSettings();
        QVERIFY(dialog);
        auto* problem = dialog->findChild<QLabel*>(QStringLiteral("amqpProblem"));
        QVERIFY(problem);
        QVERIFY(problem->isVisibleTo(dialog));
        QVERIFY2(problem->text().contains(QString::number(*busy)), qPrintable(problem->text()));
        dialog->reject();

        // Serving, the dialog has nothing to say.
        settings.port = 0;
        window.amqp()->apply(settings);
        QVERIFY(window.amqp()->endpoint());
        dialog = window.openAmqpSettings();
        QVERIFY(!dialog->findChild<QLabel*>(QStringLiteral("amqpProblem")));
        dialog->reject();
    }

    void acceptedHostsAreSavedWithTheEndpointSettings() {
        AmqpSettings settings;
        settings.port = 0;
        settings.save();
        QTemporaryDir dir;
        MainWindow window;
        window.serveAmqp();
        window.setClient(std::make_unique<BrokerClient>(
            testing::openUiTestBroker(dir, std::make_shared<VirtualClock>())));
        QVERIFY(window.amqp()->endpoint());
        QVERIFY(window.amqp()->endpoint()->options().acceptedHosts.isEmpty());

        QDialog* dialog = window.openAmqpSettings();
        auto* hosts = dialog->findChild<QLineEdit*>(QStringLiteral("amqpAcceptedHosts"));
        QVERIFY(hosts);
        QVERIFY(hosts->text().isEmpty());
        hosts->setText(
            QStringLiteral("Host.Docker.Internal, containers.local host.docker.internal"));
        auto* buttons = dialog->findChild<QDialogButtonBox*>();
        QTest::mouseClick(buttons->button(QDialogButtonBox::Ok), Qt::LeftButton);

        const QStringList expected{QStringLiteral("host.docker.internal"),
                                   QStringLiteral("containers.local")};
        QCOMPARE(AmqpSettings::load().acceptedHosts, expected);
        // The endpoint restarted with them.
        QVERIFY(window.amqp()->endpoint());
        QCOMPARE(window.amqp()->endpoint()->options().acceptedHosts, expected);
        // And the dialog shows them next time.
        dialog = window.openAmqpSettings();
        QCOMPARE(dialog->findChild<QLineEdit*>(QStringLiteral("amqpAcceptedHosts"))->text(),
                 QStringLiteral("host.docker.internal, containers.local"));
        dialog->reject();
    }

    void copyingANewNamespacesStringNeverWaitsOnTheDatabase() {
        AmqpSettings settings;
        settings.port = 0;
        settings.save();
        QTemporaryDir dir;
        std::shared_ptr<Broker> broker =
            testing::openUiTestBroker(dir, std::make_shared<VirtualClock>());
        MainWindow window;
        window.setClient(std::make_unique<BrokerClient>(broker));
        window.serveAmqp();
        QVERIFY(window.amqp()->endpoint());

        // A namespace made after the endpoint started has no key yet, and the database's
        // write lock is held elsewhere before anyone could make it.
        QVERIFY(broker->createNamespace({QStringLiteral("late"), Tier::Standard}));
        WriteLockHolder holder(dir.filePath(QStringLiteral("broker.db")));
        QVERIFY(holder.hold());

        auto* tree = window.findChild<QTreeView*>(QStringLiteral("namespaceTree"));
        QTRY_COMPARE(tree->model()->rowCount(), 2);
        const QModelIndexList hits =
            tree->model()->match(tree->model()->index(0, 0), NamespaceTreeModel::PathRole,
                                 QStringLiteral("late"), 1, Qt::MatchExactly);
        QVERIFY(!hits.isEmpty());
        tree->setCurrentIndex(hits.first());
        QTRY_COMPARE(window.selectedPath(), QStringLiteral("late"));
        QAction* copy = window.findChild<QAction*>(QStringLiteral("copyNamespaceConnectionString"));
        QApplication::clipboard()->clear();

        QElapsedTimer timer;
        timer.start();
        copy->trigger();
        QVERIFY2(timer.elapsed() < 1000,
                 qPrintable(QStringLiteral("the GUI thread waited %1 ms").arg(timer.elapsed())));
        QVERIFY(QApplication::clipboard()->text().isEmpty()); // the key is not made yet

        holder.release();
        QTRY_VERIFY_WITH_TIMEOUT(QApplication::clipboard()->text().startsWith(
                                     QStringLiteral("Endpoint=sb://localhost:")),
                                 kWaitMs);
        const QString copied = QApplication::clipboard()->text();
        QVERIFY(!copied.contains(QStringLiteral("SAS_KEY_VALUE")));
        QCOMPARE(copied, window.amqp()->endpoint()->connectionString(QStringLiteral("late")));
    }
};

QTEST_MAIN(UiAmqpSettingsTest)
#include "tst_ui_amqp_settings.moc"
