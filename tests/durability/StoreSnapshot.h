#pragma once
// Everything a queue holds after a reopen, read through the explorer's paging call
// (Broker::listMessages, which has no side effects), keyed by message id.

#include "hourglass/Broker.h"

#include <QHash>
#include <QString>

namespace hourglass::durability {

struct StoreSnapshot {
    QHash<QString, MessageView> byId; // with bodies
    qint64 maxSequenceNumber = 0;
    // Empty when the listing worked and was sane: no error, sequence numbers strictly
    // increasing from page to page, and no message id twice.
    QString problem;

    static StoreSnapshot read(const Broker& broker, const QString& path);
};

} // namespace hourglass::durability
