#include "window/RemoteNamespaceView.h"

#include "common/BrokerClient.h"
#include "entities/EntityActions.h"
#include "hourglass/remote/RemoteBroker.h"
#include "tree/NamespaceTreePanel.h"
#include "tree/SelectedNodeKind.h"
#include "window/EntityWorkspace.h"

#include <QDateTime>
#include <QEvent>
#include <QLabel>
#include <QStackedWidget>
#include <QTimer>
#include <QTreeView>
#include <QVBoxLayout>

namespace hourglass::ui {

namespace {
// How often the header's status line looks at the poll (when it last read the counts).
constexpr int kPollStateMs = 1000;
} // namespace

RemoteNamespaceView::RemoteNamespaceView(const SavedNamespace& saved, QWidget* dialogParent,
                                         QWidget* parent)
    : QWidget(parent)
    , m_saved(saved.withoutSecret())
    , m_dialogParent(dialogParent)
    , m_header(new NamespaceHeader(m_saved, this))
    , m_body(new QStackedWidget(this))
    , m_placeholder(new QLabel(this))
    , m_pollState(new QTimer(this)) {
    setObjectName(QStringLiteral("remoteNamespace-%1").arg(saved.id));
    m_placeholder->setObjectName(QStringLiteral("remoteTreePlaceholder"));
    m_placeholder->setWordWrap(true);
    m_placeholder->setAlignment(Qt::AlignCenter);
    m_placeholder->setEnabled(false);
    m_body->addWidget(m_placeholder);
    m_body->hide(); // only the header while not connected: the column stays the database's
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_header);
    layout->addWidget(m_body, 1);
    m_pollState->setInterval(kPollStateMs);
    connect(m_pollState, &QTimer::timeout, this, &RemoteNamespaceView::showPollState);
    connect(m_header, &NamespaceHeader::pollIntervalChosen, this,
            [this](std::chrono::milliseconds interval) {
                if (!m_remote)
                    return;
                m_remote->setPollInterval(interval);
                m_header->setPollInterval(interval);
            });
    // Marking the feed makes the tree list the entities and their counts again, at once.
    connect(m_header, &NamespaceHeader::refreshRequested, this, [this] {
        if (m_remote)
            m_remote->changes()->markNamespaces();
    });
    m_header->installEventFilter(this);
}

RemoteNamespaceView::~RemoteNamespaceView() {
    detach(Closing::Now);
}

QString RemoteNamespaceView::title() const {
    return m_saved.readOnly ? tr("%1 (remote, read-only)").arg(m_saved.name)
                            : tr("%1 (remote)").arg(m_saved.name);
}

void RemoteNamespaceView::attach(std::shared_ptr<Broker> broker) {
    detach();
    m_remote = dynamic_cast<remote::RemoteBroker*>(broker.get());
    m_client = std::make_unique<BrokerClient>(std::move(broker));
    m_client->setRemoteLabel(
        QStringLiteral("\"%1\" (%2)").arg(m_saved.name, m_saved.connection.displayName()));
    m_tree = new NamespaceTreePanel(*m_client);
    m_body->addWidget(m_tree);
    m_body->setCurrentWidget(m_tree);
    m_body->show();
    m_tree->view()->installEventFilter(this);
    m_tree->view()->viewport()->installEventFilter(this);
    m_workspace = new EntityWorkspace(*m_client);
    m_actions = new EntityActions(*m_client, m_dialogParent, this);
    connect(m_actions, &EntityActions::created, m_tree, &NamespaceTreePanel::selectWhenShown);
    connect(m_tree, &NamespaceTreePanel::entitySelected, this,
            [this](const QString& path, EntityKind kind, bool deadLetter) {
                select(path, selectedNodeKind(kind, deadLetter));
            });
    connect(m_tree, &NamespaceTreePanel::noEntitySelected, this, [this] {
        const QModelIndex current = m_tree->view()->currentIndex();
        select(current.isValid() ? current.data(NamespaceTreeModel::PathRole).toString()
                                 : QString(),
               NodeKind::Namespace);
    });
    if (m_remote) {
        m_header->setPollInterval(m_remote->pollInterval());
        m_breakSeen = m_remote->lastConnectionBreakAt();
    }
    m_header->setState(NamespaceHeader::State::Connected);
    showPollState();
    m_pollState->start();
    emit attached();
}

void RemoteNamespaceView::detach(Closing closing) {
    if (!m_client)
        return;
    emit detaching();
    m_pollState->stop();
    // Panels hold the client: they go first.
    delete m_actions;
    delete m_workspace;
    delete m_tree;
    m_actions = nullptr;
    m_workspace = nullptr;
    m_tree = nullptr;
    m_remote = nullptr;
    m_selectedPath.clear();
    m_selectedKind = NodeKind::Namespace;
    if (closing == Closing::Now)
        m_client.reset(); // waits for its calls, then closes the broker here
    else
        BrokerClient::retire(std::move(m_client));
    m_body->setCurrentWidget(m_placeholder);
    m_body->hide();
    m_header->setState(NamespaceHeader::State::Disconnected);
    emit detached();
}

void RemoteNamespaceView::select(const QString& path, NodeKind kind) {
    m_selectedPath = path;
    m_selectedKind = kind;
    m_actions->setSelection(path, kind);
    m_workspace->setEntity(kind == NodeKind::Namespace ? QString() : path, kind);
    emit activated();
}

void RemoteNamespaceView::showPollState() {
    if (!m_remote)
        return;
    m_header->setLastPoll(m_remote->lastPollAt(), m_remote->lastListError());
    m_header->setNamedOnly(m_remote->listsNamedOnly());
    const qint64 lostAt = m_remote->connectionLostAt();
    m_header->setConnectionLost(lostAt, lostAt > 0 ? m_remote->connectionProblem() : QString());
    // A break (even one already mended): the locks and sessions taken before it are gone.
    const qint64 broke = m_remote->lastConnectionBreakAt();
    if (broke != m_breakSeen) {
        m_breakSeen = broke;
        m_client->reportConnectionLost(
            broke, tr("The connection to %1 broke at %2; its locks were released.")
                       .arg(m_saved.name, QDateTime::fromMSecsSinceEpoch(broke).toString(
                                              QStringLiteral("HH:mm:ss"))));
    }
}

bool RemoteNamespaceView::eventFilter(QObject* watched, QEvent* event) {
    // A click in the tree or on the header brings this namespace's workspace, even on the row
    // already selected (which selects nothing new).
    if (event->type() == QEvent::MouseButtonPress || event->type() == QEvent::FocusIn) {
        if (m_client &&
            (watched == m_header ||
             (m_tree && (watched == m_tree->view() || watched == m_tree->view()->viewport()))))
            emit activated();
    }
    return QWidget::eventFilter(watched, event);
}

} // namespace hourglass::ui
