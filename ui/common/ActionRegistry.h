#pragma once
// Commands found by id, never by a widget's object name (as Qt Creator's action manager): the
// widget that owns a command registers its action under an id; a menu that triggers "the current
// tab's Move to…" asks the registry for that id of that tab's panel. Object names stay for the
// tests that drive the actions.
//
// An id says what the command does, prefixed by who defines it ("messages.moveTo"); the ids a
// folder registers are declared in its headers (MessageTransferActions.h). A command is
// forgotten when its owner or its action goes.
//
// Threads: GUI thread only.

#include <QString>

class QAction;
class QObject;

namespace hourglass::ui::actions {

// `owner`'s command `id` is `action`, replacing the one registered before under that id.
void add(QObject* owner, const QString& id, QAction* action);
// `owner`'s command `id`; null when it has none (or it is gone).
QAction* find(const QObject* owner, const QString& id);

} // namespace hourglass::ui::actions
