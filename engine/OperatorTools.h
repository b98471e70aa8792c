#pragma once
// Operator tools over stored messages: delete, copy or move to another entity, resubmit from a
// dead-letter queue. Not Service Bus data-plane operations but what an explorer's user does
// (Service Bus Explorer's purge, resubmit and move); each is one critical section and one commit,
// so it is all or nothing and acknowledged only once durable. Start here for the explorer's
// "Delete", "Move to..." and "Resubmit".
//
// A part of the broker: its state is the broker's, and each call takes the broker's mutex itself
// (BrokerWrite).

#include "hourglass/Broker.h"

namespace hourglass {

class BrokerImpl;

class OperatorTools {
public:
    explicit OperatorTools(BrokerImpl& broker)
        : m_broker(broker) {}

    // Broker's calls of the same names (BrokerObserved.cpp reports them).
    Result<void> deleteMessages(const QString& path, const QList<qint64>& seqs);
    Result<QList<SendResult>> transferMessages(const QString& sourcePath, const QList<qint64>& seqs,
                                               const QString& targetPath, Broker::Transfer mode);

private:
    BrokerImpl& m_broker;
};

} // namespace hourglass
