#pragma once
// Message sessions (service-bus-rules.md S1-S6): what a session entity accepts and refuses, session
// locks, the next available session and waiting for one on the virtual clock (S1-S3) in
// tst_engine_sessions.cpp; session state, lost session locks, deferred messages, per-message
// rules inside sessions and the explorer's session reads (S4-S6) in
// tst_engine_sessions_state.cpp; a peek limited to one session (L12) in
// tst_engine_sessions_peek.cpp. Tests that restart the engine run twice (KilledRestart.h):
// after a clean close and after a kill -9 right after the last acknowledged operation.

#include "hourglass/Broker.h"

#include <QObject>

#include <condition_variable>
#include <mutex>

namespace hourglass::testing {

inline const QString kSessionQueue = QStringLiteral("sq");
inline const QString kSessionDeadLetters = QStringLiteral("sq/$deadletterqueue");

inline EntityProperties sessionProperties(Millis lockDuration = seconds(30),
                                          int maxDeliveryCount = 10) {
    EntityProperties p;
    p.requiresSession = true;
    p.lockDuration = lockDuration;
    p.maxDeliveryCount = maxDeliveryCount;
    return p;
}

// A message of a session.
inline OutgoingMessage sessionMessage(const QString& sessionId, const QString& messageId) {
    OutgoingMessage m;
    m.messageId = messageId;
    m.sessionId = sessionId;
    m.body = messageId.toUtf8();
    return m;
}

inline SessionAcceptOptions named(const QString& receiver, const QString& sessionId) {
    return {receiver, sessionId};
}

inline SessionAcceptOptions nextAvailable(const QString& receiver) {
    return {receiver, std::nullopt};
}

// Collects the one callback of an acceptSessionAsync wait, which arrives on the broker's
// callback thread. wait() blocks on a condition variable until it came (or the generous limit,
// which only a broken engine reaches): no sleeping, no polling.
class AcceptOutcome {
public:
    SessionAcceptCallback callback() {
        return [this](const Result<AcceptedSession>& result) {
            std::lock_guard lock(m_mutex);
            m_results.push_back(result);
            m_arrived.notify_all();
        };
    }
    // The result, once it came; nullopt when none came in 10 s.
    std::optional<Result<AcceptedSession>> wait() {
        std::unique_lock lock(m_mutex);
        if (!m_arrived.wait_for(lock, std::chrono::seconds(10),
                                [this] { return !m_results.empty(); }))
            return std::nullopt;
        return m_results.front();
    }
    int count() {
        std::lock_guard lock(m_mutex);
        return static_cast<int>(m_results.size());
    }

private:
    std::mutex m_mutex;
    std::condition_variable m_arrived;
    std::vector<Result<AcceptedSession>> m_results;
};

} // namespace hourglass::testing

class TestEngineSessions : public QObject {
    Q_OBJECT

private slots:
    // tst_engine_sessions.cpp
    void sessions_E5_requiresSessionIsFixedAtCreation();
    void sessions_S1_sendWithoutSessionIdIsRefused();
    void sessions_S1_plainReceiveOnSessionEntityIsRefused();
    void sessions_S1_sessionReceiveOnPlainEntityIsRefused();
    void sessions_S1_copiesAndForwardsWithoutSessionIdAreDeadLettered();
    void sessions_S2_sessionLockIsExclusive();
    void sessions_S2_messagesInSequenceOrderUnderTheirOwnLocks();
    void sessions_S2_lockedUntilIsShownAndRenewed();
    void sessions_S3_nextAvailableHasTheOldestReceivableMessage();
    void sessions_S3_namedSessionWithoutMessagesIsAccepted();
    void sessions_S3_noSessionAvailableIsServiceTimeout();
    void sessions_S3_waitTimesOutOnTheVirtualClock();
    void sessions_S3_waitIsGrantedWhenASessionArrives();
    void sessions_S3_waitIsGrantedAtTheInstantALockRunsOut();
    void sessions_S3_waitsAreServedOldestFirst();
    void sessions_S3_cancelledWaitIsNeverCalledBack();

    // tst_engine_sessions_state.cpp
    void sessions_S4_stateIsSetReadAndCleared();
    void sessions_S4_stateIsUpToTheMaxMessageSize();
    void sessions_S4_onlyTheHolderReadsAndWritesState();
    void sessions_S4_stateSurvivesRestart_data();
    void sessions_S4_stateSurvivesRestart();
    void sessions_S5_lockRunningOutLosesSessionAndMessageLocks();
    void sessions_S5_updateLosesSessionLocks();
    void sessions_S5_restartLosesSessionLocks_data();
    void sessions_S5_restartLosesSessionLocks();
    void sessions_S5_settlingAfterRestartSaysSessionLockLost_data();
    void sessions_S5_settlingAfterRestartSaysSessionLockLost();
    void sessions_S5_brokenConnectionReleasesItsSessions();
    void sessions_S5_releaseLosesHeldMessageLocks();
    void sessions_S6_deferredMessagesThroughTheSession();
    void sessions_S6_maxDeliveryCountAndTtlPerMessage();
    void sessions_S6_scheduledMessageJoinsItsSession();
    void sessions_counts_sessionListIsPaged();

    // tst_engine_sessions_peek.cpp
    void sessions_L12_S2_peekShowsOneSessionOnly();
    void sessions_L12_S1_sessionPeekNeedsSessions();
};
