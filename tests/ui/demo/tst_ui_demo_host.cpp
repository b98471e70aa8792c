// The demo tools over a window that is not the main window: ScenarioController and
// PresentationMode know the window only through DemoHost, so a host made here runs them. A
// scenario plays on its own database in the host (dock, tree width, title) and closing it
// reopens the host's database; a bad file and a presentation's errors go to the host's message
// bar; presentation mode shows the host's selection.

#include "UiTestBroker.h"
#include "common/BrokerClient.h"
#include "demo/DemoHost.h"
#include "demo/PresentationMode.h"
#include "demo/PresentationView.h"
#include "demo/ScenarioController.h"
#include "demo/ScenarioSession.h"

#include <QDockWidget>
#include <QMainWindow>
#include <QTemporaryDir>
#include <QTest>

using namespace hourglass;
using namespace hourglass::ui;

namespace {

// A window that keeps what the demo tools asked of it.
class RecordingHost : public QMainWindow, public DemoHost {
public:
    QMainWindow& hostWindow() override { return *this; }
    BrokerClient* client() const override { return m_client.get(); }
    void setClient(std::unique_ptr<BrokerClient> client) override {
        calls << (client ? QStringLiteral("setClient") : QStringLiteral("setClient(none)"));
        m_client = std::move(client);
    }
    void showScenarioClient(std::unique_ptr<BrokerClient> client, const QString& title) override {
        calls << QStringLiteral("showScenarioClient ") + title;
        m_client = std::move(client);
    }
    void openDatabase(const QString& path) override {
        calls << QStringLiteral("openDatabase ") + path;
    }
    NamespaceTreePanel* tree() const override { return nullptr; }
    TimeControlBar* timeBar() const override { return nullptr; }
    QString selectedPath() const override { return selected; }
    NamespaceTreeModel::NodeKind selectedKind() const override {
        return NamespaceTreeModel::NodeKind::Queue;
    }
    void showError(const Error& error, const QString& context) override {
        errors << context + QStringLiteral(": ") + error.description;
    }
    void giveTreeItsWidth() override { calls << QStringLiteral("giveTreeItsWidth"); }

    QStringList calls;
    QStringList errors;
    QString selected;

private:
    std::unique_ptr<BrokerClient> m_client;
};

const QString kTrafficSpike = QStringLiteral(":/scenarios/traffic-spike.json");

} // namespace

class TestUiDemoHost : public QObject {
    Q_OBJECT
private slots:
    void aScenarioPlaysInTheHostAndGivesItsDatabaseBack() {
        QTemporaryDir dir;
        auto broker = testing::openUiTestBroker(dir, std::make_shared<VirtualClock>());
        const QString userDatabase = broker->databasePath();
        RecordingHost host;
        host.setClient(std::make_unique<BrokerClient>(std::move(broker)));
        host.resize(1024, 700);
        host.show();
        ScenarioController scenarios(host);

        scenarios.openFile(kTrafficSpike);
        // Shown once its database is ready, titled after it; the dock took the tree's room.
        QTRY_COMPARE(host.calls.filter(QStringLiteral("showScenarioClient ")).size(), 1);
        QVERIFY2(host.calls.contains(QStringLiteral("showScenarioClient Traffic spike")),
                 qPrintable(host.calls.join(u'|')));
        QTRY_VERIFY2(host.calls.contains(QStringLiteral("giveTreeItsWidth")),
                     qPrintable(host.calls.join(u'|')));
        QVERIFY(host.client());
        QCOMPARE(scenarios.dock()->parent(), static_cast<QObject*>(&host));
        QVERIFY(scenarios.dock()->isVisible());

        host.calls.clear();
        scenarios.close();
        QCOMPARE(host.calls, QStringList({QStringLiteral("setClient(none)"),
                                          QStringLiteral("openDatabase ") + userDatabase}));
        QVERIFY(!scenarios.dock()->isVisible());
    }

    void aBadScenarioFileGoesToTheHostsMessageBar() {
        RecordingHost host;
        ScenarioController scenarios(host);
        const QString missing = QStringLiteral(":/scenarios/no-such-scenario.json");
        scenarios.openFile(missing);
        QTRY_COMPARE(host.errors.size(), 1);
        QVERIFY2(host.errors.first().startsWith(QStringLiteral("Cannot play ") + missing),
                 qPrintable(host.errors.first()));
        QVERIFY(host.calls.isEmpty());
    }

    void presentationModeShowsTheHostsSelection() {
        QTemporaryDir dir;
        RecordingHost host;
        ScenarioController scenarios(host);
        PresentationMode presentation(host, scenarios);
        presentation.enter(); // no database: nothing to present
        QVERIFY(!presentation.view());

        host.setClient(std::make_unique<BrokerClient>(
            testing::openUiTestBroker(dir, std::make_shared<VirtualClock>())));
        host.selected = QStringLiteral("test:orders");
        presentation.enter();
        QVERIFY(presentation.view());
        QCOMPARE(presentation.view()->entityPath(), QStringLiteral("test:orders"));
        presentation.leave();
        QTRY_VERIFY(!presentation.view());
    }
};

QTEST_MAIN(TestUiDemoHost)
#include "tst_ui_demo_host.moc"
