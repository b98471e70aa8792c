// Sessions, part 2: session state, what is lost with a session lock, deferred messages and
// per-message rules inside sessions, and the explorer's session reads (S4-S6).
#include "TestEngineSessions.h"

#include "BrokerSnapshot.h"
#include "EngineChecks.h"
#include "KilledRestart.h"
#include "TestBroker.h"

#include <QTest>

using namespace hourglass;
using namespace hourglass::testing;

namespace {
const QString& kQueue = kSessionQueue;
const QString& kDeadLetters = kSessionDeadLetters;

// Accepts `sessionId` for `receiver` and receives up to `count` of its messages under lock.
struct Held {
    AcceptedSession session;
    QList<MessageView> messages;
    SessionRef ref() const { return SessionRef::of(session); }
};

std::optional<Held> hold(TestBroker& tb, const QString& receiver, const QString& sessionId,
                         int count) {
    const auto session = tb->acceptSession(kQueue, named(receiver, sessionId));
    if (!session) {
        QTest::qFail(qPrintable(session.error().toString()), __FILE__, __LINE__);
        return std::nullopt;
    }
    const auto got = tb->receiveFromSession(SessionRef::of(*session), ReceiveMode::PeekLock, count);
    if (!got) {
        QTest::qFail(qPrintable(got.error().toString()), __FILE__, __LINE__);
        return std::nullopt;
    }
    return Held{*session, *got};
}

SessionInfo sessionOf(TestBroker& tb, const QString& sessionId) {
    const auto info = tb->session(kQueue, sessionId);
    if (!info)
        qFatal("session() failed: %s", qPrintable(info.error().toString()));
    return *info;
}

// Session A holds a1 and a2; receiver "r" holds A's lock with a1 locked; its state is "s1".
const BeforeRestart kStateAndLocks{
    "stateAndLocks", [](TestBroker& tb, Handoff& handoff) {
        HG_VERIFY_OK(tb->createQueue(kQueue, sessionProperties(minutes(5))));
        HG_VERIFY_OK(tb->send(kQueue, sessionMessage(QStringLiteral("A"), QStringLiteral("a1"))));
        HG_VERIFY_OK(tb->send(kQueue, sessionMessage(QStringLiteral("A"), QStringLiteral("a2"))));
        const auto session = tb->acceptSession(kQueue, named(QStringLiteral("r"), "A"));
        HG_VERIFY_OK(session);
        const auto got = tb->receiveFromSession(SessionRef::of(*session), ReceiveMode::PeekLock, 1);
        HG_VERIFY_OK(got);
        QCOMPARE(got->size(), 1);
        handoff.put(QStringLiteral("token"), got->first().lockToken);
        tb.advance(seconds(1));
        // The last acknowledged operation before the crash.
        HG_VERIFY_OK(tb->setSessionState(SessionRef::of(*session), QByteArray("s1")));
    }};
} // namespace

void TestEngineSessions::sessions_S4_stateIsSetReadAndCleared() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createQueue(kQueue, sessionProperties()));
    const auto session = tb->acceptSession(kQueue, named(QStringLiteral("r"), "A"));
    HG_VERIFY_OK(session);
    const SessionRef ref = SessionRef::of(*session);
    auto state = tb->sessionState(ref);
    HG_VERIFY_OK(state);
    QVERIFY(!state->has_value()); // no state until one is set

    tb.advance(seconds(3));
    const QByteArray binary("step-3\0\xff", 8);
    HG_VERIFY_OK(tb->setSessionState(ref, binary));
    state = tb->sessionState(ref);
    HG_VERIFY_OK(state);
    QCOMPARE(state->value(), binary);
    SessionInfo info = sessionOf(tb, QStringLiteral("A"));
    QCOMPARE(info.hasState, true);
    QCOMPARE(info.stateSize, qint64(8));
    QCOMPARE(info.stateSetAt, kTestStart + seconds(3));
    QCOMPARE(info.state, binary);

    // An empty state is a state; null removes it.
    tb.advance(seconds(1));
    HG_VERIFY_OK(tb->setSessionState(ref, QByteArray()));
    state = tb->sessionState(ref);
    HG_VERIFY_OK(state);
    QVERIFY(state->has_value());
    QCOMPARE(state->value().size(), 0);
    QCOMPARE(sessionOf(tb, QStringLiteral("A")).stateSetAt, kTestStart + seconds(4));
    HG_VERIFY_OK(tb->setSessionState(ref, std::nullopt));
    state = tb->sessionState(ref);
    HG_VERIFY_OK(state);
    QVERIFY(!state->has_value());
    info = sessionOf(tb, QStringLiteral("A"));
    QCOMPARE(info.hasState, false);
    QCOMPARE(info.stateSetAt, Instant(0));

    // Kept after the lock ends until set to null: a session with only a state is listed.
    HG_VERIFY_OK(tb->setSessionState(ref, QByteArray("kept")));
    HG_VERIFY_OK(tb->releaseSession(ref));
    auto listed = tb->listSessions(kQueue, {}, 10);
    HG_VERIFY_OK(listed);
    QCOMPARE(listed->size(), 1);
    QCOMPARE(listed->first().hasState, true);
    QCOMPARE(listed->first().lockedBy, QString());
    const auto again = tb->acceptSession(kQueue, named(QStringLiteral("r2"), "A"));
    HG_VERIFY_OK(again);
    state = tb->sessionState(SessionRef::of(*again));
    QCOMPARE(state->value(), QByteArray("kept"));
    // Cleared, unlocked and without messages, the session is gone from the list.
    HG_VERIFY_OK(tb->setSessionState(SessionRef::of(*again), std::nullopt));
    HG_VERIFY_OK(tb->releaseSession(SessionRef::of(*again)));
    listed = tb->listSessions(kQueue, {}, 10);
    HG_VERIFY_OK(listed);
    QCOMPARE(listed->size(), 0);
}

void TestEngineSessions::sessions_S4_stateIsUpToTheMaxMessageSize() {
    TestBroker tb;
    EntityProperties p = sessionProperties();
    p.maxMessageSizeInKilobytes = 1;
    HG_VERIFY_OK(tb->createQueue(kQueue, p));
    const auto session = tb->acceptSession(kQueue, named(QStringLiteral("r"), "A"));
    HG_VERIFY_OK(session);
    const SessionRef ref = SessionRef::of(*session);
    HG_VERIFY_OK(tb->setSessionState(ref, QByteArray(1024, 'x')));
    HG_VERIFY_REFUSED(tb.broker(), tb->setSessionState(ref, QByteArray(1025, 'y')),
                      ErrorCode::MessageSizeExceeded);
    QCOMPARE(tb->sessionState(ref)->value(), QByteArray(1024, 'x'));
}

void TestEngineSessions::sessions_S4_onlyTheHolderReadsAndWritesState() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createQueue(kQueue, sessionProperties()));
    const SessionRef unlocked{kQueue, QStringLiteral("A"), QStringLiteral("r")};
    HG_VERIFY_REFUSED(tb.broker(), tb->setSessionState(unlocked, QByteArray("x")),
                      ErrorCode::SessionLockLost);
    HG_VERIFY_ERROR(tb->sessionState(unlocked), ErrorCode::SessionLockLost);
    HG_VERIFY_OK(tb->acceptSession(kQueue, named(QStringLiteral("r"), "A")));
    const SessionRef foreign{kQueue, QStringLiteral("A"), QStringLiteral("intruder")};
    HG_VERIFY_REFUSED(tb.broker(), tb->setSessionState(foreign, QByteArray("x")),
                      ErrorCode::SessionLockLost);
    HG_VERIFY_ERROR(tb->sessionState(foreign), ErrorCode::SessionLockLost);
    HG_VERIFY_OK(tb->setSessionState(unlocked, QByteArray("mine")));
}

void TestEngineSessions::sessions_S4_stateSurvivesRestart_data() {
    addRestartRows();
}

void TestEngineSessions::sessions_S4_stateSurvivesRestart() {
    QFETCH(Restart, restart);
    TestBroker tb;
    kStateAndLocks.runThenRestart(tb, restart);
    if (QTest::currentTestFailed())
        return;
    const SessionInfo info = sessionOf(tb, QStringLiteral("A"));
    QCOMPARE(info.hasState, true);
    QCOMPARE(info.state, QByteArray("s1"));
    QCOMPARE(info.stateSetAt, kTestStart + seconds(1));
    QCOMPARE(info.lockedBy, QString()); // S5: the lock did not survive
    QCOMPARE(info.active, qint64(2));
    const auto session = tb->acceptSession(kQueue, named(QStringLiteral("after"), "A"));
    HG_VERIFY_OK(session);
    const auto state = tb->sessionState(SessionRef::of(*session));
    HG_VERIFY_OK(state);
    QCOMPARE(state->value(), QByteArray("s1"));
}

void TestEngineSessions::sessions_S5_lockRunningOutLosesSessionAndMessageLocks() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createQueue(kQueue, sessionProperties(seconds(30))));
    HG_VERIFY_OK(tb->send(kQueue, sessionMessage(QStringLiteral("A"), QStringLiteral("a1"))));
    HG_VERIFY_OK(tb->send(kQueue, sessionMessage(QStringLiteral("A"), QStringLiteral("a2"))));
    const auto held = hold(tb, QStringLiteral("r"), QStringLiteral("A"), 1);
    QVERIFY(held);
    // The message lock is renewed past the session lock; the session lock is not.
    tb.advance(seconds(20));
    HG_VERIFY_OK(tb->renewLock(LockRef::of(held->messages.first())));
    tb.advance(seconds(10));
    HG_VERIFY_ERROR(tb->complete(LockRef::of(held->messages.first())), ErrorCode::SessionLockLost);
    HG_VERIFY_ERROR(tb->receiveFromSession(held->ref(), ReceiveMode::PeekLock, 1),
                    ErrorCode::SessionLockLost);
    HG_VERIFY_ERROR(tb->renewSessionLock(held->ref()), ErrorCode::SessionLockLost);
    // a1 went back to the session with its delivery counted.
    const auto next = hold(tb, QStringLiteral("r2"), QStringLiteral("A"), 5);
    QVERIFY(next);
    QCOMPARE(messageIds(next->messages), (QStringList{QStringLiteral("a1"), QStringLiteral("a2")}));
    QCOMPARE(next->messages.first().deliveryCount, quint32(2));
}

void TestEngineSessions::sessions_S5_updateLosesSessionLocks() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createQueue(kQueue, sessionProperties(minutes(1))));
    HG_VERIFY_OK(tb->send(kQueue, sessionMessage(QStringLiteral("A"), QStringLiteral("a1"))));
    const auto held = hold(tb, QStringLiteral("r"), QStringLiteral("A"), 1);
    QVERIFY(held);
    HG_VERIFY_OK(tb->updateEntity(kQueue, sessionProperties(minutes(2))));
    HG_VERIFY_ERROR(tb->complete(LockRef::of(held->messages.first())), ErrorCode::SessionLockLost);
    HG_VERIFY_ERROR(tb->renewSessionLock(held->ref()), ErrorCode::SessionLockLost);
    QCOMPARE(tb->counts(kQueue)->locked, qint64(0));
    QCOMPARE(tb->counts(kQueue)->active, qint64(1));
    // An update of a topic is an update of its subscriptions (E5).
    HG_VERIFY_OK(tb->createTopic(QStringLiteral("t"), {}));
    HG_VERIFY_OK(tb->createSubscription(QStringLiteral("t/Subscriptions/s"), sessionProperties()));
    const auto sub =
        tb->acceptSession(QStringLiteral("t/Subscriptions/s"), named(QStringLiteral("r"), "B"));
    HG_VERIFY_OK(sub);
    EntityProperties topic;
    topic.defaultMessageTimeToLive = hours(1);
    HG_VERIFY_OK(tb->updateEntity(QStringLiteral("t"), topic));
    HG_VERIFY_ERROR(tb->renewSessionLock(SessionRef::of(*sub)), ErrorCode::SessionLockLost);
}

void TestEngineSessions::sessions_S5_restartLosesSessionLocks_data() {
    addRestartRows();
}

void TestEngineSessions::sessions_S5_restartLosesSessionLocks() {
    QFETCH(Restart, restart);
    TestBroker tb;
    const Handoff handed = kStateAndLocks.runThenRestart(tb, restart);
    if (QTest::currentTestFailed())
        return;
    const SessionRef ref{kQueue, QStringLiteral("A"), QStringLiteral("r")};
    HG_VERIFY_ERROR(tb->renewSessionLock(ref), ErrorCode::SessionLockLost);
    // The message lock went with it (L9), and settling it says why: its session is gone.
    HG_VERIFY_ERROR(
        tb->complete({kQueue, handed.uuid(QStringLiteral("token")), QStringLiteral("r")}),
        ErrorCode::SessionLockLost);
    const auto held = hold(tb, QStringLiteral("other"), QStringLiteral("A"), 5);
    QVERIFY(held);
    QCOMPARE(messageIds(held->messages), (QStringList{QStringLiteral("a1"), QStringLiteral("a2")}));
    QCOMPARE(held->messages.first().deliveryCount, quint32(2)); // D2: the delivery counted
}

void TestEngineSessions::sessions_S5_settlingAfterRestartSaysSessionLockLost_data() {
    addRestartRows();
}

void TestEngineSessions::sessions_S5_settlingAfterRestartSaysSessionLockLost() {
    QFETCH(Restart, restart);
    TestBroker tb;
    const Handoff handed = kStateAndLocks.runThenRestart(tb, restart);
    if (QTest::currentTestFailed())
        return;
    const LockRef lock{kQueue, handed.uuid(QStringLiteral("token")), QStringLiteral("r")};
    tb.advance(seconds(1));
    // Every way of settling the message of the session the restart ended, and renewing it.
    HG_VERIFY_ERROR(tb->abandon(lock), ErrorCode::SessionLockLost);
    HG_VERIFY_ERROR(tb->defer(lock), ErrorCode::SessionLockLost);
    HG_VERIFY_ERROR(tb->deadLetter(lock, {}), ErrorCode::SessionLockLost);
    HG_VERIFY_ERROR(tb->renewLock(lock), ErrorCode::SessionLockLost);
    HG_VERIFY_ERROR(tb->complete(lock), ErrorCode::SessionLockLost);
    // A lock of this run that was settled is simply gone, as anywhere: MessageLockLost.
    const auto held = hold(tb, QStringLiteral("r2"), QStringLiteral("A"), 1);
    QVERIFY(held);
    const LockRef fresh = LockRef::of(held->messages.first());
    HG_VERIFY_OK(tb->complete(fresh));
    HG_VERIFY_ERROR(tb->complete(fresh), ErrorCode::MessageLockLost);
    // A token this run never handed out counts as one of an earlier run.
    HG_VERIFY_ERROR(tb->complete({kQueue, QUuid::createUuid(), QStringLiteral("r2")}),
                    ErrorCode::SessionLockLost);
}

void TestEngineSessions::sessions_S5_brokenConnectionReleasesItsSessions() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createQueue(kQueue, sessionProperties(minutes(1))));
    for (const char* id : {"A", "B", "C"})
        HG_VERIFY_OK(
            tb->send(kQueue, sessionMessage(QLatin1String(id), QString::fromLatin1(id) + u'1')));
    const QString link = QStringLiteral("amqp/7/session-link");
    const auto a = hold(tb, link, QStringLiteral("A"), 1);
    QVERIFY(a);
    HG_VERIFY_OK(tb->acceptSession(kQueue, named(link, "B")));
    HG_VERIFY_OK(tb->acceptSession(kQueue, named(QStringLiteral("amqp/8/other"), "C")));
    QCOMPARE(tb->releaseSessionsOf(link), 2);
    QCOMPARE(tb->releaseSessionsOf(link), 0);
    HG_VERIFY_ERROR(tb->complete(LockRef::of(a->messages.first())), ErrorCode::SessionLockLost);
    HG_VERIFY_OK(tb->acceptSession(kQueue, named(QStringLiteral("next"), "A")));
    HG_VERIFY_OK(tb->acceptSession(kQueue, named(QStringLiteral("next"), "B")));
    HG_VERIFY_ERROR(tb->acceptSession(kQueue, named(QStringLiteral("next"), "C")),
                    ErrorCode::SessionCannotBeLocked);
}

void TestEngineSessions::sessions_S5_releaseLosesHeldMessageLocks() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createQueue(kQueue, sessionProperties(minutes(1))));
    HG_VERIFY_OK(tb->send(kQueue, sessionMessage(QStringLiteral("A"), QStringLiteral("a1"))));
    const auto held = hold(tb, QStringLiteral("r"), QStringLiteral("A"), 1);
    QVERIFY(held);
    HG_VERIFY_OK(tb->releaseSession(held->ref()));
    HG_VERIFY_ERROR(tb->releaseSession(held->ref()), ErrorCode::SessionLockLost);
    HG_VERIFY_ERROR(tb->complete(LockRef::of(held->messages.first())), ErrorCode::SessionLockLost);
    QCOMPARE(tb->counts(kQueue)->active, qint64(1));
    // A settled message's lock is simply gone: MessageLockLost, as anywhere.
    const auto again = hold(tb, QStringLiteral("r"), QStringLiteral("A"), 1);
    QVERIFY(again);
    HG_VERIFY_OK(tb->complete(LockRef::of(again->messages.first())));
    HG_VERIFY_ERROR(tb->complete(LockRef::of(again->messages.first())), ErrorCode::MessageLockLost);
}

void TestEngineSessions::sessions_S6_deferredMessagesThroughTheSession() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createQueue(kQueue, sessionProperties(minutes(1))));
    HG_VERIFY_OK(tb->send(kQueue, sessionMessage(QStringLiteral("A"), QStringLiteral("a1"))));
    HG_VERIFY_OK(tb->send(kQueue, sessionMessage(QStringLiteral("A"), QStringLiteral("a2"))));
    HG_VERIFY_OK(tb->send(kQueue, sessionMessage(QStringLiteral("B"), QStringLiteral("b1"))));
    const auto held = hold(tb, QStringLiteral("r"), QStringLiteral("A"), 1);
    QVERIFY(held);
    const qint64 deferredSeq = held->messages.first().sequenceNumber;
    HG_VERIFY_OK(tb->defer(LockRef::of(held->messages.first())));
    // Out of the session's normal receives (L8), visible to its counts.
    const auto rest = tb->receiveFromSession(held->ref(), ReceiveMode::PeekLock, 5);
    HG_VERIFY_OK(rest);
    QCOMPARE(messageIds(*rest), QStringList{QStringLiteral("a2")});
    QCOMPARE(sessionOf(tb, QStringLiteral("A")).deferred, qint64(1));
    HG_VERIFY_REFUSED(tb.broker(), tb->receiveDeferred(kQueue, deferredSeq, QStringLiteral("r")),
                      ErrorCode::InvalidArgument);
    // Another session's holder cannot take it.
    const auto b = tb->acceptSession(kQueue, named(QStringLiteral("rb"), "B"));
    HG_VERIFY_OK(b);
    HG_VERIFY_ERROR(tb->receiveDeferredFromSession(SessionRef::of(*b), deferredSeq),
                    ErrorCode::MessageNotFound);
    const auto deferred = tb->receiveDeferredFromSession(held->ref(), deferredSeq);
    HG_VERIFY_OK(deferred);
    QCOMPARE(deferred->messageId, QStringLiteral("a1"));
    QCOMPARE(deferred->state, MessageState::Deferred);
    QCOMPARE(deferred->locked, true);
    QCOMPARE(deferred->deliveryCount, quint32(2));
    HG_VERIFY_ERROR(tb->receiveDeferredFromSession(held->ref(), deferredSeq),
                    ErrorCode::MessageNotFound); // locked now
    HG_VERIFY_OK(tb->complete(LockRef::of(*deferred)));
    QCOMPARE(sessionOf(tb, QStringLiteral("A")).deferred, qint64(0));
}

void TestEngineSessions::sessions_S6_maxDeliveryCountAndTtlPerMessage() {
    TestBroker tb;
    EntityProperties p = sessionProperties(minutes(1), 2);
    p.deadLetteringOnMessageExpiration = true;
    HG_VERIFY_OK(tb->createQueue(kQueue, p));
    HG_VERIFY_OK(tb->send(kQueue, sessionMessage(QStringLiteral("A"), QStringLiteral("poison"))));
    OutgoingMessage shortLived = sessionMessage(QStringLiteral("A"), QStringLiteral("short"));
    shortLived.timeToLive = minutes(10);
    HG_VERIFY_OK(tb->send(kQueue, shortLived));
    const auto session = tb->acceptSession(kQueue, named(QStringLiteral("r"), "A"));
    HG_VERIFY_OK(session);
    const SessionRef ref = SessionRef::of(*session);
    for (int delivery = 1; delivery <= 2; ++delivery) {
        const auto got = tb->receiveFromSession(ref, ReceiveMode::PeekLock, 1);
        HG_VERIFY_OK(got);
        QCOMPARE(messageIds(*got), QStringList{QStringLiteral("poison")});
        QCOMPARE(got->first().deliveryCount, quint32(delivery));
        HG_VERIFY_OK(tb->abandon(LockRef::of(got->first())));
    }
    // L6 in a session: the third delivery would exceed MaxDeliveryCount.
    QCOMPARE(sessionOf(tb, QStringLiteral("A")).active, qint64(1));
    auto dead = tb->listMessages(kDeadLetters, 0, 10);
    HG_VERIFY_OK(dead);
    QCOMPARE(messageIds(*dead), QStringList{QStringLiteral("poison")});
    QCOMPARE(dead->first().deadLetterReason, QStringLiteral("MaxDeliveryCountExceeded"));
    QCOMPARE(dead->first().sessionId, QStringLiteral("A"));
    // T7 in a session: the short-lived message expires while the session is held.
    tb.advance(minutes(10));
    dead = tb->listMessages(kDeadLetters, 0, 10);
    QCOMPARE(messageIds(*dead), (QStringList{QStringLiteral("poison"), QStringLiteral("short")}));
    QCOMPARE(dead->at(1).deadLetterReason, QStringLiteral("TTLExpiredException"));
    const auto listed = tb->listSessions(kQueue, {}, 10);
    HG_VERIFY_OK(listed);
    QCOMPARE(listed->isEmpty(), true); // the lock ran out too: nothing is left of A
}

void TestEngineSessions::sessions_S6_scheduledMessageJoinsItsSession() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createQueue(kQueue, sessionProperties(minutes(5))));
    const auto scheduled =
        tb->schedule(kQueue, sessionMessage(QStringLiteral("A"), QStringLiteral("later")),
                     kTestStart + minutes(1));
    HG_VERIFY_OK(scheduled);
    SessionInfo info = sessionOf(tb, QStringLiteral("A"));
    QCOMPARE(info.scheduled, qint64(1));
    QCOMPARE(info.active, qint64(0));
    HG_VERIFY_ERROR(tb->acceptSession(kQueue, nextAvailable(QStringLiteral("r"))),
                    ErrorCode::ServiceTimeout);
    tb.advance(minutes(1));
    info = sessionOf(tb, QStringLiteral("A"));
    QCOMPARE(info.scheduled, qint64(0));
    QCOMPARE(info.active, qint64(1));
    const auto session = tb->acceptSession(kQueue, nextAvailable(QStringLiteral("r")));
    HG_VERIFY_OK(session);
    const auto got = tb->receiveFromSession(SessionRef::of(*session), ReceiveMode::PeekLock, 1);
    HG_VERIFY_OK(got);
    QCOMPARE(messageIds(*got), QStringList{QStringLiteral("later")});
    QVERIFY(got->first().sequenceNumber > scheduled->sequenceNumber); // L11
    // A scheduled message of a session that is cancelled leaves it.
    const auto cancelled =
        tb->schedule(kQueue, sessionMessage(QStringLiteral("Z"), QStringLiteral("never")),
                     kTestStart + hours(1));
    HG_VERIFY_OK(cancelled);
    HG_VERIFY_OK(tb->cancelScheduled(kQueue, cancelled->sequenceNumber));
    QCOMPARE(tb->listSessions(kQueue, QStringLiteral("Z"), 10)->size(), 0);
}

void TestEngineSessions::sessions_counts_sessionListIsPaged() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createQueue(kQueue, sessionProperties(minutes(1))));
    for (const char* id : {"e", "a", "d", "b", "c"})
        HG_VERIFY_OK(
            tb->send(kQueue, sessionMessage(QLatin1String(id), QString::fromLatin1(id) + u'1')));
    HG_VERIFY_OK(tb->send(kQueue, sessionMessage(QStringLiteral("b"), QStringLiteral("b2"))));
    const auto b = hold(tb, QStringLiteral("r"), QStringLiteral("b"), 1);
    QVERIFY(b);
    tb.advance(seconds(2));
    HG_VERIFY_OK(tb->setSessionState(b->ref(), QByteArray("state")));

    const auto pages = tb->sessionPages(kQueue, 2);
    HG_VERIFY_OK(pages);
    QCOMPARE(pages->total, qint64(5));
    QCOMPARE(pages->anchors, (QStringList{"a", "c", "e"}));
    QStringList ids;
    for (const QString& anchor : pages->anchors) {
        const auto page = tb->listSessions(kQueue, anchor, 2);
        HG_VERIFY_OK(page);
        for (const SessionInfo& info : *page)
            ids << info.sessionId;
    }
    QCOMPARE(ids, (QStringList{"a", "b", "c", "d", "e"}));
    const auto page = tb->listSessions(kQueue, QStringLiteral("b"), 1);
    HG_VERIFY_OK(page);
    const SessionInfo& info = page->first();
    QCOMPARE(info.sessionId, QStringLiteral("b"));
    QCOMPARE(info.active, qint64(1));
    QCOMPARE(info.locked, qint64(1));
    QCOMPARE(info.lockedBy, QStringLiteral("r"));
    QCOMPARE(info.lockedUntil, kTestStart + minutes(1));
    QCOMPARE(info.hasState, true);
    QCOMPARE(info.stateSize, qint64(5));
    QCOMPARE(info.stateSetAt, kTestStart + seconds(2));
    QVERIFY(info.state.isEmpty()); // lists carry no state bytes
    // The wire's get-message-sessions: only sessions whose state was set since an instant.
    const auto updated = tb->listSessions(kQueue, {}, 10, kTestStart + seconds(1));
    HG_VERIFY_OK(updated);
    QCOMPARE(updated->size(), 1);
    QCOMPARE(updated->first().sessionId, QStringLiteral("b"));
    QCOMPARE(tb->listSessions(kQueue, {}, 10, kTestStart + seconds(3))->size(), 0);
    // A session nobody used reads as empty.
    const SessionInfo unused = sessionOf(tb, QStringLiteral("nobody"));
    QCOMPARE(unused.sessionId, QStringLiteral("nobody"));
    QCOMPARE(unused.active + unused.locked + unused.deferred + unused.scheduled, qint64(0));
    HG_VERIFY_ERROR(tb->listSessions(kQueue, {}, 0), ErrorCode::InvalidArgument);
}
