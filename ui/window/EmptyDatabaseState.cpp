#include "window/EmptyDatabaseState.h"

#include "entities/EntityActions.h"
#include "tree/NamespaceTreePanel.h"

#include <QAction>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QStackedWidget>
#include <QVBoxLayout>

namespace hourglass::ui {

EmptyDatabaseState::EmptyDatabaseState(NamespaceTreePanel& tree, EntityActions& actions,
                                       QStackedWidget& slot, QWidget& workspace)
    : m_tree(&tree)
    , m_actions(&actions)
    , m_slot(slot)
    , m_workspace(&workspace)
    , m_headline(new QLabel)
    , m_detail(new QLabel)
    , m_newNamespace(new QPushButton(tr("New namespace…")))
    , m_newQueue(new QPushButton(tr("New queue…")))
    , m_import(new QPushButton(tr("Import config.json…"))) {
    setObjectName(QStringLiteral("emptyDatabaseState"));
    m_headline->setObjectName(QStringLiteral("emptyDatabaseHeadline"));
    m_detail->setObjectName(QStringLiteral("emptyDatabaseDetail"));
    m_newNamespace->setObjectName(QStringLiteral("emptyNewNamespace"));
    m_newQueue->setObjectName(QStringLiteral("emptyNewQueue"));
    m_import->setObjectName(QStringLiteral("emptyImportConfig"));
    m_import->setToolTip(tr("Creates the namespaces, queues, topics and subscriptions an Azure "
                            "Service Bus emulator config.json declares"));
    QFont headlineFont = m_headline->font();
    headlineFont.setBold(true);
    headlineFont.setPointSizeF(headlineFont.pointSizeF() * 1.2);
    m_headline->setFont(headlineFont);
    for (QLabel* label : {m_headline, m_detail}) {
        label->setAlignment(Qt::AlignCenter);
        label->setWordWrap(true);
        label->setTextFormat(Qt::PlainText);
    }
    // A short paragraph, not a column of three words a line.
    m_detail->setMinimumWidth(fontMetrics().averageCharWidth() * 48);
    m_detail->setMaximumWidth(fontMetrics().averageCharWidth() * 70);

    connect(m_newNamespace, &QPushButton::clicked, this, [this] {
        if (m_actions)
            m_actions->newNamespaceAction()->trigger();
    });
    connect(m_newQueue, &QPushButton::clicked, this, &EmptyDatabaseState::newQueue);
    connect(m_import, &QPushButton::clicked, this, [this] {
        if (m_actions)
            m_actions->importAction()->trigger();
    });

    auto* buttons = new QHBoxLayout;
    buttons->addStretch(1);
    for (QPushButton* button : {m_newNamespace, m_newQueue, m_import})
        buttons->addWidget(button);
    buttons->addStretch(1);
    auto* detailRow = new QHBoxLayout;
    detailRow->addStretch(1);
    detailRow->addWidget(m_detail);
    detailRow->addStretch(1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(16, 16, 16, 16);
    layout->setSpacing(12);
    layout->addStretch(1);
    layout->addWidget(m_headline);
    layout->addLayout(detailRow);
    layout->addLayout(buttons);
    layout->addStretch(2);

    m_slot.addWidget(this);
    // It belongs to the workspace it stands in for.
    connect(&workspace, &QObject::destroyed, this, &QObject::deleteLater);
    QAbstractItemModel* model = tree.model();
    for (auto signal : {&QAbstractItemModel::rowsInserted, &QAbstractItemModel::rowsRemoved})
        connect(model, signal, this, &EmptyDatabaseState::update);
    connect(model, &QAbstractItemModel::modelReset, this, &EmptyDatabaseState::update);
    connect(tree.model(), &NamespaceTreeModel::refreshed, this, &EmptyDatabaseState::update);
    update();
}

void EmptyDatabaseState::update() {
    NamespaceTreeModel* model = m_tree ? m_tree->model() : nullptr;
    // Before the first snapshot arrives, "empty" would be a guess.
    if (!model || !model->isLoaded())
        return;
    bool anyEntity = false;
    m_firstNamespace.clear();
    for (int row = 0; row < model->rowCount() && !anyEntity; ++row) {
        const QModelIndex ns = model->index(row, 0);
        if (m_firstNamespace.isEmpty())
            m_firstNamespace = ns.data(NamespaceTreeModel::PathRole).toString();
        anyEntity = model->rowCount(ns) > 0;
    }
    if (anyEntity) {
        if (m_slot.currentWidget() == this && m_workspace)
            m_slot.setCurrentWidget(m_workspace);
        return;
    }
    if (m_firstNamespace.isEmpty()) {
        m_headline->setText(tr("This database is empty"));
        m_detail->setText(tr("Start with a namespace: it holds the queues and topics that "
                             "applications send to and receive from. Or import an emulator "
                             "config.json to create its namespace with every entity at once."));
        m_newQueue->setEnabled(false);
        m_newQueue->setToolTip(tr("Create a namespace first"));
    } else {
        m_headline->setText(tr("Namespace '%1' has no queue or topic yet").arg(m_firstNamespace));
        m_detail->setText(tr("Create a queue in it (or a topic, from the Entity menu), another "
                             "namespace, or import an emulator config.json."));
        m_newQueue->setEnabled(true);
        m_newQueue->setToolTip(tr("Creates a queue in namespace '%1'").arg(m_firstNamespace));
    }
    m_slot.setCurrentWidget(this);
}

void EmptyDatabaseState::newQueue() {
    if (!m_tree || !m_actions || m_firstNamespace.isEmpty())
        return;
    // A queue is created in the selected namespace.
    m_tree->selectWhenShown(m_firstNamespace);
    m_actions->newQueueAction()->trigger();
}

} // namespace hourglass::ui
