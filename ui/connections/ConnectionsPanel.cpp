#include "ConnectionsPanel.h"

#include "AmqpService.h"
#include "ConnectionsEmptyState.h"
#include "ConnectionsModel.h"

#include <QApplication>
#include <QClipboard>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QPushButton>
#include <QStackedWidget>
#include <QTreeView>
#include <QVBoxLayout>

#include <algorithm>

namespace hourglass::ui {

namespace {
// Lines of text the view has room for when it first opens: a connection with its links and a
// few locks, without scrolling.
constexpr int kLinesShown = 14;
} // namespace

ConnectionsPanel::ConnectionsPanel(AmqpService& service, std::function<Instant()> now,
                                   QWidget* parent)
    : QWidget(parent)
    , m_service(service)
    , m_model(new ConnectionsModel(std::move(now), this))
    , m_pages(new QStackedWidget)
    , m_view(new QTreeView)
    , m_empty(new ConnectionsEmptyState)
    , m_copy(new QPushButton(tr("Copy connection string")))
    , m_close(new QPushButton(tr("Close connection"))) {
    setObjectName(QStringLiteral("connectionsView"));
    m_view->setObjectName(QStringLiteral("connectionsTree"));
    m_view->setModel(m_model);
    m_view->setUniformRowHeights(true);
    m_view->setAlternatingRowColors(true);
    QHeaderView* header = m_view->header();
    header->setStretchLastSection(false);
    for (int column = 0; column < ConnectionsModel::ColumnCount; ++column)
        header->setSectionResizeMode(column, QHeaderView::ResizeToContents);
    m_pages->addWidget(m_empty);
    m_pages->addWidget(m_view);
    m_copy->setObjectName(QStringLiteral("copyConnectionString"));
    m_close->setObjectName(QStringLiteral("closeConnection"));
    m_close->setToolTip(tr("Closes the selected connection: the locks it holds go back at once "
                           "and its application sees the connection end."));

    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_copy);
    buttons->addStretch(1);
    buttons->addWidget(m_close);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_pages, 1);
    layout->addLayout(buttons);

    connect(m_copy, &QPushButton::clicked, this, [this] {
        if (const auto* endpoint = m_service.endpoint())
            QApplication::clipboard()->setText(endpoint->connectionString());
    });
    connect(m_close, &QPushButton::clicked, this, &ConnectionsPanel::closeSelected);
    connect(m_empty, &ConnectionsEmptyState::settingsRequested, this,
            &ConnectionsPanel::settingsRequested);
    connect(m_view->selectionModel(), &QItemSelectionModel::currentChanged, this,
            &ConnectionsPanel::updateButtons);
    // A connection or link that arrives shows what it holds; one the operator collapsed stays
    // collapsed.
    connect(m_model, &QAbstractItemModel::rowsInserted, this,
            [this](const QModelIndex& parent, int first, int last) {
                for (int row = first; row <= last; ++row)
                    m_view->expandRecursively(m_model->index(row, 0, parent));
            });
    // The service reads the snapshot (twice a second) for this view and the status-bar item
    // alike.
    connect(&m_service, &AmqpService::statusChanged, this, &ConnectionsPanel::showSnapshot);
    connect(&m_service, &AmqpService::snapshotChanged, this, &ConnectionsPanel::showSnapshot);
    showSnapshot();
}

void ConnectionsPanel::refresh() {
    m_service.readSnapshot(); // showSnapshot() follows, as the status-bar item's refresh does
}

void ConnectionsPanel::showSnapshot() {
    const auto* endpoint = m_service.endpoint();
    const QList<amqp::WireConnection>& connections = m_service.snapshot().connections;
    m_model->setSnapshot(connections);
    m_model->refreshCountdowns();
    if (m_model->rowCount() > 0) {
        m_pages->setCurrentWidget(m_view);
        fitNameColumn();
    } else {
        m_empty->show(m_service.state(), endpoint ? endpoint->connectionString() : QString(),
                      m_service.problem());
        m_pages->setCurrentWidget(m_empty);
    }
    updateButtons();
}

QSize ConnectionsPanel::sizeHint() const {
    const QSize hint = QWidget::sizeHint();
    return {hint.width(), std::max(hint.height(), fontMetrics().lineSpacing() * kLinesShown)};
}

void ConnectionsPanel::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    fitNameColumn();
}

void ConnectionsPanel::fitNameColumn() {
    // The names take the room the other columns leave. When that is less than they need (a
    // narrow dock), the tree scrolls sideways instead: a peer's address cut short says nothing.
    QHeaderView* header = m_view->header();
    int others = 0;
    for (int column = ConnectionsModel::Role; column < ConnectionsModel::ColumnCount; ++column)
        others += header->sectionSize(column);
    // QTreeView keeps its override protected; QAbstractItemView's is public and virtual.
    const QAbstractItemView* asItemView = m_view;
    const int needed = std::max(asItemView->sizeHintForColumn(ConnectionsModel::Name),
                                header->sectionSizeHint(ConnectionsModel::Name));
    const bool roomy = m_view->viewport()->width() - others >= needed;
    const auto mode = roomy ? QHeaderView::Stretch : QHeaderView::ResizeToContents;
    if (header->sectionResizeMode(ConnectionsModel::Name) != mode)
        header->setSectionResizeMode(ConnectionsModel::Name, mode);
}

void ConnectionsPanel::updateButtons() {
    const bool listing = m_pages->currentWidget() == m_view;
    m_copy->setEnabled(m_service.endpoint() != nullptr);
    // Nothing to close while nothing is listed: the button would only puzzle.
    m_close->setVisible(listing);
    m_close->setEnabled(listing && m_view->currentIndex().isValid());
}

void ConnectionsPanel::closeSelected() {
    const QModelIndex current = m_view->currentIndex();
    auto* endpoint = m_service.endpoint();
    if (!current.isValid() || !endpoint)
        return;
    endpoint->closeConnection(current.data(ConnectionsModel::ConnectionIdRole).toULongLong());
}

} // namespace hourglass::ui
