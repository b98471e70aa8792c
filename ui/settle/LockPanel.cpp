#include "settle/LockPanel.h"

#include "common/BrokerClient.h"
#include "common/BulkJob.h"
#include "common/BulkProgressBar.h"
#include "common/MessageTransferActions.h"
#include "messages/CountdownTicker.h"
#include "messages/MessageColumnLayouts.h"
#include "messages/MessageTable.h"
#include "messages/MessageViewModel.h"
#include "settle/HeldLocks.h"
#include "settle/HeldSessions.h"
#include "settle/LockAutoRenewer.h"
#include "settle/LockSettler.h"
#include "settle/SessionReceiverBar.h"

#include <QAction>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QFocusEvent>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QScrollBar>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QStackedWidget>
#include <QTableView>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <limits>

namespace hourglass::ui {

namespace {
// A button that shows and triggers an action, named after it for tests.
QToolButton* toolButtonFor(QAction* action, QWidget* parent) {
    auto* button = new QToolButton(parent);
    button->setObjectName(action->objectName());
    button->setDefaultAction(action);
    return button;
}
} // namespace

LockPanel::LockPanel(BrokerClient& client, QWidget* parent)
    : EntityPanel(parent)
    , m_client(client)
    , m_locks(new HeldLocks(client, this))
    , m_sessions(new HeldSessions(client, this))
    , m_renewer(new LockAutoRenewer(client, *m_locks, this))
    , m_title(new QLabel(this))
    , m_status(new QLabel(this))
    , m_bulkBar(new BulkProgressBar(this))
    , m_settler(new LockSettler(client, *m_locks, *m_bulkBar, this))
    , m_stack(new QStackedWidget(this))
    , m_view(new QTableView(m_stack))
    , m_empty(new QLabel(tr("No locks held. Receive to take messages."), m_stack)) {
    m_title->setObjectName(QStringLiteral("lockTitle"));
    QFont bold = m_title->font();
    bold.setBold(true);
    m_title->setFont(bold);
    m_status->setObjectName(QStringLiteral("lockStatus"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_view->setObjectName(QStringLiteral("lockList"));
    m_view->setModel(m_locks);
    prepareMessageTable(m_view);
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    // Tab leaves the table for the settle buttons (inside it, the arrow keys move).
    m_view->setTabKeyNavigation(false);
    m_view->installEventFilter(this);
    m_columns = arrangeMessageColumns(m_view, MessageTableKind::HeldLocks);
    // However short the window (900x600 with the Connections dock open), the held locks show at
    // least three rows: the panel's minimum height includes them, and the message detail under
    // it gives way (it scrolls).
    m_view->setMinimumHeight(m_view->horizontalHeader()->sizeHint().height() +
                             3 * m_view->verticalHeader()->defaultSectionSize() +
                             m_view->horizontalScrollBar()->sizeHint().height() +
                             2 * m_view->frameWidth());
    // Copy to… keeps a copy of a message in hand elsewhere; moving it would take it from under
    // its lock (the lock is lost), which settling does better.
    m_transfer = new MessageTransferActions(
        client, m_view,
        [this](QObject*, MessageTransferActions::Done done) {
            DraggedMessages selected{m_path, {}};
            for (const QModelIndex& row : m_view->selectionModel()->selectedRows())
                selected.sequenceNumbers.append(m_locks->sequenceNumberAt(row.row()));
            std::sort(selected.sequenceNumbers.begin(), selected.sequenceNumbers.end());
            done(selected);
        },
        MessageTransferActions::Offer::CopyOnly);
    connect(m_transfer, &MessageTransferActions::errorOccurred, this, &LockPanel::errorOccurred);
    connect(m_transfer, &MessageTransferActions::statusMessage, this, &LockPanel::statusMessage);
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            [this] { m_transfer->setEnabled(m_view->selectionModel()->hasSelection()); });
    m_transfer->addToContextMenu(this);
    m_empty->setObjectName(QStringLiteral("lockEmpty"));
    stackWithEmptyState(m_stack, m_view, m_empty);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_title);
    m_controlRows = {buildReceiveRow(), buildSettleRow(), buildDeferredRow()};
    for (QWidget* row : std::as_const(m_controlRows))
        layout->addWidget(row);
    m_sessionBar = new SessionReceiverBar(
        client, *m_sessions, [this] { return rememberReceiver(); }, this);
    m_sessionBar->setObjectName(QStringLiteral("sessionBar"));
    m_sessionBar->hide();
    // Under the receive row: accept a session, then Receive takes its messages.
    layout->insertWidget(2, m_sessionBar);
    connect(m_sessionBar, &SessionReceiverBar::result, this, &LockPanel::showResult);
    connect(m_sessionBar, &SessionReceiverBar::failed, this, &LockPanel::showError);
    connect(m_sessionBar, &SessionReceiverBar::released, this, [this](const QString& receiver) {
        m_locks->loseLocksOf(m_path, receiver, tr("The session was released."));
    });
    connect(m_sessions, &HeldSessions::lost, this,
            [this](const QString& receiver, const QString& reason) {
                m_locks->loseLocksOf(m_path, receiver, reason);
            });
    // A remote namespace's connection broke: what was taken before it is gone, said in a line.
    connect(&m_client, &BrokerClient::connectionLost, this,
            [this](qint64 brokeAtMs, const QString& reason) {
                m_sessions->loseTakenBefore(brokeAtMs, reason);
                const int lost = m_locks->loseTakenBefore(brokeAtMs, reason);
                if (lost == 0)
                    return;
                const QString note = lost == 1 ? tr("1 lock lost: %1").arg(reason)
                                               : tr("%1 locks lost: %2").arg(lost).arg(reason);
                m_status->setStyleSheet(QStringLiteral("color: #b00020;"));
                m_status->setText(note);
                emit statusMessage(note);
            });
    layout->addWidget(m_status);
    layout->addWidget(m_bulkBar);
    layout->addWidget(m_stack, 1);
    arrangeTabOrder();

    auto* ticker = new CountdownTicker(m_view, CountdownTicker::kDefaultIntervalMs, this);
    connect(ticker, &CountdownTicker::visibleRowsDue, this, [this](int first, int last) {
        m_locks->sweep();
        m_locks->messages()->refreshCountdowns(first, last);
    });
    // The session locks tick even with no message lock on screen (the ticker above only runs
    // for visible rows of the lock list).
    auto* sessionTicker = new QTimer(this);
    sessionTicker->setInterval(CountdownTicker::kDefaultIntervalMs);
    connect(sessionTicker, &QTimer::timeout, this, [this] {
        if (!m_requiresSession || !isVisible())
            return;
        m_sessions->sweep();
        m_sessions->refreshCountdowns();
    });
    sessionTicker->start();
    ticker->start();
    connect(m_locks, &QAbstractItemModel::rowsInserted, this, &LockPanel::updateState);
    connect(m_locks, &QAbstractItemModel::rowsRemoved, this, &LockPanel::updateState);
    connect(m_locks, &QAbstractItemModel::modelReset, this, &LockPanel::updateState);
    watchCurrentRow(*m_view, this, [this] { emit currentMessageChanged(); });
    connect(m_settler, &LockSettler::result, this, &LockPanel::showResult);
    connect(m_settler, &LockSettler::failed, this, &LockPanel::showError);
    connect(m_settler, &LockSettler::deferred, this,
            [this](qint64 sequenceNumber) { m_deferredSeq->setValue(int(sequenceNumber)); });
    connect(m_renewer, &LockAutoRenewer::renewFailed, this,
            [this](qint64, const Error& error) { showError(error); });
    connect(m_renewer, &LockAutoRenewer::stopped, this, [this] {
        const QSignalBlocker blocker(m_autoRenew);
        m_autoRenew->setChecked(false);
        showResult(tr("Auto-renew is off."));
    });
    updateState();
}

QWidget* LockPanel::buildReceiveRow() {
    auto* row = new QWidget(this);
    auto* layout = new QHBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    m_receiver = new QComboBox(row);
    m_receiver->setObjectName(QStringLiteral("lockReceiver"));
    m_receiver->setEditable(true);
    m_receiver->addItem(QStringLiteral("explorer"));
    m_receiver->setMinimumContentsLength(12);
    m_receiver->setToolTip(tr("The receiver that holds the locks; type a new name to add one"));
    m_mode = new QComboBox(row);
    m_mode->setObjectName(QStringLiteral("lockMode"));
    m_mode->addItem(tr("Peek-lock"), int(ReceiveMode::PeekLock));
    m_mode->addItem(tr("Receive-and-delete"), int(ReceiveMode::ReceiveAndDelete));
    m_count = new QSpinBox(row);
    m_count->setObjectName(QStringLiteral("lockCount"));
    m_count->setRange(1, 1000);
    m_deferredSeq = new QSpinBox(row);
    m_deferredSeq->setObjectName(QStringLiteral("deferredSeq"));
    m_deferredSeq->setRange(1, std::numeric_limits<int>::max());
    m_deferredSeq->setToolTip(tr("Sequence number of a deferred message"));

    m_receiveAction = addPanelAction(QStringLiteral("lockReceive"), tr("&Receive"),
                                     QKeySequence(Qt::CTRL | Qt::Key_R));
    m_receiveDeferredAction =
        addPanelAction(QStringLiteral("receiveDeferred"), tr("Receive deferred"), QKeySequence());
    connect(m_receiveAction, &QAction::triggered, this, &LockPanel::receive);
    connect(m_receiveDeferredAction, &QAction::triggered, this, &LockPanel::receiveDeferred);

    layout->addWidget(new QLabel(tr("Receiver:"), row));
    layout->addWidget(m_receiver);
    layout->addWidget(m_mode);
    layout->addWidget(m_count);
    layout->addWidget(toolButtonFor(m_receiveAction, row));
    layout->addStretch(1);
    return row;
}

QWidget* LockPanel::buildSettleRow() {
    auto* row = new QWidget(this);
    auto* layout = new QHBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    const std::pair<Settle, std::tuple<const char*, QString, QKeySequence>> settles[] = {
        {Settle::Complete,
         {"lockComplete", tr("&Complete"), QKeySequence(Qt::CTRL | Qt::Key_Return)}},
        {Settle::Abandon, {"lockAbandon", tr("&Abandon…"), QKeySequence(Qt::CTRL | Qt::Key_B)}},
        {Settle::DeadLetter,
         {"lockDeadLetter", tr("&Dead-letter…"), QKeySequence(Qt::CTRL | Qt::Key_D)}},
        {Settle::Defer, {"lockDefer", tr("D&efer…"), QKeySequence(Qt::CTRL | Qt::Key_E)}},
    };
    QList<QAction*> buttons;
    for (const auto& [kind, spec] : settles) {
        const auto& [name, text, key] = spec;
        QAction* action = addPanelAction(QLatin1String(name), text, key);
        connect(action, &QAction::triggered, this, [this, kind = kind] { askSettle(kind); });
        buttons.append(action);
    }
    QAction* renewAction = addPanelAction(QStringLiteral("lockRenew"), tr("Re&new"),
                                          QKeySequence(Qt::CTRL | Qt::Key_L));
    connect(renewAction, &QAction::triggered, this, &LockPanel::renew);
    // As in the message list: the ids of the held locks picked, one a line.
    QAction* copyIdAction =
        addPanelAction(QStringLiteral("lockCopyId"), tr("Copy message id"), QKeySequence::Copy);
    connect(copyIdAction, &QAction::triggered, this, &LockPanel::copyMessageIds);
    QAction* clearAction =
        addPanelAction(QStringLiteral("lockClear"), tr("Clear lost"), QKeySequence());
    clearAction->setToolTip(tr("Remove lost locks and received messages from the list"));
    connect(clearAction, &QAction::triggered, this, &LockPanel::clearFinished);
    buttons << renewAction << clearAction;
    for (QAction* action : buttons)
        layout->addWidget(toolButtonFor(action, row));
    layout->addStretch(1);
    return row;
}

QWidget* LockPanel::buildDeferredRow() {
    // Receiving a deferred message and auto-renew get a row of their own, so that the panel
    // stays narrow enough to share the window with the tree and the scenario player.
    auto* row = new QWidget(this);
    auto* layout = new QHBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(new QLabel(tr("Deferred #"), row));
    layout->addWidget(m_deferredSeq);
    layout->addWidget(toolButtonFor(m_receiveDeferredAction, row));
    layout->addSpacing(16);
    m_autoRenew = new QCheckBox(tr("Auto-renew for"), row);
    m_autoRenew->setObjectName(QStringLiteral("lockAutoRenew"));
    m_autoRenewFor = new QLineEdit(QStringLiteral("PT5M"), row);
    m_autoRenewFor->setObjectName(QStringLiteral("lockAutoRenewFor"));
    m_autoRenewFor->setToolTip(
        tr("How long to keep renewing: e.g. 10m, 1h30m, PT10M, or a number of minutes"));
    m_autoRenewFor->setMaximumWidth(fontMetrics().horizontalAdvance(QStringLiteral("PT10M30S")) +
                                    16);
    connect(m_autoRenew, &QCheckBox::toggled, this, &LockPanel::toggleAutoRenew);
    layout->addWidget(m_autoRenew);
    layout->addWidget(m_autoRenewFor);
    layout->addStretch(1);
    return row;
}

void LockPanel::arrangeTabOrder() {
    // Built in creation order, Tab would go from the count to the deferred sequence number (made
    // with the receive row), where Space does nothing. Tab follows the work instead: receive
    // (through a session when the entity requires them), pick held locks, settle them; then the
    // rarer deferred receive and auto-renew.
    QList<QWidget*> order{m_receiver, m_mode, m_count, findChild<QWidget*>("lockReceive")};
    for (const char* name :
         {"sessionToAccept", "sessionAccept", "sessionRenew", "sessionStateEdit", "sessionRelease"})
        order.append(m_sessionBar->findChild<QWidget*>(QLatin1String(name)));
    order.append(m_view);
    for (const char* name : {"lockComplete", "lockAbandon", "lockDeadLetter", "lockDefer",
                             "lockRenew", "lockClear", "bulkCancel"})
        order.append(findChild<QWidget*>(QLatin1String(name)));
    order << m_deferredSeq << findChild<QWidget*>("receiveDeferred") << m_autoRenew
          << m_autoRenewFor;
    order.removeAll(nullptr);
    for (qsizetype i = 1; i < order.size(); ++i)
        setTabOrder(order.at(i - 1), order.at(i));
}

QAction* LockPanel::addPanelAction(const QString& name, const QString& text,
                                   const QKeySequence& key) {
    auto* action = new QAction(text, this);
    action->setObjectName(name);
    action->setShortcut(key);
    action->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    addAction(action);
    m_actions.append(action);
    return action;
}

QList<QAction*> LockPanel::actions() const {
    return m_actions;
}

void LockPanel::setEntity(const QString& qualifiedPath, NodeKind kind) {
    ++m_generation;
    m_settler->forget();
    m_renewer->stop();
    m_locks->clear();
    m_path = holdsMessages(kind) ? qualifiedPath : QString();
    m_requiresSession = false;
    m_sessionBar->setEntity(m_path);
    m_sessionBar->hide();
    m_status->clear();
    showDeadLetterColumns(m_columns, kind == NodeKind::DeadLetterQueue);
    updateState();
    if (m_path.isEmpty())
        return;
    const quint64 generation = m_generation;
    readLockDuration(m_client, this, m_path, [this, generation](Result<Millis> duration) {
        if (generation != m_generation)
            return;
        if (duration) {
            m_locks->setLockDuration(*duration);
            m_sessions->setLockDuration(*duration);
        } else {
            showError(duration.error());
        }
    });
    // A dead-letter queue has no sessions; a queue or subscription may require them.
    if (kind != NodeKind::Queue && kind != NodeKind::Subscription)
        return;
    const QString path = m_path;
    m_client.call(
        this, [path](Broker& b) { return b.entity(path); },
        [this, generation](Result<EntityInfo> info) {
            if (generation != m_generation || !info)
                return;
            m_requiresSession = info->properties.requiresSession;
            m_sessionBar->setVisible(m_requiresSession);
            showDeadLetterColumns(m_columns, false,
                                  m_requiresSession ? SessionColumns::Shown
                                                    : SessionColumns::Hidden);
            updateState();
        });
}

void LockPanel::receiveDeferred() {
    if (m_path.isEmpty())
        return;
    const QString path = m_path;
    const QString receiver = rememberReceiver();
    const qint64 sequenceNumber = m_deferredSeq->value();
    const quint64 generation = m_generation;
    if (m_requiresSession) {
        // S6: a session's deferred message comes back through the session.
        const auto session = m_sessions->heldBy(receiver);
        if (!session)
            return guideToSessions(receiver);
        m_client.call(
            this,
            [ref = *session, sequenceNumber](Broker& b) {
                return b.receiveDeferredFromSession(ref, sequenceNumber);
            },
            [this, path, receiver, generation](Result<MessageView> taken) {
                if (generation != m_generation)
                    return;
                if (!taken) {
                    if (taken.error().code == ErrorCode::SessionLockLost)
                        m_sessions->markLost(receiver, taken.error().description);
                    return showError(taken.error());
                }
                onReceived(path, receiver, ReceiveMode::PeekLock, {*taken});
            });
        return;
    }
    m_client.call(
        this,
        [path, sequenceNumber, receiver](Broker& b) {
            return b.receiveDeferred(path, sequenceNumber, receiver);
        },
        [this, path, receiver, generation](Result<MessageView> taken) {
            if (generation != m_generation)
                return;
            if (!taken)
                return showError(taken.error());
            onReceived(path, receiver, ReceiveMode::PeekLock, {*taken});
        });
}

void LockPanel::guideToSessions(const QString& receiver) {
    const QString lost = m_sessions->isLost(receiver)
                             ? tr(" (its session %1 was lost)")
                                   .arg(m_sessions->sessionOf(receiver).value_or(QString()))
                             : QString();
    showResult(tr("%1 requires sessions: messages go out through a session lock, one session at "
                  "a time, in order. Accept a session as %2 first%3 (Session: a name, or empty "
                  "for the next available), then Receive takes its messages.")
                   .arg(m_path, receiver, lost));
    m_sessionBar->focusAccept();
}

void LockPanel::onReceived(const QString& path, const QString& receiver, ReceiveMode mode,
                           const QList<MessageView>& taken) {
    m_locks->add(path, receiver, mode, taken);
    QList<qint64> numbers;
    for (const MessageView& message : taken)
        numbers.append(message.sequenceNumber);
    if (taken.isEmpty() && m_requiresSession)
        showResult(tr("%1: no message to receive in session %2.")
                       .arg(receiver, m_sessions->sessionOf(receiver).value_or(QString())));
    else if (taken.isEmpty())
        showResult(tr("%1: no message to receive.").arg(receiver));
    else if (mode == ReceiveMode::PeekLock)
        showResult(tr("%1 locked %2").arg(receiver, HeldLocks::numbersText(numbers)));
    else
        showResult(tr("%1 received and deleted %2").arg(receiver, HeldLocks::numbersText(numbers)));
}

bool LockPanel::eventFilter(QObject* watched, QEvent* event) {
    // Reached from the keyboard (Tab, Alt+3), the table selects its current row, or its first:
    // the detail shows what the settle keys will act on.
    if (watched == m_view && event->type() == QEvent::FocusIn &&
        static_cast<QFocusEvent*>(event)->reason() != Qt::MouseFocusReason &&
        !m_view->selectionModel()->hasSelection() && m_locks->rowCount() > 0) {
        const QModelIndex current = m_view->currentIndex();
        m_view->selectionModel()->setCurrentIndex(
            current.isValid() ? current : m_locks->index(0, 0),
            QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    }
    return QWidget::eventFilter(watched, event);
}

QList<int> LockPanel::pickedRows() const {
    QList<int> rows;
    for (const QModelIndex& row : m_view->selectionModel()->selectedRows())
        rows.append(row.row());
    // A settled row's neighbour becomes current without being selected (CurrentMessage.h): while
    // the table has focus, the keys act on the row the focus frame is on.
    const QModelIndex current = m_view->currentIndex();
    if (rows.isEmpty() && m_view->hasFocus() && current.isValid())
        rows.append(current.row());
    return rows;
}

QList<qint64> LockPanel::selectedLocks() const {
    QList<qint64> out;
    for (int row : pickedRows()) {
        const qint64 sequenceNumber = m_locks->sequenceNumberAt(row);
        // A lost lock is still tried: the engine's refusal says why, inline.
        if (m_locks->status(sequenceNumber) != HeldLocks::Status::Received)
            out.append(sequenceNumber);
    }
    std::sort(out.begin(), out.end());
    return out;
}

void LockPanel::askSettle(Settle kind) {
    const QList<qint64> selected = selectedLocks();
    if (selected.isEmpty())
        return showResult(tr("Select one or more held locks first."));
    m_settler->run(kind, selected, this);
}

void LockPanel::renew() {
    const QList<qint64> selected = selectedLocks();
    if (selected.isEmpty())
        return showResult(tr("Select one or more held locks first."));
    m_settler->renew(selected);
}

void LockPanel::copyMessageIds() {
    QStringList ids;
    for (int row : pickedRows())
        ids.append(m_locks->messages()->messageAt(row).messageId);
    if (ids.isEmpty())
        return showResult(tr("Select one or more held locks first."));
    QGuiApplication::clipboard()->setText(ids.join(QLatin1Char('\n')));
    showResult(tr("Copied %1 message id(s)").arg(ids.size()));
}

void LockPanel::clearFinished() {
    const int cleared = m_locks->clearFinished();
    showResult(tr("Rows cleared: %1.").arg(cleared));
}

void LockPanel::toggleAutoRenew(bool on) {
    if (!on)
        return m_renewer->stop();
    QString why;
    const auto duration = LockAutoRenewer::parseDuration(m_autoRenewFor->text(), &why);
    if (!duration) {
        const QSignalBlocker blocker(m_autoRenew);
        m_autoRenew->setChecked(false);
        return showError(
            makeError(ErrorCode::InvalidArgument, tr("Auto-renew duration: %1").arg(why)));
    }
    m_renewer->start(*duration);
    showResult(tr("Auto-renewing held locks until %1.").arg(formatInstant(m_renewer->until())));
}

std::optional<MessageRef> LockPanel::currentMessage() const {
    const QModelIndex current = selectedCurrentIndex(*m_view);
    if (!current.isValid())
        return std::nullopt;
    const qint64 sequenceNumber = m_locks->sequenceNumberAt(current.row());
    return MessageRef{m_locks->lockRef(sequenceNumber).entityPath, sequenceNumber};
}

qint64 LockPanel::selectedCount() const {
    return selectedRowCountOf(*m_view);
}

void LockPanel::showResult(const QString& text) {
    m_status->setStyleSheet(QString());
    m_status->setText(text);
    emit statusMessage(text);
}

void LockPanel::showError(const Error& error) {
    m_status->setStyleSheet(QStringLiteral("color: #b00020;"));
    m_status->setText(error.toString());
    emit errorOccurred(error);
}

void LockPanel::updateState() {
    const bool usable = !m_path.isEmpty();
    for (QAction* action : std::as_const(m_actions))
        action->setEnabled(usable);
    for (QWidget* row : std::as_const(m_controlRows))
        row->setEnabled(usable);
    const int rows = m_locks->rowCount();
    if (!usable)
        m_title->setText(tr("Locks: select a queue, subscription or dead-letter queue"));
    else
        m_title->setText(tr("Locks on %1 (listed: %2)").arg(m_path).arg(rows));
    m_stack->setCurrentWidget(rows > 0 ? static_cast<QWidget*>(m_view) : m_empty);
}

} // namespace hourglass::ui
