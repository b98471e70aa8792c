#pragma once
// The default columns of each message table, ordered by what its view is for, and sized so that
// the texts a cell can turn into ("expired, held by lock", "Lock lost", a countdown) are never
// cut:
//  - the Messages list and Peek: the time-to-live countdown right after the message id;
//  - Receive & settle (the held locks): the lock countdown right after the message id;
//  - the dead-letter list: the reason and its description right after the message id.
// The user may hide, show and reorder them (ColumnLayout remembers it per view).

#include "common/ColumnLayout.h"

#include <QSet>

class QTableView;

namespace hourglass::ui {

enum class MessageTableKind { List, Peek, HeldLocks, DeadLetters };

// Gives `view` (whose model has MessageListModel's columns, and maybe MessageViewModel's
// dead-letter ones) the default layout of its kind, remembered under the kind's name.
ColumnLayout* arrangeMessageColumns(QTableView* view, MessageTableKind kind);
// The name the kind's layout is remembered under ("messages", "peek", "heldLocks",
// "deadLetters").
QString messageTableName(MessageTableKind kind);
// The session columns (SessionId): unavailable for an entity that does not require sessions,
// where every message's SessionId is empty.
QSet<int> sessionColumns();
// The dead-letter columns: unavailable away from a dead-letter queue.
QSet<int> deadLetterColumns();

} // namespace hourglass::ui
