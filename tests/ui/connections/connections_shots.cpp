// connections_shots <directory>: pictures of View > Connections in the real window (offscreen),
// to look at before calling the view done. Not a test: nothing is asserted. Writes
//   dock-no-connections.png, dock-live.png, dock-off.png, dock-not-serving.png,
//   window-900x600.png, window-1280x800.png, window-1600x1000.png (two live clients, each
//   holding locks; the queue "orders" selected and its first message open, on the system clock:
//   window-1280x800.png is the README's resources/screenshots/amqp-connections.png),
//   receive-900x600-dock.png (Receive & settle holding three locks, the dock open: the window
//   must keep 900x600)
// Build it with `ninja -C build connections_shots`; run with QT_QPA_PLATFORM=offscreen.

#include "UiTestBroker.h"
#include "WireTestClient.h"
#include "common/BrokerClient.h"
#include "connections/AmqpService.h"
#include "connections/ConnectionsModel.h"
#include "connections/ConnectionsPanel.h"
#include "settle/HeldLocks.h"
#include "settle/LockPanel.h"
#include "tree/NamespaceTreeModel.h"
#include "window/EntityWorkspace.h"
#include "window/MainWindow.h"

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QDockWidget>
#include <QSettings>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTableView>
#include <QTest>
#include <QTextStream>
#include <QToolButton>
#include <QTreeView>

#include <memory>

using namespace hourglass;
using namespace hourglass::ui;
using hourglass::testing::WireTestClient;

namespace {

const QString kNamespace = QStringLiteral("sbemulatorns"); // the emulator's, as in the README
const QString kQueue = QStringLiteral("orders");
const QString kQueuePath = kNamespace + QLatin1Char(':') + kQueue;

// A picture of a state that did not come about would mislead: stop instead.
void require(bool ok, const char* what) {
    if (!ok)
        qFatal("connections_shots: %s", what);
}

bool save(QWidget* widget, const QDir& directory, const QString& name) {
    QCoreApplication::processEvents();
    const QString file = directory.filePath(name);
    const bool saved = widget->grab().save(file);
    QTextStream(stdout) << (saved ? "wrote " : "could not write ") << file << Qt::endl;
    return saved;
}

void selectQueue(MainWindow& window) {
    auto* tree = window.findChild<QTreeView*>(QStringLiteral("namespaceTree"));
    require(QTest::qWaitFor([tree] {
                return !tree->model()
                            ->match(tree->model()->index(0, 0), NamespaceTreeModel::PathRole,
                                    kQueuePath, 1, Qt::MatchExactly | Qt::MatchRecursive)
                            .isEmpty();
            }),
            "the queue in the tree");
    const QModelIndexList hits =
        tree->model()->match(tree->model()->index(0, 0), NamespaceTreeModel::PathRole, kQueuePath,
                             1, Qt::MatchExactly | Qt::MatchRecursive);
    if (!hits.isEmpty())
        tree->setCurrentIndex(hits.first());
    // As a user would before taking the picture: open the first message.
    auto* list = window.findChild<QTableView*>(QStringLiteral("messageList"));
    require(QTest::qWaitFor([list] { return list->model() && list->model()->rowCount() > 0; }),
            "the queue's messages listed");
    list->setCurrentIndex(list->model()->index(0, 1));
}

} // namespace

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    if (argc != 2) {
        QTextStream(stderr) << "usage: connections_shots <directory>" << Qt::endl;
        return 2;
    }
    QStandardPaths::setTestModeEnabled(true);
    QSettings().remove(QStringLiteral("amqp"));
    QSettings().remove(QStringLiteral("window"));
    QSettings().setValue(QStringLiteral("window/connectionsVisible"), true);
    AmqpSettings settings;
    settings.port = 0;
    settings.save();
    const QDir directory(QString::fromLocal8Bit(argv[1]));
    QDir().mkpath(directory.path());

    QTemporaryDir dir;
    // The system clock: the window live, as a user sees it with an application connected.
    auto broker = testing::openUiTestBroker(dir, nullptr, kNamespace);
    require(broker->createQueue(kQueue, {}).ok(), "createQueue");
    for (int i = 0; i < 12; ++i) {
        OutgoingMessage message;
        message.messageId = QStringLiteral("order-%1").arg(i);
        message.timeToLive = minutes(10);
        message.body = QStringLiteral("order %1").arg(i).toUtf8();
        require(broker->send(kQueue, message).ok(), "send");
    }
    MainWindow window;
    window.setClient(std::make_unique<BrokerClient>(std::move(broker)));
    window.serveAmqp();
    window.resize(1280, 800);
    window.show();
    require(QTest::qWaitForWindowExposed(&window), "the window shown");
    selectQueue(window);
    auto* dock = window.findChild<QDockWidget*>(QStringLiteral("connectionsDock"));
    auto* panel = window.findChild<ConnectionsPanel*>(QStringLiteral("connectionsView"));
    panel->refresh();
    save(dock, directory, QStringLiteral("dock-no-connections.png"));

    const quint16 port = window.amqp()->endpoint()->snapshot().port;
    {
        WireTestClient first({port, kQueue, QStringLiteral("billing-service"), 5});
        WireTestClient second({port, kQueue, QStringLiteral("shipping-worker"), 3});
        require(QTest::qWaitFor([&] { return first.held() + second.held() == 8; }, 10000),
                "the clients' locks");
        require(QTest::qWaitFor(
                    [&] {
                        panel->refresh();
                        const ConnectionsModel& model = *panel->model();
                        int locks = 0;
                        for (int c = 0; c < model.rowCount(); ++c)
                            for (int l = 0; l < model.rowCount(model.index(c, 0)); ++l)
                                locks += model.rowCount(model.index(l, 0, model.index(c, 0)));
                        return model.rowCount() == 2 && locks == 8;
                    },
                    10000),
                "the connections in the view");
        // The status bar counts connections once a second.
        auto* status = window.findChild<QToolButton*>(QStringLiteral("amqpStatus"));
        require(QTest::qWaitFor(
                    [status] { return status->text().endsWith(QStringLiteral("2 connections")); },
                    5000),
                "the status bar's count");
        save(dock, directory, QStringLiteral("dock-live.png"));
        for (const QSize size : {QSize(900, 600), QSize(1280, 800), QSize(1600, 1000)}) {
            window.resize(size);
            QTest::qWait(50); // a resize is laid out on the next turn of the event loop
            save(&window, directory,
                 QStringLiteral("window-%1x%2.png").arg(size.width()).arg(size.height()));
        }
        // Receive & settle at 900x600 with the dock open: the window keeps its size and the
        // held locks show at least three rows.
        window.workspace()->tabs()->setCurrentIndex(EntityWorkspace::ReceiveTab);
        LockPanel* locks = window.workspace()->locks();
        locks->findChild<QSpinBox*>(QStringLiteral("lockCount"))->setValue(3);
        locks->findChild<QAction*>(QStringLiteral("lockReceive"))->trigger();
        require(QTest::qWaitFor([&] { return locks->locks()->rowCount() == 3; }), "three locks");
        window.resize(900, 600);
        QTest::qWait(50);
        QTextStream(stdout) << "window at 900x600 with the dock: " << window.width() << "x"
                            << window.height() << " (minimum " << window.minimumSizeHint().width()
                            << "x" << window.minimumSizeHint().height() << ")" << Qt::endl;
        save(&window, directory, QStringLiteral("receive-900x600-dock.png"));
        window.workspace()->tabs()->setCurrentIndex(EntityWorkspace::MessagesTab);
        window.resize(1280, 800);
    }

    AmqpSettings off = window.amqp()->settings();
    off.enabled = false;
    window.amqp()->apply(off);
    panel->refresh();
    save(dock, directory, QStringLiteral("dock-off.png"));

    // Another endpoint holds the port the window is told to use.
    QTemporaryDir otherDir;
    auto other = testing::openUiTestBroker(otherDir, std::make_shared<VirtualClock>());
    amqp::EndpointOptions options;
    options.port = 0;
    amqp::AmqpEndpoint occupying(*other, options);
    const auto busy = occupying.start();
    require(busy.ok(), "another endpoint");
    AmqpSettings blocked = off;
    blocked.enabled = true;
    blocked.port = *busy;
    window.amqp()->apply(blocked);
    panel->refresh();
    save(dock, directory, QStringLiteral("dock-not-serving.png"));
    return 0;
}
