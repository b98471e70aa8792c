#pragma once
// What each column of a message table shows for one MessageView: its text, its raw value for
// sorting, its tooltip and its countdown. Shared by the windowed list (MessageListModel) and the
// in-hand lists (MessageViewModel) so that every message table in the explorer reads alike.
// Pure functions: `now` comes from the engine's clock, `lockDuration` is the entity's.

#include "hourglass/Message.h"
#include "messages/MessageListModel.h"

#include <QVariant>

namespace hourglass::ui::columns {

MessageListModel::RowState rowState(const MessageView& m, Instant now);
QString rowStateName(MessageListModel::RowState state);
QString localTime(Instant instant);

QVariant display(const MessageView& m, int column, Instant now, Millis lockDuration);
// The raw value under Qt::UserRole (what sorting compares).
QVariant raw(const MessageView& m, int column, Instant now, Millis lockDuration);
QVariant toolTip(const MessageView& m, int column);
QVariant alignment(int column);
// The Countdown of the two countdown columns (CountdownRole), else an invalid QVariant.
QVariant countdown(const MessageView& m, int column, Instant now, Millis lockDuration);
QString header(int column);

} // namespace hourglass::ui::columns
