#include "ReceiverLocks.h"

namespace hourglass {

void ReceiverLocks::hold(const QString& receiver, const MessageView& message) {
    QList<Held>& held = m_byReceiver[receiver];
    LockRef lock = LockRef::of(message);
    lock.receiver = receiver;
    held.removeIf([&](const Held& h) {
        return h.sequenceNumber == message.sequenceNumber && h.lock.entityPath == lock.entityPath;
    });
    held.append(Held{message.messageId, message.sequenceNumber, lock});
}

std::optional<ReceiverLocks::Held> ReceiverLocks::find(const QString& receiver,
                                                       const QString& messageId) const {
    const QList<Held> held = m_byReceiver.value(receiver);
    for (auto it = held.crbegin(); it != held.crend(); ++it) {
        if (it->messageId == messageId)
            return *it;
    }
    return std::nullopt;
}

std::optional<ReceiverLocks::Held> ReceiverLocks::findElsewhere(const QString& receiver,
                                                                const QString& messageId) const {
    for (auto it = m_byReceiver.begin(); it != m_byReceiver.end(); ++it) {
        if (it.key() == receiver)
            continue;
        if (auto found = find(it.key(), messageId))
            return found;
    }
    return std::nullopt;
}

} // namespace hourglass
