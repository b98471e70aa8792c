#include "messages/PeekPanel.h"

#include "common/BrokerClient.h"
#include "common/MessageTransferActions.h"
#include "hourglass/EntityPath.h"
#include "messages/CountdownTicker.h"
#include "messages/MessageColumnLayouts.h"
#include "messages/MessageTable.h"
#include "messages/MessageViewModel.h"

#include <QAction>
#include <QHBoxLayout>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QStackedWidget>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>
#include <limits>

namespace hourglass::ui {

PeekPanel::PeekPanel(BrokerClient& client, QWidget* parent)
    : EntityPanel(parent)
    , m_client(client)
    , m_model(new MessageViewModel(client, this))
    , m_sort(new QSortFilterProxyModel(this))
    , m_title(new QLabel(this))
    , m_from(new QSpinBox(this))
    , m_count(new QSpinBox(this))
    , m_stack(new QStackedWidget(this))
    , m_view(new QTableView(m_stack))
    , m_empty(new QLabel(m_stack)) {
    m_title->setObjectName(QStringLiteral("peekTitle"));
    m_title->setTextFormat(Qt::PlainText);
    QFont bold = m_title->font();
    bold.setBold(true);
    m_title->setFont(bold);

    m_from->setObjectName(QStringLiteral("peekFrom"));
    m_from->setRange(0, std::numeric_limits<int>::max());
    m_from->setSpecialValueText(tr("start"));
    m_from->setToolTip(tr("First sequence number to peek; \"start\" peeks from the lowest"));
    m_count->setObjectName(QStringLiteral("peekCount"));
    m_count->setRange(1, 1000);
    m_count->setValue(kDefaultCount);

    auto addButton = [this](const QString& name, const QString& text, const QKeySequence& key,
                            void (PeekPanel::*slot)()) {
        auto* action = new QAction(text, this);
        action->setObjectName(name);
        action->setShortcut(key);
        action->setShortcutContext(Qt::WidgetWithChildrenShortcut);
        connect(action, &QAction::triggered, this, slot);
        addAction(action);
        m_actions.append(action);
        auto* button = new QPushButton(text, this);
        button->setObjectName(name);
        button->setToolTip(key.isEmpty() ? QString() : key.toString(QKeySequence::NativeText));
        connect(button, &QPushButton::clicked, action, &QAction::trigger);
        connect(action, &QAction::enabledChanged, button, &QPushButton::setEnabled);
        return button;
    };
    auto* row = new QHBoxLayout;
    row->addWidget(new QLabel(tr("From #"), this));
    row->addWidget(m_from);
    row->addWidget(new QLabel(tr("Count"), this));
    row->addWidget(m_count);
    row->addWidget(addButton(QStringLiteral("peekGo"), tr("Peek"), QKeySequence(Qt::Key_F5),
                             &PeekPanel::peek));
    row->addWidget(addButton(QStringLiteral("peekFirst"), tr("From start"),
                             QKeySequence(Qt::CTRL | Qt::Key_Home), &PeekPanel::peekFirst));
    row->addWidget(addButton(QStringLiteral("peekNext"), tr("Next %1").arg(QChar(0x203A)),
                             QKeySequence(Qt::CTRL | Qt::Key_PageDown), &PeekPanel::peekNext));
    row->addStretch(1);

    m_sort->setSourceModel(m_model);
    m_sort->setSortRole(Qt::UserRole);
    m_view->setObjectName(QStringLiteral("peekList"));
    m_view->setModel(m_sort);
    prepareMessageTable(m_view);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(MessageListModel::SequenceNumberColumn, Qt::AscendingOrder);
    m_columns = arrangeMessageColumns(m_view, MessageTableKind::Peek);
    m_empty->setObjectName(QStringLiteral("peekEmpty"));
    stackWithEmptyState(m_stack, m_view, m_empty);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_title);
    layout->addLayout(row);
    layout->addWidget(m_stack, 1);

    // A page is at most 1000 rows: repainting every countdown row per tick is cheap, and the
    // sorted view's visible rows are not the model's rows anyway.
    auto* ticker = new CountdownTicker(m_view, CountdownTicker::kDefaultIntervalMs, this);
    connect(ticker, &CountdownTicker::visibleRowsDue, this,
            [this](int, int) { m_model->refreshCountdowns(0, m_model->rowCount() - 1); });
    ticker->start();
    watchCurrentRow(*m_view, this, [this] { emit currentMessageChanged(); });
    connect(&m_client, &BrokerClient::changed, this, &PeekPanel::onChanged);

    // Move to… and Copy to… on the table's context menu, as dragging onto the tree does.
    m_transfer = new MessageTransferActions(
        client, m_view, [this](QObject*, MessageTransferActions::Done done) {
            DraggedMessages selected{m_path, {}};
            for (const QModelIndex& row : m_view->selectionModel()->selectedRows())
                selected.sequenceNumbers.append(
                    m_model->messageAt(m_sort->mapToSource(row).row()).sequenceNumber);
            std::sort(selected.sequenceNumbers.begin(), selected.sequenceNumbers.end());
            done(selected);
        });
    connect(m_transfer, &MessageTransferActions::errorOccurred, this, &PeekPanel::errorOccurred);
    connect(m_transfer, &MessageTransferActions::statusMessage, this, &PeekPanel::statusMessage);
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            [this] { m_transfer->setEnabled(m_view->selectionModel()->hasSelection()); });
    m_transfer->addToContextMenu(this);
    updateState();
}

std::optional<MessageRef> PeekPanel::currentMessage() const {
    const QModelIndex current = selectedCurrentIndex(*m_view);
    if (!current.isValid())
        return std::nullopt;
    const int row = m_sort->mapToSource(current).row();
    return MessageRef{m_path, m_model->messageAt(row).sequenceNumber};
}

qint64 PeekPanel::selectedCount() const {
    return selectedRowCountOf(*m_view);
}

void PeekPanel::setEntity(const QString& qualifiedPath, NodeKind kind) {
    m_path = holdsMessages(kind) ? qualifiedPath : QString();
    ++m_generation;
    m_model->clear();
    m_loaded = false;
    m_stale = false;
    m_error.clear();
    m_from->setValue(0);
    showDeadLetterColumns(m_columns, kind == NodeKind::DeadLetterQueue);
    updateState();
    if (m_path.isEmpty())
        return;
    const quint64 generation = m_generation;
    readLockDuration(m_client, this, m_path, [this, generation](Result<Millis> duration) {
        if (generation == m_generation && duration)
            m_model->setLockDuration(*duration);
    });
    peekFrom(0);
}

void PeekPanel::peek() {
    peekFrom(m_from->value());
}

void PeekPanel::peekFirst() {
    m_from->setValue(0);
    peekFrom(0);
}

void PeekPanel::peekNext() {
    qint64 last = 0;
    for (const MessageView& message : m_model->messages())
        last = std::max(last, message.sequenceNumber);
    if (last == 0)
        return peekFirst();
    m_from->setValue(int(std::min<qint64>(last + 1, m_from->maximum())));
    peekFrom(last + 1);
}

void PeekPanel::peekFrom(qint64 fromSequenceNumber) {
    if (m_path.isEmpty())
        return;
    const quint64 generation = ++m_generation;
    const QString path = m_path;
    const int count = m_count->value();
    m_client.call(
        this,
        [path, fromSequenceNumber, count](Broker& b) {
            return b.peek(path, fromSequenceNumber, count);
        },
        [this, generation](Result<QList<MessageView>> page) {
            if (generation != m_generation)
                return;
            m_loaded = true;
            m_stale = false;
            if (!page) {
                m_error = page.error().toString();
                m_model->clear();
                emit errorOccurred(page.error());
            } else {
                m_error.clear();
                m_model->setMessages(*page);
                emit statusMessage(tr("Peeked %1: %2 shown").arg(m_path).arg(page->size()));
            }
            updateState();
        });
}

void PeekPanel::onChanged(const ChangeBatch& batch) {
    // Any path's messages (main or dead-letter) and its entity's creation or deletion; the page is
    // marked, not re-read (see the header).
    if (m_path.isEmpty() || !m_loaded || m_stale ||
        !EntityPath::of(m_path).messagesChangedIn(batch))
        return;
    m_stale = true;
    updateState();
}

void PeekPanel::updateState() {
    const bool usable = !m_path.isEmpty();
    for (QAction* action : std::as_const(m_actions))
        action->setEnabled(usable);
    m_from->setEnabled(usable);
    m_count->setEnabled(usable);
    const auto& messages = m_model->messages();
    QString title;
    if (!usable) {
        title = tr("Peek: select a queue, subscription or dead-letter queue");
        m_empty->setText(tr("Nothing to peek"));
    } else if (!m_error.isEmpty()) {
        title = tr("Peek %1: %2").arg(m_path, m_error);
        m_empty->setText(tr("Peek failed"));
    } else if (!m_loaded) {
        title = tr("Peek %1 (loading…)").arg(m_path);
        m_empty->setText(tr("Peeking…"));
    } else if (messages.isEmpty()) {
        title = tr("Peek %1").arg(m_path);
        m_empty->setText(m_from->value() > 0 ? tr("No messages from #%1 on").arg(m_from->value())
                                             : tr("No messages"));
    } else {
        title = tr("Peek %1: %2 shown, #%3 to #%4")
                    .arg(m_path, QLocale().toString(messages.size()),
                         QLocale().toString(messages.first().sequenceNumber),
                         QLocale().toString(messages.last().sequenceNumber));
    }
    if (m_stale)
        title += tr(" (changed since; Peek again to refresh)");
    m_title->setText(title);
    m_stack->setCurrentWidget(messages.isEmpty() ? static_cast<QWidget*>(m_empty) : m_view);
}

} // namespace hourglass::ui
