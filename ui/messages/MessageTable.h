#pragma once
// The look every in-hand message table shares (peek pages, held locks): whole-row selection,
// CountdownDelegate on the Time to live and Lock columns, alternating rows, no word wrap, no
// row header, the last column taking the spare width, and Ctrl+Home/Ctrl+End going to the first
// and last row (RowJumpKeys). One place, so the tables read alike.

#include "hourglass/Status.h"
#include "hourglass/Time.h"
#include "tree/NamespaceTreeModel.h"

#include <functional>

class QLabel;
class QObject;
class QStackedWidget;
class QTableView;
class QWidget;

namespace hourglass::ui {

class BrokerClient;
class ColumnLayout;

void prepareMessageTable(QTableView* view);
// Reads the LockDuration of the entity behind `path` ("ns:q", "ns:q/$deadletterqueue") off the
// GUI thread, for the lock bars; `done` runs on `context`'s thread unless it is gone.
void readLockDuration(BrokerClient& client, QObject* context, const QString& path,
                      std::function<void(Result<Millis>)> done);
// The table and its empty state as the two pages of `stack`; the label reads centred and greyed.
void stackWithEmptyState(QStackedWidget* stack, QTableView* view, QLabel* empty);
// An empty state's page: `empty` (styled by the caller) and under it the one-line hint about
// moving messages (moveMessagesHint), centred and greyed, named `hintName` for tests. The page is
// returned; the hint is `page->findChild<QLabel*>(hintName)`.
QWidget* emptyStateWithMoveHint(QLabel* empty, const QString& hintName, QWidget* parent);
// The dead-letter columns (reason, description, source) show for a dead-letter queue only, the
// SessionId column for an entity that requires sessions only.
enum class SessionColumns { Hidden, Shown };
void showDeadLetterColumns(ColumnLayout* columns, bool show,
                           SessionColumns sessions = SessionColumns::Hidden);
// Whether a tree node holds messages to peek or receive: a queue, a subscription or a
// dead-letter queue.
bool holdsMessages(NamespaceTreeModel::NodeKind kind);

} // namespace hourglass::ui
