#pragma once
// The locks a scenario's named receivers took, as a client application keeps its received
// messages: the runner remembers every lock (even once settled, expired or lost in a restart,
// L9), so that a later Settle step asks the broker and observes its answer instead of guessing.

#include "hourglass/Broker.h"

#include <QList>
#include <QMap>
#include <QString>

#include <optional>

namespace hourglass {

class ReceiverLocks {
public:
    struct Held {
        QString messageId;
        qint64 sequenceNumber = 0;
        LockRef lock;
    };

    // Remembers the lock of `message`, replacing an older lock on the same message.
    void hold(const QString& receiver, const MessageView& message);
    // The newest lock `receiver` took on a message with this id.
    std::optional<Held> find(const QString& receiver, const QString& messageId) const;
    // The newest lock any other receiver took on a message with this id.
    std::optional<Held> findElsewhere(const QString& receiver, const QString& messageId) const;

private:
    QMap<QString, QList<Held>> m_byReceiver;
};

} // namespace hourglass
