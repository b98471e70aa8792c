#include "window/EntityWorkspace.h"

#include "common/BrokerClient.h"
#include "deadletter/DeadLetterPanel.h"
#include "demo/EntityChartsPanel.h"
#include "messages/MessageDetailPanel.h"
#include "messages/MessageListPanel.h"
#include "messages/MessageViewModel.h"
#include "messages/PeekPanel.h"
#include "routing/RoutingPreviewPanel.h"
#include "sessions/SessionsPanel.h"
#include "settle/LockPanel.h"
#include "tree/EntityPanel.h"

#include <QAbstractItemView>
#include <QAction>
#include <QLabel>
#include <QScrollArea>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStackedWidget>
#include <QTabBar>
#include <QTabWidget>
#include <QTimer>
#include <QVBoxLayout>

#include <utility>

namespace hourglass::ui {

namespace {
// Panel shortcuts act where the panel has focus: the list's Delete and the dead-letter panel's
// Delete must not collide, nor with the tree's.
void scopeShortcuts(QWidget* panel) {
    for (QAction* action : panel->actions())
        action->setShortcutContext(Qt::WidgetWithChildrenShortcut);
}
} // namespace

namespace {
// Between two panels built after the workspace. A timer, not a posted event: the loop handles
// everything posted in one go, so panels built through posted events would add up to one long
// stretch again; a timer lets input and paints in between.
constexpr int kPanelBuildPause = 1;

// What a tab gives the keyboard focus to: its first list (a table or tree) with rows in it, so
// that the arrow keys work at once; without one, its first field or button, in Tab order.
QWidget* mainWidgetOf(QWidget* page) {
    QWidget* firstField = nullptr;
    for (QWidget* widget = page->nextInFocusChain(); widget != page;
         widget = widget->nextInFocusChain()) {
        if (!page->isAncestorOf(widget) || !widget->isVisible() || !widget->isEnabled() ||
            !(widget->focusPolicy() & Qt::TabFocus))
            continue;
        const auto* list = qobject_cast<const QAbstractItemView*>(widget);
        if (list && list->model() && list->model()->rowCount() > 0)
            return widget;
        // A page's scrolled content (the charts) before its controls: the arrow keys scroll it.
        if (qobject_cast<const QScrollArea*>(widget))
            return widget;
        if (!firstField)
            firstField = widget;
    }
    return firstField;
}

// A scroll area gives a widget whose layout has height-for-width (the panel's word-wrapped
// status line) that height, its preferred one, and would scroll a panel that fits. This holder
// says it has none: the panel gets the viewport's height, or its minimum when that is more.
class HeightOfViewport : public QWidget {
public:
    explicit HeightOfViewport(QWidget* panel) {
        auto* layout = new QVBoxLayout(this);
        layout->setContentsMargins(0, 0, 0, 0);
        layout->addWidget(panel);
    }
    int heightForWidth(int) const override { return -1; }
};
} // namespace

EntityWorkspace::EntityWorkspace(BrokerClient& client, QWidget* parent)
    : QWidget(parent)
    , m_client(client)
    , m_stack(new QStackedWidget)
    , m_empty(new QLabel(tr("Select a queue, a topic, a subscription or a dead-letter queue")))
    , m_splitter(new QSplitter(Qt::Vertical))
    , m_tabs(new QTabWidget)
    , m_messages(new MessageListPanel(client))
    , m_detail(new MessageDetailPanel(client))
    , m_routing(new RoutingPreviewPanel(client))
    , m_detailTabs(new QTabWidget) {
    setObjectName(QStringLiteral("entityWorkspace"));
    m_empty->setObjectName(QStringLiteral("workspaceEmpty"));
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setEnabled(false);
    m_tabs->setObjectName(QStringLiteral("entityTabs"));
    m_tabs->setDocumentMode(true);
    m_panels.resize(SessionsTab + 1);
    m_tabs->insertTab(MessagesTab, m_messages, tr("Messages"));
    // The other tabs' panels are built after this, one a turn of the event loop (or at once
    // when asked for): all of them at once kept the window from answering for longer than a
    // frame when a namespace opened.
    m_tabs->insertTab(PeekTab, pageHolder(QStringLiteral("peekPage")), tr("Peek"));
    // Receive & settle keeps what a plain entity needs in view (its controls and three held
    // locks: LockPanel's minimum as built, without the session rows); on an entity that
    // requires sessions the session bar and the held sessions come on top, and the panel
    // scrolls in a short window rather than make the window grow (its panel: buildPanel).
    auto* lockScroll = new QScrollArea;
    lockScroll->setObjectName(QStringLiteral("lockScroll"));
    lockScroll->setWidgetResizable(true);
    lockScroll->setFrameShape(QFrame::NoFrame);
    m_tabs->insertTab(ReceiveTab, lockScroll, tr("Receive && settle"));
    m_tabs->insertTab(DeadLettersTab, pageHolder(QStringLiteral("deadLettersPage")),
                      tr("Dead letters"));
    m_tabs->insertTab(ChartsTab, pageHolder(QStringLiteral("chartsPage")), tr("Charts"));
    m_tabs->insertTab(SessionsTab, pageHolder(QStringLiteral("sessionsPage")), tr("Sessions"));
    m_tabs->setTabToolTip(SessionsTab, tr("Each session with its counts, holder, session lock "
                                          "and state (for entities that require sessions)"));
    m_tabs->setTabEnabled(SessionsTab, false);
    m_tabs->setTabToolTip(ChartsTab, tr("Counts and throughput over engine time, dead-letter "
                                        "reasons; save as PNG"));
    m_tabs->setTabToolTip(MessagesTab, tr("Every message, live, with filter and search"));
    m_tabs->setTabToolTip(PeekTab, tr("Browse N at a time without locking"));
    m_tabs->setTabToolTip(ReceiveTab, tr("Receive as named receivers; complete, abandon, "
                                         "dead-letter, defer, renew"));
    m_tabs->setTabToolTip(DeadLettersTab, tr("Why messages were dead-lettered; resubmit, purge"));
    adoptPanel(MessagesTab, m_messages);

    m_splitter->setObjectName(QStringLiteral("messageSplitter"));
    m_splitter->addWidget(m_tabs);
    m_detailTabs->setObjectName(QStringLiteral("detailTabs"));
    m_detailTabs->setDocumentMode(true);
    m_detailTabs->insertTab(MessageDetailTab, m_detail, tr("Message"));
    // The routing preview scrolls in a short window, as the message detail does (its own scroll
    // area), so that the detail tabs give way to the list above them.
    auto* routingScroll = new QScrollArea;
    routingScroll->setObjectName(QStringLiteral("routingScroll"));
    routingScroll->setWidgetResizable(true);
    routingScroll->setFrameShape(QFrame::NoFrame);
    routingScroll->setWidget(m_routing);
    m_detailTabs->insertTab(RoutingTab, routingScroll, tr("Routing"));
    m_detailTabs->setTabToolTip(RoutingTab, tr("Which subscriptions of a topic get this message, "
                                               "and why (each rule's verdict)"));
    // At 900x600 with the Connections dock open the detail keeps its tab bar and a line; the
    // list above it keeps what its tab needs (three held locks in Receive & settle), and the
    // window keeps the size it was given.
    m_detailTabs->setMinimumHeight(m_detailTabs->tabBar()->sizeHint().height() +
                                   fontMetrics().height() + 6);
    m_splitter->addWidget(m_detailTabs);
    m_splitter->setChildrenCollapsible(false);
    m_splitter->setStretchFactor(0, 3);
    m_splitter->setStretchFactor(1, 2);
    m_stack->addWidget(m_empty);
    m_stack->addWidget(m_splitter);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_stack);

    // The routing preview works on the message the detail has read (no second read).
    connect(m_detail, &MessageDetailPanel::loaded, this, [this](const MessageView& message) {
        if (const auto shown = m_detail->shown())
            m_routing->showStoredMessage(shown->path, message);
    });
    connect(m_detail, &MessageDetailPanel::emptied, m_routing, &RoutingPreviewPanel::clear);
    connect(m_tabs, &QTabWidget::currentChanged, this, [this](int tab) {
        buildPanel(Tab(tab));
        if (tab == PeekTab)
            updatePeek();
        // The charts and the sessions show no message: they get the detail's room.
        m_detailTabs->setVisible(tab != ChartsTab && tab != SessionsTab);
        sizeTabsToCurrent();
        syncDetail();
    });
    sizeTabsToCurrent();
    QTimer::singleShot(kPanelBuildPause, this, &EntityWorkspace::buildNextPanel);
}

QWidget* EntityWorkspace::pageHolder(const QString& name) {
    auto* page = new QWidget;
    page->setObjectName(name);
    auto* layout = new QVBoxLayout(page);
    layout->setContentsMargins(0, 0, 0, 0);
    return page;
}

void EntityWorkspace::buildNextPanel() {
    // The order a user is likeliest to want them in; Peek's panel waits for its tab anyway.
    for (Tab tab : {ReceiveTab, DeadLettersTab, PeekTab, SessionsTab, ChartsTab}) {
        if (m_panels.at(tab))
            continue;
        buildPanel(tab);
        QTimer::singleShot(kPanelBuildPause, this, &EntityWorkspace::buildNextPanel);
        return;
    }
}

EntityPanel* EntityWorkspace::buildPanel(Tab tab) const {
    if (tab < MessagesTab || tab > SessionsTab)
        return nullptr;
    if (EntityPanel* built = m_panels.at(tab))
        return built;
    // Building is not a change anybody sees from outside: the accessors stay const.
    auto* self = const_cast<EntityWorkspace*>(this);
    QWidget* page = m_tabs->widget(tab);
    EntityPanel* panel = nullptr;
    switch (tab) {
    case MessagesTab:
        return m_messages; // built with the workspace
    case PeekTab:
        panel = m_peek = new PeekPanel(m_client);
        break;
    case ReceiveTab: {
        m_locks = new LockPanel(m_client);
        panel = m_locks;
        auto* lockScroll = static_cast<QScrollArea*>(page);
        // At least the panel's minimum as built, and the line saying what the last receive or
        // settlement did (empty when built).
        lockScroll->setMinimumHeight(m_locks->minimumSizeHint().height() +
                                     fontMetrics().lineSpacing());
        lockScroll->setWidget(new HeightOfViewport(m_locks));
        break;
    }
    case DeadLettersTab:
        panel = m_deadLetters = new DeadLetterPanel(m_client);
        break;
    case ChartsTab:
        panel = m_charts = new EntityChartsPanel(m_client);
        break;
    case SessionsTab:
        panel = m_sessions = new SessionsPanel(m_client);
        break;
    }
    if (tab != ReceiveTab)
        page->layout()->addWidget(panel);
    self->adoptPanel(tab, panel);
    return panel;
}

void EntityWorkspace::adoptPanel(Tab tab, EntityPanel* panel) {
    m_panels[tab] = panel;
    scopeShortcuts(panel);
    // The detail follows the selected row of the visible tab: a hidden tab's list refreshing,
    // or a row going away under the current index, must not show another message.
    connect(panel, &EntityPanel::currentMessageChanged, this, &EntityWorkspace::queueDetailSync);
    if (tab == SessionsTab) {
        // The Sessions tab is there for an entity that requires sessions; the panel finds out.
        connect(m_sessions, &SessionsPanel::sessionsAvailable, this, [this](bool available) {
            m_tabs->setTabEnabled(SessionsTab, available);
            if (!available && m_tabs->currentIndex() == SessionsTab)
                m_tabs->setCurrentIndex(MessagesTab);
        });
        connect(m_sessions, &SessionsPanel::showMessagesRequested, this,
                [this](const QString& sessionId) {
                    m_messages->setFilterText(QStringLiteral("SessionId=") + sessionId);
                    showTab(MessagesTab);
                });
    }
    // A panel built after the selection gets it now (Peek's waits for its tab, as always).
    if (tab != PeekTab) {
        const bool entity = !m_path.isEmpty() && m_kind != NodeKind::Namespace;
        if (entity)
            panel->setEntity(m_path, m_kind);
    } else if (m_tabs->currentIndex() == PeekTab) {
        updatePeek();
    }
    for (const PanelFollower& follower : std::as_const(m_followers))
        if (follower.context)
            follower.each(tab, panel);
}

void EntityWorkspace::onEachPanel(QObject* context, std::function<void(Tab, EntityPanel*)> each) {
    for (int tab = MessagesTab; tab <= SessionsTab; ++tab)
        if (EntityPanel* built = m_panels.at(tab))
            each(Tab(tab), built);
    m_followers.append({context, std::move(each)});
}

std::optional<MessageRef> EntityWorkspace::visibleTabMessage() const {
    // The charts and the sessions show no message: none.
    const EntityPanel* panel = currentPanel();
    return panel ? panel->currentMessage() : std::nullopt;
}

EntityPanel* EntityWorkspace::currentPanel() const {
    return buildPanel(Tab(m_tabs->currentIndex()));
}

void EntityWorkspace::sizeTabsToCurrent() {
    // A tab widget is as tall as its tallest page needs, shown or not: the three held locks of
    // Receive & settle would take the message detail's room on the Messages tab too. The pages
    // not shown are left out of the sum (a stacked layout skips Ignored pages), so each tab
    // leaves the detail what it can.
    for (int index = 0; index < m_tabs->count(); ++index) {
        QWidget* page = m_tabs->widget(index);
        const QSizePolicy::Policy vertical =
            index == m_tabs->currentIndex() ? QSizePolicy::Preferred : QSizePolicy::Ignored;
        QSizePolicy policy = page->sizePolicy();
        if (policy.verticalPolicy() != vertical) {
            policy.setVerticalPolicy(vertical);
            page->setSizePolicy(policy);
        }
    }
}

void EntityWorkspace::queueDetailSync() {
    // Lists say "may have changed" often (every countdown repaint): one look per event loop
    // turn, once the list has finished updating its rows and selection.
    if (std::exchange(m_detailSyncQueued, true))
        return;
    QTimer::singleShot(0, this, [this] {
        m_detailSyncQueued = false;
        syncDetail();
    });
}

void EntityWorkspace::syncDetail() {
    m_detail->follow(m_stack->currentWidget() == m_splitter ? visibleTabMessage() : std::nullopt);
    // The lists say their selection may have changed through the same signal the detail follows.
    if (const qint64 count = selectedCount(); count != m_selectedCount) {
        m_selectedCount = count;
        emit selectedCountChanged(count);
    }
}

qint64 EntityWorkspace::selectedCount() const {
    if (m_stack->currentWidget() != m_splitter)
        return 0;
    const EntityPanel* panel = currentPanel();
    return panel ? panel->selectedCount() : 0;
}

void EntityWorkspace::setEntity(const QString& qualifiedPath, NodeKind kind) {
    m_path = qualifiedPath;
    m_kind = kind;
    m_detail->clear();
    const bool entity = !qualifiedPath.isEmpty() && kind != NodeKind::Namespace;
    m_stack->setCurrentWidget(entity ? static_cast<QWidget*>(m_splitter) : m_empty);
    // The Sessions tab's panel decides whether the tab is there: it hears of every selection.
    if (entity)
        buildPanel(SessionsTab);
    // A panel not built yet gets the selection when it is.
    for (EntityPanel* panel : std::as_const(m_panels))
        if (panel && panel != m_peek)
            panel->setEntity(entity ? qualifiedPath : QString(), kind);
    // A peek counts as activity (A2) and would keep a temporary entity alive: the peek panel
    // gets the entity only when its tab is shown, that is when the user asks for a peek.
    m_peekPending = true;
    if (m_tabs->currentIndex() == PeekTab)
        updatePeek();
    // Receiving is for queues, subscriptions and dead-letter queues; a topic hands messages on.
    m_tabs->setTabEnabled(ReceiveTab, kind != NodeKind::Topic);
    m_tabs->setTabEnabled(DeadLettersTab, kind != NodeKind::Topic);
    if (kind == NodeKind::DeadLetterQueue && m_tabs->currentIndex() == MessagesTab)
        return; // the list shows the dead-letter queue's messages already
    if (!m_tabs->isTabEnabled(m_tabs->currentIndex()))
        m_tabs->setCurrentIndex(MessagesTab);
}

void EntityWorkspace::updatePeek() {
    if (!m_peekPending || !m_peek)
        return;
    m_peekPending = false;
    const bool entity = !m_path.isEmpty() && m_kind != NodeKind::Namespace;
    m_peek->setEntity(entity ? m_path : QString(), m_kind);
}

void EntityWorkspace::showTab(Tab tab) {
    buildPanel(tab);
    if (m_tabs->isTabEnabled(tab))
        m_tabs->setCurrentIndex(tab);
}

void EntityWorkspace::focusTab(Tab tab) {
    showTab(tab);
    if (m_stack->currentWidget() != m_splitter || m_tabs->currentIndex() != tab)
        return;
    // A page with nothing to focus (an empty dead-letter queue) takes the focus itself: it is in
    // the tab all the same, and its shortcuts work.
    QWidget* page = m_tabs->widget(tab);
    QWidget* target = mainWidgetOf(page);
    (target ? target : page)->setFocus(Qt::ShortcutFocusReason);
    // Receive & settle scrolls in a short window: the focus is brought into view, as Tab does.
    if (auto* scroll = qobject_cast<QScrollArea*>(page); scroll && target)
        scroll->ensureWidgetVisible(target);
}

} // namespace hourglass::ui
