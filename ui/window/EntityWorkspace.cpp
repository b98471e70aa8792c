#include "window/EntityWorkspace.h"

#include "common/BrokerClient.h"
#include "deadletter/DeadLetterPanel.h"
#include "demo/EntityChartsPanel.h"
#include "messages/MessageDetailPanel.h"
#include "messages/MessageListPanel.h"
#include "messages/MessageViewModel.h"
#include "messages/PeekPanel.h"
#include "settle/LockPanel.h"

#include <QAction>
#include <QItemSelectionModel>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStackedWidget>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

namespace hourglass::ui {

namespace {
// Panel shortcuts act where the panel has focus: the list's Delete and the dead-letter panel's
// Delete must not collide, nor with the tree's.
void scopeShortcuts(QWidget* panel) {
    for (QAction* action : panel->actions())
        action->setShortcutContext(Qt::WidgetWithChildrenShortcut);
}
} // namespace

EntityWorkspace::EntityWorkspace(BrokerClient& client, QWidget* parent)
    : QWidget(parent)
    , m_stack(new QStackedWidget)
    , m_empty(new QLabel(tr("Select a queue, a topic, a subscription or a dead-letter queue")))
    , m_splitter(new QSplitter(Qt::Vertical))
    , m_tabs(new QTabWidget)
    , m_messages(new MessageListPanel(client))
    , m_peek(new PeekPanel(client))
    , m_locks(new LockPanel(client))
    , m_deadLetters(new DeadLetterPanel(client))
    , m_charts(new EntityChartsPanel(client))
    , m_detail(new MessageDetailPanel(client)) {
    setObjectName(QStringLiteral("entityWorkspace"));
    m_empty->setObjectName(QStringLiteral("workspaceEmpty"));
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setEnabled(false);
    m_tabs->setObjectName(QStringLiteral("entityTabs"));
    m_tabs->setDocumentMode(true);
    m_tabs->insertTab(MessagesTab, m_messages, tr("Messages"));
    m_tabs->insertTab(PeekTab, m_peek, tr("Peek"));
    m_tabs->insertTab(ReceiveTab, m_locks, tr("Receive && settle"));
    m_tabs->insertTab(DeadLettersTab, m_deadLetters, tr("Dead letters"));
    m_tabs->insertTab(ChartsTab, m_charts, tr("Charts"));
    m_tabs->setTabToolTip(ChartsTab, tr("Counts and throughput over engine time, dead-letter "
                                        "reasons; save as PNG"));
    m_tabs->setTabToolTip(MessagesTab, tr("Every message, live, with filter and search"));
    m_tabs->setTabToolTip(PeekTab, tr("Browse N at a time without locking (L12)"));
    m_tabs->setTabToolTip(ReceiveTab, tr("Receive as named receivers; complete, abandon, "
                                         "dead-letter, defer, renew"));
    m_tabs->setTabToolTip(DeadLettersTab, tr("Why messages were dead-lettered; resubmit, purge"));
    for (QWidget* panel : {static_cast<QWidget*>(m_messages), static_cast<QWidget*>(m_peek),
                           static_cast<QWidget*>(m_locks), static_cast<QWidget*>(m_deadLetters),
                           static_cast<QWidget*>(m_charts)})
        scopeShortcuts(panel);

    m_splitter->setObjectName(QStringLiteral("messageSplitter"));
    m_splitter->addWidget(m_tabs);
    m_splitter->addWidget(m_detail);
    m_splitter->setChildrenCollapsible(false);
    m_splitter->setStretchFactor(0, 3);
    m_splitter->setStretchFactor(1, 2);
    m_stack->addWidget(m_empty);
    m_stack->addWidget(m_splitter);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_stack);

    connect(m_messages, &MessageListPanel::messageSelected, m_detail,
            &MessageDetailPanel::showMessage);
    connect(m_peek, &PeekPanel::messageSelected, m_detail, &MessageDetailPanel::showMessage);
    connect(m_locks, &LockPanel::messageSelected, m_detail, &MessageDetailPanel::showMessage);
    followDeadLetterSelection();
    // What a tab shows in the detail belongs to that tab: a new tab starts with an empty one.
    connect(m_tabs, &QTabWidget::currentChanged, this, [this](int tab) {
        m_detail->clear();
        if (tab == PeekTab)
            updatePeek();
    });

    connect(m_messages, &MessageListPanel::errorOccurred, this, &EntityWorkspace::errorOccurred);
    connect(m_messages, &MessageListPanel::statusMessage, this, &EntityWorkspace::statusMessage);
    connect(m_peek, &PeekPanel::errorOccurred, this, &EntityWorkspace::errorOccurred);
    connect(m_peek, &PeekPanel::statusMessage, this, &EntityWorkspace::statusMessage);
    connect(m_locks, &LockPanel::errorOccurred, this, &EntityWorkspace::errorOccurred);
    connect(m_locks, &LockPanel::statusMessage, this, &EntityWorkspace::statusMessage);
    connect(m_deadLetters, &DeadLetterPanel::errorOccurred, this, &EntityWorkspace::errorOccurred);
    connect(m_deadLetters, &DeadLetterPanel::statusMessage, this, &EntityWorkspace::statusMessage);
}

void EntityWorkspace::followDeadLetterSelection() {
    // The dead-letter panel shows reasons rather than a detail of its own: its current row
    // opens in the shared detail panel.
    QTableView* view = m_deadLetters->view();
    connect(view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) {
                if (!current.isValid())
                    return;
                const QModelIndex source = m_deadLetters->proxy()->mapToSource(current);
                if (!source.isValid() || source.row() >= m_deadLetters->model()->rowCount())
                    return;
                m_detail->showMessage(
                    m_deadLetters->deadLetterPath(),
                    m_deadLetters->model()->messageAt(source.row()).sequenceNumber);
            });
}

void EntityWorkspace::setEntity(const QString& qualifiedPath, NodeKind kind) {
    m_path = qualifiedPath;
    m_kind = kind;
    m_detail->clear();
    const bool entity = !qualifiedPath.isEmpty() && kind != NodeKind::Namespace;
    m_stack->setCurrentWidget(entity ? static_cast<QWidget*>(m_splitter) : m_empty);
    // A topic's list holds only its scheduled messages: its subscriptions hold the rest.
    m_messages->setPath(entity ? qualifiedPath : QString());
    // A peek counts as activity (A2) and would keep a temporary entity alive: the peek panel
    // gets the entity only when its tab is shown, that is when the user asks for a peek.
    m_peekPending = true;
    if (m_tabs->currentIndex() == PeekTab)
        updatePeek();
    m_locks->setEntity(entity ? qualifiedPath : QString(), kind);
    m_deadLetters->setEntity(entity ? qualifiedPath : QString(), kind);
    m_charts->setEntity(entity ? qualifiedPath : QString(), kind);
    // Receiving is for queues, subscriptions and dead-letter queues; a topic hands messages on.
    m_tabs->setTabEnabled(ReceiveTab, kind != NodeKind::Topic);
    m_tabs->setTabEnabled(DeadLettersTab, kind != NodeKind::Topic);
    if (kind == NodeKind::DeadLetterQueue && m_tabs->currentIndex() == MessagesTab)
        return; // the list shows the dead-letter queue's messages already
    if (!m_tabs->isTabEnabled(m_tabs->currentIndex()))
        m_tabs->setCurrentIndex(MessagesTab);
}

void EntityWorkspace::updatePeek() {
    if (!m_peekPending)
        return;
    m_peekPending = false;
    const bool entity = !m_path.isEmpty() && m_kind != NodeKind::Namespace;
    m_peek->setEntity(entity ? m_path : QString(), m_kind);
}

void EntityWorkspace::showTab(Tab tab) {
    if (m_tabs->isTabEnabled(tab))
        m_tabs->setCurrentIndex(tab);
}

} // namespace hourglass::ui
