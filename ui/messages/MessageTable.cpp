#include "messages/MessageTable.h"

#include "common/BrokerClient.h"
#include "deadletter/DeadLetterReasonsModel.h"
#include "messages/CountdownDelegate.h"
#include "messages/MessageListModel.h"
#include "messages/MessageViewModel.h"

#include <QHeaderView>
#include <QLabel>
#include <QStackedWidget>
#include <QTableView>

namespace hourglass::ui {

void prepareMessageTable(QTableView* view) {
    view->setItemDelegateForColumn(
        MessageListModel::TimeToLiveColumn,
        new CountdownDelegate(CountdownDelegate::Meaning::TimeToLive, view));
    view->setItemDelegateForColumn(MessageListModel::LockColumn,
                                   new CountdownDelegate(CountdownDelegate::Meaning::Lock, view));
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setAlternatingRowColors(true);
    view->setWordWrap(false);
    view->verticalHeader()->hide();
    view->horizontalHeader()->setStretchLastSection(true);
}

void readLockDuration(BrokerClient& client, QObject* context, const QString& path,
                      std::function<void(Result<Millis>)> done) {
    client.call(
        context,
        [entity = deadletter::entityPathOf(path)](Broker& b) -> Result<Millis> {
            const Result<EntityInfo> info = b.entity(entity);
            if (!info)
                return info.error();
            return info->properties.lockDuration;
        },
        std::move(done));
}

void stackWithEmptyState(QStackedWidget* stack, QTableView* view, QLabel* empty) {
    empty->setAlignment(Qt::AlignCenter);
    empty->setEnabled(false);
    stack->addWidget(view);
    stack->addWidget(empty);
}

void showDeadLetterColumns(QTableView* view, bool show) {
    for (int column = MessageViewModel::DeadLetterReasonColumn;
         column < MessageViewModel::ColumnCount; ++column)
        view->setColumnHidden(column, !show);
}

bool holdsMessages(NamespaceTreeModel::NodeKind kind) {
    using Kind = NamespaceTreeModel::NodeKind;
    return kind == Kind::Queue || kind == Kind::Subscription || kind == Kind::DeadLetterQueue;
}

} // namespace hourglass::ui
