#pragma once
// Reading the messages of a path (a queue, a subscription or "<entity>/$deadletterqueue") on
// either kind of namespace. A namespace this window hosts keeps an index of its sequence numbers
// in memory (Broker::sequenceIndex); a remote one has none, only peek (listMessages): its lists
// page forward from the lowest sequence number, and its size comes from its counts.
//
// Threads: worker threads only (each function makes broker calls that may wait for the wire).

#include "hourglass/Broker.h"

#include <QList>
#include <QString>

namespace hourglass::ui {

// Up to `count` messages of `path` from `fromSequenceNumber` on, in sequence order. A peek may
// hand back fewer than it was asked for before the end, so this reads on until it holds `count`
// or a read brings nothing new: fewer than `count` means the end was reached. Rows a peer sends
// out of order or below where the read starts are dropped (never read twice, never a loop).
Result<QList<MessageView>> readMessagesForward(const Broker& broker, const QString& path,
                                               qint64 fromSequenceNumber, int count,
                                               Broker::Bodies bodies = Broker::Bodies::Without);

// How many messages `path` lists now: the index's total on a hosted namespace, else what its
// counts say it holds (active, scheduled, deferred and locked; a remote namespace's counts may
// lag behind its messages by one poll).
Result<qint64> listedMessageCount(const Broker& broker, const QString& path);

} // namespace hourglass::ui
