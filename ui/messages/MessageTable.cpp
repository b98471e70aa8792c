#include "messages/MessageTable.h"

#include "common/BrokerClient.h"
#include "common/MessageTransfer.h"
#include "hourglass/EntityPath.h"
#include "messages/CountdownDelegate.h"
#include "messages/MessageColumnLayouts.h"
#include "messages/MessageListModel.h"
#include "messages/MessageViewModel.h"
#include "messages/RowJumpKeys.h"

#include <QHeaderView>
#include <QLabel>
#include <QStackedWidget>
#include <QTableView>
#include <QVBoxLayout>

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
    new RowJumpKeys(view); // Ctrl+Home, Ctrl+End: first and last row
}

void readLockDuration(BrokerClient& client, QObject* context, const QString& path,
                      std::function<void(Result<Millis>)> done) {
    client.call(
        context,
        [entity = EntityPath::of(path).owner().toString()](Broker& b) -> Result<Millis> {
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

QWidget* emptyStateWithMoveHint(QLabel* empty, const QString& hintName, QWidget* parent) {
    auto* page = new QWidget(parent);
    auto* hint = new QLabel(moveMessagesHint(), page);
    hint->setObjectName(hintName);
    hint->setAlignment(Qt::AlignCenter);
    hint->setWordWrap(true);
    hint->setEnabled(false); // greyed: a hint, not content and not an error
    empty->setParent(page);
    auto* layout = new QVBoxLayout(page);
    layout->addStretch(1);
    layout->addWidget(empty);
    layout->addWidget(hint);
    layout->addStretch(1);
    return page;
}

void showDeadLetterColumns(ColumnLayout* columns, bool show, SessionColumns sessions) {
    QSet<int> unavailable = show ? QSet<int>() : deadLetterColumns();
    if (sessions == SessionColumns::Hidden)
        unavailable.unite(sessionColumns());
    columns->setUnavailable(unavailable);
}

bool holdsMessages(NamespaceTreeModel::NodeKind kind) {
    using Kind = NamespaceTreeModel::NodeKind;
    return kind == Kind::Queue || kind == Kind::Subscription || kind == Kind::DeadLetterQueue;
}

} // namespace hourglass::ui
