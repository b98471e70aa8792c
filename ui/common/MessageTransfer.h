#pragma once
// Moving and copying messages to another entity, whichever way the user asks: a drop onto the
// tree (NamespaceTreeDrop.cpp) or the Move to… and Copy to… commands of the message lists
// (MessageTransferActions). Both run this, so they do the same engine work (dropMessages: one
// atomic transfer, or a resubmit when the target owns the source dead-letter queue) and report
// with the same words.
//
// Threads: start on the GUI thread; the engine work runs on a BrokerClient worker.

#include "common/MessageDrag.h"
#include "hourglass/Broker.h"
#include "hourglass/Status.h"

#include <QString>

#include <functional>

class QObject;

namespace hourglass::ui {

class BrokerClient;

// What an empty message or dead-letter view says about moving messages.
QString moveMessagesHint();

// Moves or copies `messages` to `targetPath` (qualified, "ns:q"; `targetName` is how the report
// names it). On success `finished` gets "Moved 3 messages to 'orders'." (Copied, Resubmitted);
// on failure `failed` gets the engine's error. Neither runs once `context` is gone.
void transferMessages(BrokerClient& client, QObject* context, const DraggedMessages& messages,
                      const QString& targetPath, const QString& targetName, Broker::Transfer mode,
                      std::function<void(const QString&)> finished,
                      std::function<void(const Error&)> failed);

// "1 message", "3 messages" (also "1 file", "2 files").
QString countOf(qsizetype n, const QString& one);

} // namespace hourglass::ui
