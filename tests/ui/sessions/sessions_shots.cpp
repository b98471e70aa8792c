// sessions_shots <directory>: pictures of sessions in the real window (offscreen), to look at
// before calling the work done. Not a test: nothing is asserted. On a session queue "orders"
// (three customers, one session held by worker-1 with a JSON state, one by worker-2) writes
//   sessions-900x600.png, sessions-1280x800.png (the Sessions tab, ana's state shown),
//   receive-900x600.png, receive-1280x800.png (Receive & settle: worker-1 holding its session
//   with two message locks), receive-guidance.png (a plain Receive led to accepting a session),
//   sessions-empty-plain.png (a queue without sessions), state-dialog.png (the state editor
//   asking for its confirmation), state-dialog-dark.png (the same in the dark theme),
//   tree-1280x800.png (the Messages tab filtered to a session), messages-1280x800.png (the
//   Messages tab with its Session column), charts-900x600.png (the Charts tab with the session
//   counts), presentation-1280x800.png (presentation mode's header with the session counts).
// Build it with `ninja -C build sessions_shots`; run with QT_QPA_PLATFORM=offscreen.

#include "UiTestBroker.h"
#include "common/BrokerClient.h"
#include "common/Theme.h"
#include "demo/PresentationMode.h"
#include "demo/PresentationView.h"
#include "messages/MessageListPanel.h"
#include "sessions/SessionListModel.h"
#include "sessions/SessionStateDialog.h"
#include "sessions/SessionsPanel.h"
#include "settle/HeldLocks.h"
#include "settle/HeldSessions.h"
#include "settle/LockPanel.h"
#include "tree/NamespaceTreeModel.h"
#include "window/EntityWorkspace.h"
#include "window/MainWindow.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTest>
#include <QTextStream>
#include <QTreeView>

using namespace hourglass;
using namespace hourglass::ui;

namespace {

const QString kNamespace = QStringLiteral("shop");

void require(bool ok, const char* what) {
    if (!ok)
        qFatal("sessions_shots: %s", what);
}

void save(QWidget* widget, const QDir& directory, const QString& name) {
    QTest::qWait(300); // a couple of countdown ticks and the layout settled
    const QString file = directory.filePath(name);
    const bool saved = widget->grab().save(file);
    QTextStream(stdout) << (saved ? "wrote " : "could not write ") << file << Qt::endl;
}

void select(MainWindow& window, const QString& path) {
    auto* tree = window.findChild<QTreeView*>(QStringLiteral("namespaceTree"));
    const QString qualified = kNamespace + QLatin1Char(':') + path;
    auto find = [&] {
        return tree->model()->match(tree->model()->index(0, 0), NamespaceTreeModel::PathRole,
                                    qualified, 1, Qt::MatchExactly | Qt::MatchRecursive);
    };
    require(QTest::qWaitFor([&] { return !find().isEmpty(); }), "the entity in the tree");
    tree->setCurrentIndex(find().first());
}

} // namespace

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    if (argc != 2) {
        QTextStream(stderr) << "usage: sessions_shots DIRECTORY" << Qt::endl;
        return 2;
    }
    QStandardPaths::setTestModeEnabled(true);
    QSettings().remove(QStringLiteral("window"));
    const QDir directory(QString::fromLocal8Bit(argv[1]));
    QDir().mkpath(directory.path());

    QTemporaryDir dir;
    auto broker = testing::openUiTestBroker(dir, nullptr, kNamespace);
    EntityProperties sessionful = EntityProperties::defaults(Tier::Standard);
    sessionful.requiresSession = true;
    sessionful.lockDuration = minutes(2);
    require(broker->createQueue(QStringLiteral("orders"), sessionful).ok(), "createQueue orders");
    require(broker->createQueue(QStringLiteral("outbox"), {}).ok(), "createQueue outbox");
    const QStringList customers{QStringLiteral("ana"), QStringLiteral("ben"),
                                QStringLiteral("cho")};
    for (int order = 1; order <= 4; ++order)
        for (const QString& customer : customers) {
            if (customer == QStringLiteral("cho") && order > 2)
                continue;
            OutgoingMessage m;
            m.messageId = QStringLiteral("%1-%2").arg(customer).arg(order);
            m.sessionId = customer;
            m.contentType = QStringLiteral("application/json");
            m.body = QStringLiteral("{\"customer\":\"%1\",\"order\":%2}")
                         .arg(customer)
                         .arg(order)
                         .toUtf8();
            require(broker->send(QStringLiteral("orders"), m).ok(), "send");
        }
    auto ana = broker->acceptSession(QStringLiteral("orders"),
                                     {QStringLiteral("worker-1"), QStringLiteral("ana")});
    require(ana.ok(), "accept ana");
    require(broker
                ->setSessionState(SessionRef::of(*ana),
                                  QByteArray("{\"shipped\":1,\"next\":2,\"carrier\":\"dhl\"}"))
                .ok(),
            "state");
    require(broker->receiveFromSession(SessionRef::of(*ana), ReceiveMode::PeekLock, 1).ok(),
            "receive ana-1");
    require(broker
                ->acceptSession(QStringLiteral("orders"),
                                {QStringLiteral("worker-2"), QStringLiteral("ben")})
                .ok(),
            "accept ben");

    MainWindow window;
    window.setClient(std::make_unique<BrokerClient>(std::move(broker)));
    window.resize(1280, 800);
    window.show();
    require(QTest::qWaitForWindowExposed(&window), "the window shown");
    select(window, QStringLiteral("orders"));
    EntityWorkspace* workspace = window.workspace();
    QTabWidget* tabs = workspace->tabs();
    require(QTest::qWaitFor([&] { return tabs->isTabEnabled(EntityWorkspace::SessionsTab); }),
            "the Sessions tab enabled");
    tabs->setCurrentIndex(EntityWorkspace::SessionsTab);
    SessionsPanel* sessions = workspace->sessions();
    require(QTest::qWaitFor([&] { return sessions->model()->rowCount() == 3; }), "3 sessions");
    sessions->selectSession(QStringLiteral("ana"));
    require(QTest::qWaitFor([&] { return sessions->shownState().has_value(); }), "ana's state");
    for (const QSize size : {QSize(900, 600), QSize(1280, 800)}) {
        window.resize(size);
        save(&window, directory,
             QStringLiteral("sessions-%1x%2.png").arg(size.width()).arg(size.height()));
    }

    sessions->editState();
    auto* dialog = window.findChild<SessionStateDialog*>(QStringLiteral("sessionStateDialog"));
    require(dialog != nullptr, "the state dialog");
    dialog->findChild<QPlainTextEdit*>(QStringLiteral("stateEdit"))
        ->setPlainText(QStringLiteral("{\n    \"shipped\": 2,\n    \"next\": 3\n}"));
    dialog->findChild<QPushButton*>(QStringLiteral("stateApply"))->click();
    save(dialog, directory, QStringLiteral("state-dialog.png"));
    dialog->reject();
    // The first dialog deletes itself on close: gone before the second is looked for.
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    applyTheme(ThemeChoice::Dark);
    sessions->editState();
    dialog = window.findChild<SessionStateDialog*>(QStringLiteral("sessionStateDialog"));
    require(dialog != nullptr, "the state dialog (dark)");
    save(dialog, directory, QStringLiteral("state-dialog-dark.png"));
    dialog->reject();
    applyTheme(ThemeChoice::Light);

    // The Messages tab with its Session column; the Charts tab with the session counts.
    tabs->setCurrentIndex(EntityWorkspace::MessagesTab);
    save(&window, directory, QStringLiteral("messages-1280x800.png"));
    tabs->setCurrentIndex(EntityWorkspace::ChartsTab);
    window.resize(900, 600);
    save(&window, directory, QStringLiteral("charts-900x600.png"));
    window.resize(1280, 800);

    // Receive & settle: worker-1 accepts cho (named) and receives two of its orders.
    tabs->setCurrentIndex(EntityWorkspace::ReceiveTab);
    LockPanel* locks = workspace->locks();
    require(QTest::qWaitFor([&] { return locks->requiresSession(); }), "the session controls");
    locks->findChild<QComboBox*>(QStringLiteral("lockReceiver"))
        ->setEditText(QStringLiteral("worker-3"));
    locks->findChild<QAction*>(QStringLiteral("lockReceive"))->trigger();
    save(&window, directory, QStringLiteral("receive-guidance.png"));
    locks->findChild<QLineEdit*>(QStringLiteral("sessionToAccept"))->setText(QStringLiteral("cho"));
    locks->findChild<QAction*>(QStringLiteral("sessionAccept"))->trigger();
    require(QTest::qWaitFor([&] { return locks->sessions()->rowCount() == 1; }), "cho accepted");
    locks->findChild<QSpinBox*>(QStringLiteral("lockCount"))->setValue(2);
    locks->findChild<QAction*>(QStringLiteral("lockReceive"))->trigger();
    require(QTest::qWaitFor([&] { return locks->locks()->rowCount() == 2; }), "two locks");
    for (const QSize size : {QSize(900, 600), QSize(1280, 800)}) {
        window.resize(size);
        save(&window, directory,
             QStringLiteral("receive-%1x%2.png").arg(size.width()).arg(size.height()));
    }

    // The Messages tab filtered to one session.
    tabs->setCurrentIndex(EntityWorkspace::SessionsTab);
    sessions->selectSession(QStringLiteral("ben"));
    sessions->findChild<QPushButton*>(QStringLiteral("sessionShowMessages"))->click();
    require(QTest::qWaitFor([&] { return workspace->messages()->isFiltered(); }), "filtered");
    save(&window, directory, QStringLiteral("tree-1280x800.png"));

    // Presentation mode on the session queue.
    window.presentation()->enter();
    PresentationView* presentation = window.presentation()->view();
    require(QTest::qWaitFor([&] {
                auto* line =
                    presentation->findChild<QWidget*>(QStringLiteral("presentationSessions"));
                return line && line->isVisible();
            }),
            "the session counts in presentation mode");
    presentation->resize(1280, 800);
    save(presentation, directory, QStringLiteral("presentation-1280x800.png"));
    window.presentation()->leave();

    select(window, QStringLiteral("outbox"));
    require(QTest::qWaitFor([&] { return !tabs->isTabEnabled(EntityWorkspace::SessionsTab); }),
            "the Sessions tab off for outbox");
    workspace->sessions()->setEntity(kNamespace + QStringLiteral(":outbox"));
    sessions->show();
    QTest::qWait(200);
    save(sessions, directory, QStringLiteral("sessions-empty-plain.png"));
    return 0;
}
