#include "ConnectionsPanel.h"

#include "AmqpService.h"
#include "ConnectionsModel.h"

#include <QApplication>
#include <QClipboard>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QStackedWidget>
#include <QTreeView>
#include <QVBoxLayout>

namespace hourglass::ui {

namespace {
constexpr int kRefreshMs = 500;
} // namespace

ConnectionsPanel::ConnectionsPanel(AmqpService& service, std::function<Instant()> now,
                                   QWidget* parent)
    : QWidget(parent)
    , m_service(service)
    , m_model(new ConnectionsModel(std::move(now), this))
    , m_pages(new QStackedWidget)
    , m_view(new QTreeView)
    , m_empty(new QLabel)
    , m_copy(new QPushButton(tr("Copy connection string")))
    , m_close(new QPushButton(tr("Close connection"))) {
    setObjectName(QStringLiteral("connectionsView"));
    m_view->setObjectName(QStringLiteral("connectionsTree"));
    m_view->setModel(m_model);
    m_view->setUniformRowHeights(true);
    m_view->setAlternatingRowColors(true);
    m_view->header()->setStretchLastSection(false);
    m_view->header()->setSectionResizeMode(ConnectionsModel::Name, QHeaderView::Stretch);
    for (int column = ConnectionsModel::Role; column < ConnectionsModel::ColumnCount; ++column)
        m_view->header()->setSectionResizeMode(column, QHeaderView::ResizeToContents);
    m_empty->setObjectName(QStringLiteral("connectionsEmpty"));
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setWordWrap(true);
    m_empty->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_empty->setMargin(16);
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
    connect(m_view->selectionModel(), &QItemSelectionModel::currentChanged, this,
            [this] { m_close->setEnabled(m_view->currentIndex().isValid()); });
    connect(&m_service, &AmqpService::statusChanged, this, &ConnectionsPanel::refresh);
    connect(&m_timer, &QTimer::timeout, this, &ConnectionsPanel::refresh);
    m_timer.start(kRefreshMs);
    refresh();
}

void ConnectionsPanel::refresh() {
    const auto* endpoint = m_service.endpoint();
    const QList<amqp::WireConnection> connections =
        endpoint ? endpoint->snapshot().connections : QList<amqp::WireConnection>();
    const bool hadRows = m_model->rowCount() > 0;
    m_model->setSnapshot(connections);
    m_model->refreshCountdowns();
    if (!hadRows && m_model->rowCount() > 0)
        m_view->expandAll();
    m_copy->setEnabled(endpoint != nullptr);
    m_close->setEnabled(m_view->currentIndex().isValid());
    if (m_model->rowCount() > 0) {
        m_pages->setCurrentWidget(m_view);
        return;
    }
    if (!endpoint) {
        m_empty->setText(m_service.problem().isEmpty()
                             ? tr("The AMQP endpoint is off (View > AMQP endpoint…).")
                             : tr("The AMQP endpoint is not serving: %1").arg(m_service.problem()));
    } else {
        m_empty->setText(tr("No application is connected.\n\nPoint your application at:\n%1")
                             .arg(endpoint->connectionString()));
    }
    m_pages->setCurrentWidget(m_empty);
}

void ConnectionsPanel::closeSelected() {
    const QModelIndex current = m_view->currentIndex();
    auto* endpoint = m_service.endpoint();
    if (!current.isValid() || !endpoint)
        return;
    endpoint->closeConnection(current.data(ConnectionsModel::ConnectionIdRole).toULongLong());
}

} // namespace hourglass::ui
