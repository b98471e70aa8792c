#include "MessageListPanel.h"

#include "CountdownDelegate.h"
#include "CountdownTicker.h"
#include "MessageListModel.h"

#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLocale>
#include <QStackedWidget>
#include <QTableView>
#include <QVBoxLayout>

namespace hourglass::ui {

namespace {
// Starting widths: each column fits its header and a typical value (in the view's font).
const char* const kColumnSamples[MessageListModel::ColumnCount] = {
    "1234567890",              // Sequence number
    "7f3c9a1e2b4d4c0f9e8a",    // Message id (longer ids are elided)
    "order-created-0000",      // Subject
    "Scheduled",               // State
    "W expired, held by lock", // Time to live (W: the lock glyph)
    "2026-01-01 00:00:00",     // Expires at
    "2026-01-01 00:00:00",     // Enqueued
    "999",                     // Delivery count
    "receiver-0000",           // Lock holder
    "59m 59s",                 // Lock
};
constexpr int kCellPadding = 20;
} // namespace

MessageListPanel::MessageListPanel(BrokerClient& client, QWidget* parent)
    : QWidget(parent)
    , m_model(new MessageListModel(client, this))
    , m_title(new QLabel(this))
    , m_stack(new QStackedWidget(this))
    , m_view(new QTableView(m_stack))
    , m_empty(new QLabel(tr("No messages"), m_stack))
    , m_ticker(new CountdownTicker(m_view, CountdownTicker::kDefaultIntervalMs, this)) {
    m_title->setObjectName(QStringLiteral("messageListTitle"));
    m_title->setTextFormat(Qt::PlainText);
    QFont titleFont = m_title->font();
    titleFont.setBold(true);
    m_title->setFont(titleFont);

    m_view->setObjectName(QStringLiteral("messageList"));
    m_view->setModel(m_model);
    m_view->setItemDelegateForColumn(
        MessageListModel::TimeToLiveColumn,
        new CountdownDelegate(CountdownDelegate::Meaning::TimeToLive, m_view));
    m_view->setItemDelegateForColumn(
        MessageListModel::LockColumn,
        new CountdownDelegate(CountdownDelegate::Meaning::Lock, m_view));
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setAlternatingRowColors(true);
    m_view->setWordWrap(false);
    m_view->setSortingEnabled(false); // sequence order; see the header comment
    m_view->setVerticalScrollMode(QAbstractItemView::ScrollPerPixel);
    // Uniform row heights: the view never measures rows, so a million rows cost nothing.
    QHeaderView* rows = m_view->verticalHeader();
    rows->setSectionResizeMode(QHeaderView::Fixed);
    rows->setDefaultSectionSize(fontMetrics().height() + 8);
    rows->hide();
    QHeaderView* columns = m_view->horizontalHeader();
    columns->setSectionResizeMode(QHeaderView::Interactive);
    columns->setStretchLastSection(true);
    columns->setHighlightSections(false);
    applyColumnWidths();

    m_empty->setObjectName(QStringLiteral("messageListEmpty"));
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setEnabled(false); // greyed, as an empty state reads

    m_stack->addWidget(m_view);
    m_stack->addWidget(m_empty);

    m_title->setContentsMargins(4, 4, 4, 4);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_title);
    layout->addWidget(m_stack, 1);

    connect(m_model, &MessageListModel::indexRefreshed, this, &MessageListPanel::updateHeader);
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) {
                const QVariant seq =
                    m_model->index(current.row(), MessageListModel::SequenceNumberColumn)
                        .data(Qt::UserRole);
                if (current.isValid() && seq.isValid())
                    emit messageSelected(m_model->path(), seq.toLongLong());
            });
    connect(m_ticker, &CountdownTicker::visibleRowsDue, m_model,
            &MessageListModel::refreshCountdowns);
    m_ticker->start();
    updateHeader();
}

void MessageListPanel::setPath(const QString& qualifiedPath) {
    m_model->setPath(qualifiedPath);
    m_view->scrollToTop();
}

QString MessageListPanel::path() const {
    return m_model->path();
}

void MessageListPanel::updateHeader() {
    const QString path = m_model->path();
    if (path.isEmpty()) {
        m_title->setText(tr("No entity selected"));
    } else if (!m_model->lastError().isEmpty()) {
        m_title->setText(tr("%1: %2").arg(path, m_model->lastError()));
    } else if (!m_model->isIndexLoaded()) {
        m_title->setText(tr("%1 (loading…)").arg(path));
    } else {
        const qint64 total = m_model->total();
        m_title->setText(total == 1 ? tr("%1 (1 message)").arg(path)
                                    : tr("%1 (%2 messages)").arg(path, QLocale().toString(total)));
    }
    const bool empty = m_model->isIndexLoaded() && m_model->total() == 0;
    m_stack->setCurrentWidget(empty ? static_cast<QWidget*>(m_empty) : m_view);
}

void MessageListPanel::applyColumnWidths() {
    const QFontMetrics cells = m_view->fontMetrics();
    const QFontMetrics headers = m_view->horizontalHeader()->fontMetrics();
    for (int column = 0; column < MessageListModel::ColumnCount; ++column) {
        const QString title = m_model->headerData(column, Qt::Horizontal).toString();
        const int width = qMax(cells.horizontalAdvance(QLatin1String(kColumnSamples[column])),
                               headers.horizontalAdvance(title));
        m_view->setColumnWidth(column, width + kCellPadding);
    }
}

} // namespace hourglass::ui
