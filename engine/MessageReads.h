#pragma once
// Reading messages without taking them: the explorer's paged lists and a client's peek (of one
// session too). Start here for "what does the message list show" and "why did peek say that".
// The other reads (one message, counts, flow, dead-letter reasons, the routing preview) are
// Broker's own functions in MessageReads.cpp.
//
// A part of the broker: its state is the broker's, and each call takes the broker's mutex itself
// (BrokerWrite), then reads the rows from the store after releasing it.

#include "hourglass/Broker.h"

namespace hourglass {

class BrokerImpl;

class MessageReads {
public:
    explicit MessageReads(BrokerImpl& broker)
        : m_broker(broker) {}

    // The explorer's page of an entity or dead-letter queue from `fromSeq`: changes nothing and
    // is no activity; `bodies` says whether the rows' bodies are read too.
    Result<QList<MessageView>> list(const QString& path, qint64 fromSeq, int maxCount, bool bodies);
    // A client's peek (1..10,000 messages, never of a topic: L12), of one session when
    // `sessionId` is set; activity on the entity (A2).
    Result<QList<MessageView>> peek(const QString& path, qint64 fromSeq, int maxCount,
                                    const QString* sessionId);

private:
    enum class Read { Explorer, Peek };
    // With sessionId: that session's messages only (an entity with sessions; O(its messages)).
    Result<QList<MessageView>> listMessages(const QString& path, qint64 fromSeq, int maxCount,
                                            bool bodies, Read read, const QString* sessionId);

    BrokerImpl& m_broker;
};

} // namespace hourglass
