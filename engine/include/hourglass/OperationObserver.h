#pragma once
// What the Broker tells an observer about each operation it carried out (Broker::
// setOperationObserver): enough to write the operation down again, e.g. as a scenario step
// (engine/scenario/ScenarioRecorder.h). Only successful operations are reported, once each,
// after they finished and outside the broker's lock, on the thread that called the Broker (so
// from several threads at once). The observer cannot change an operation or its result.
// Namespace creation and deletion are not reported, nor reads (a session's state included).

#include "hourglass/Broker.h"

namespace hourglass {

struct BrokerOperation {
    enum class Kind {
        Send,            // send, sendBatch, schedule: messages + sendResults
        CancelScheduled, // path + sequenceNumbers (one)
        Receive,         // path + receiveOptions + messagesOut (the views handed out);
                         // through a session: + session (receiveOptions.receiver its holder)
        ReceiveDeferred, // path + sequenceNumbers (one) + receiver + messagesOut (one);
                         // through a session: + session
        Complete,        // locks (completeBatch: only the locks that settled)
        Abandon,         // locks (one) + propertiesToModify
        DeadLetter,      // locks (one) + deadLetter
        Defer,           // locks (one) + propertiesToModify
        RenewLock,       // locks (one)
        Peek,            // path + fromSequenceNumber + maxCount + messagesOut (+ session.sessionId)
        CreateEntity,    // path + entity (the created entity, with its kind and rules)
        UpdateEntity,    // path + entity (after the update)
        DeleteEntity,    // path
        AddRule,         // path + rule
        RemoveRule,      // path + ruleName
        ReplaceRule,     // path + ruleName (the old rule's) + rule (the new one)
        DeleteMessages,  // path + sequenceNumbers
        TransferMessages, // path (source) + targetPath + sequenceNumbers + transfer + sendResults
        Resubmit,         // path (dead-letter queue) + sequenceNumbers + sendResults
        AcceptSession,    // path + session (the granted one) + lockedUntil; `at` is the grant
        RenewSessionLock, // path + session + lockedUntil (the new one)
        ReleaseSession,   // path + session
        ReleaseSessions,  // receiver (releaseSessionsOf: its connection broke; some were held)
        SetSessionState,  // path + session + sessionState (none: removed)
        AdvanceClock,     // clockDelta (Broker::advanceClock: somebody moved the clock ahead; a
                          // scenario player moves its clock with VirtualClock and runDue)
    };

    Kind kind = Kind::Send;
    // The broker's clock when the operation began (engine time: paused, sped up or jumped).
    Instant at = 0;
    // The path as the caller gave it (possibly "namespace:path").
    QString path;
    QString targetPath;

    // Send: as sent, every message with the MessageId it was stored under (for one sent without,
    // the id the broker gave it, as its SendResult says) and scheduledEnqueueTime for a schedule.
    // The send is the caller's own, made once: observing it changes nothing.
    QList<OutgoingMessage> messages;
    QList<SendResult> sendResults;
    QList<qint64> sequenceNumbers;

    ReceiveOptions receiveOptions;
    QString receiver; // ReceiveDeferred
    QList<MessageView> messagesOut;
    qint64 fromSequenceNumber = 0;
    int maxCount = 0;

    QList<LockRef> locks;
    QVariantMap propertiesToModify;
    DeadLetterOptions deadLetter;

    EntityInfo entity;
    Rule rule;
    QString ruleName;
    Broker::Transfer transfer = Broker::Transfer::Copy;

    // Sessions: the session the operation went through (empty sessionId when none).
    SessionRef session;
    Instant lockedUntil = 0;
    std::optional<QByteArray> sessionState;

    Millis clockDelta = 0; // AdvanceClock: how far ahead; `at` is the instant before the jump
};

class OperationObserver {
public:
    virtual ~OperationObserver() = default;
    // Called once per successful operation. Must not throw; may call the Broker's read
    // functions (no lock is held), but should be quick: the caller waits for it.
    virtual void operationDone(const BrokerOperation& operation) = 0;
};

} // namespace hourglass
