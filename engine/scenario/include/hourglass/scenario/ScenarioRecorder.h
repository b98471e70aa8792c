#pragma once
// Records what is done to a broker as a scenario file (scenario-format.md) that plays back with
// ScenarioRunner to the same state. Install it with Broker::setOperationObserver after begin():
//
//   auto recorder = std::make_shared<ScenarioRecorder>();
//   recorder->begin(broker);                 // UserConfig as it is now, the clock as the start
//   broker.setOperationObserver(recorder);
//   ...                                      // every successful operation becomes a step
//   broker.setOperationObserver(nullptr);
//   recorder->finish(broker);
//   file.write(recorder->toJson());
//
// Steps are at engine time: `At` is the broker's clock at the operation minus the clock at
// begin(), so a paused, sped-up or jumped clock records as it ran; a jump (Broker::advanceClock,
// the time toolbar's "Jump ahead") is also a step of its own, AdvanceClock, so a replay jumps too.
// The start holds the entities (not their messages). Receives hold their locks (Then: Hold) and the
// settlements that follow become Settle steps, naming the message the lock token was handed out
// with. Operations no step can express (message deletes, copies, moves, resubmits, settling a lock
// taken before the recording) are counted and named in the file's Description, never silently
// dropped. Session calls become AcceptSession (naming the session granted, also for a
// next-available accept, so a replay takes the same one), ReleaseSession and SessionState steps;
// receives through a session are Receive/ReceiveDeferred steps of its holder, which the runner
// sends through the session. A session lock renewal has no step: it is written as a ReleaseSession
// and an AcceptSession of the same session at the same instant, which ends the same (the lock runs
// LockDuration from now) as long as its holder holds no message lock; otherwise it is left out.
//
// Threads: every member is safe to call from any thread; operationDone() arrives from several.

#include "hourglass/OperationObserver.h"

#include <QByteArray>
#include <QDateTime>
#include <QHash>
#include <QJsonObject>
#include <QMap>
#include <QSet>
#include <QUuid>

#include <atomic>
#include <mutex>

namespace hourglass {

class ScenarioRecorder final : public OperationObserver {
public:
    // What was left out, by kind (the Description names each with its count).
    enum class LeftOut {
        MessageDelete,
        Copy,
        Move,
        Resubmit,
        ForeignLockSettlement,  // a lock taken before the recording began
        ForeignNamespaceCreate, // an entity created outside the first namespace
        SessionRenewal,         // a session lock renewed while its holder held message locks
        ForeignSession,         // a session call under a session taken before the recording
    };

    ScenarioRecorder() = default;

    // Starts a recording (again: whatever was recorded before is dropped): every namespace's
    // UserConfig and the clock's now. Reads the broker; call off the GUI thread.
    Result<void> begin(const Broker& broker);
    // Ends it: the file's clock runs up to the broker's now (an Exists check on one entity at
    // that offset makes a replay wait as long). Later operations are ignored.
    void finish(const Broker& broker);

    // Ends this recorder for good, from any thread: begin() refuses from now on and every
    // operation is ignored. For an owner that goes away while begin() may still be queued.
    void cancel();
    bool isCancelled() const;

    void operationDone(const BrokerOperation& operation) override;

    // An Expect step with the entity's counts and dead-letter reasons now ("x/$deadletterqueue"
    // checks its entity), so that the file checks itself on replay.
    Result<void> addExpectation(const Broker& broker, const QString& path);

    void setTitle(const QString& title);
    bool isRecording() const;
    int stepCount() const;
    Instant startedAt() const;
    QMap<LeftOut, int> leftOut() const;
    // "2 message deletes, 1 move", or empty when nothing was left out.
    QString leftOutText() const;
    // The Description the file will carry.
    QString description() const;
    // The scenario document; parseScenario accepts it.
    QByteArray toJson() const;

private:
    struct Step {
        Millis at = 0;
        QString name; // "Send", "Receive", ...
        QJsonObject body;
    };
    struct HeldLock {
        QString receiver;
        QString messageId;
    };

    // All below: with m_mutex held.
    void addStep(Instant at, const QString& name, const QJsonObject& body);
    QString pathOf(const QString& path) const;
    void recordSend(const BrokerOperation& op);
    void recordReceived(const BrokerOperation& op);
    void recordSettle(const BrokerOperation& op);
    void recordCancel(const BrokerOperation& op);
    void recordEntityChange(const BrokerOperation& op);
    void recordSession(const BrokerOperation& op);
    bool holdsSession(const QString& receiver, const QString& from, const QString& sessionId) const;
    void forgetSession(const QString& receiver, const QString& from);
    void forgetSessionsUnder(const QString& path);
    void addSessionStep(Instant at, const QString& name, const QString& receiver,
                        const QString& from, QJsonObject body);
    QString leftOutLocked() const;
    QString describeLocked() const;

    mutable std::mutex m_mutex;
    std::atomic<bool> m_cancelled = false;
    bool m_recording = false;
    Instant m_start = 0;
    QDateTime m_startedOn;
    QString m_title;
    QString m_firstNamespace; // its paths are written unqualified
    QJsonObject m_userConfig;
    QSet<QString> m_entitiesAtStart; // "namespace:path", lower case: what the start holds
    qint64 m_messagesAtStart = 0;
    QList<Step> m_steps;
    std::optional<Step> m_endStep;
    QHash<QUuid, HeldLock> m_locks; // lock token -> who holds which message
    // Scheduled messages by "path\nsequence number" -> MessageId, and how often each
    // "path\nMessageId" was scheduled (a repeated id is cancelled by number instead).
    QHash<QString, QString> m_scheduledIds;
    QHash<QString, int> m_scheduledIdUses;
    QMap<LeftOut, int> m_leftOut;
    int m_binaryBodies = 0;
    int m_binaryStates = 0;
    // Sessions held, by receiver, as (From as written, session id, lock end): ReleaseSessions
    // names only the receiver, and a renewal needs to know which session to accept again. An
    // update or delete of the entity (or its topic) forgets them: their locks are lost (S5).
    struct HeldSession {
        QString from;
        QString sessionId;
        Instant lockedUntil = 0; // past it the lock is gone: nothing to release on replay
    };
    QMultiHash<QString, HeldSession> m_sessions;
};

} // namespace hourglass
