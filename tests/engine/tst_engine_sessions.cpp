// Sessions, part 1: what a session entity accepts and refuses, session locks, the next available
// session, and waiting for one on the virtual clock (E5, S1-S3).
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

// Sends the messages (session, message id) in order; fails the test on an error.
void sendAll(TestBroker& tb, const QList<std::pair<QString, QString>>& messages,
             const QString& path = kSessionQueue) {
    for (const auto& [session, id] : messages)
        HG_VERIFY_OK(tb->send(path, sessionMessage(session, id)));
}

// The ids of what the session's holder receives now, up to `count`, under peek-lock.
QStringList receiveIds(TestBroker& tb, const AcceptedSession& session, int count = 10) {
    const auto got = tb->receiveFromSession(SessionRef::of(session), ReceiveMode::PeekLock, count);
    if (!got)
        return {QStringLiteral("error: ") + got.error().toString()};
    return messageIds(*got);
}
} // namespace

void TestEngineSessions::sessions_E5_requiresSessionIsFixedAtCreation() {
    TestBroker tb;
    const auto created = tb->createQueue(kQueue, sessionProperties());
    HG_VERIFY_OK(created);
    QCOMPARE(created->properties.requiresSession, true);
    HG_VERIFY_OK(tb->createTopic(QStringLiteral("t"), {}));
    HG_VERIFY_OK(tb->createSubscription(QStringLiteral("t/Subscriptions/s"), sessionProperties()));

    EntityProperties changed = sessionProperties();
    changed.requiresSession = false;
    HG_VERIFY_REFUSED(tb.broker(), tb->updateEntity(kQueue, changed), ErrorCode::InvalidArgument);
    HG_VERIFY_REFUSED(tb.broker(), tb->updateEntity(QStringLiteral("t/Subscriptions/s"), changed),
                      ErrorCode::InvalidArgument);
    // Other properties of a session entity change as usual.
    EntityProperties longer = sessionProperties(minutes(2));
    HG_VERIFY_OK(tb->updateEntity(kQueue, longer));
    QCOMPARE(tb->entity(kQueue)->properties.lockDuration, minutes(2));

    // A topic has no sessions: its subscriptions may require them.
    EntityProperties topic;
    topic.requiresSession = true;
    HG_VERIFY_REFUSED(tb.broker(), tb->createTopic(QStringLiteral("t2"), topic),
                      ErrorCode::InvalidArgument);
    HG_VERIFY_REFUSED(tb.broker(), tb->updateEntity(QStringLiteral("t"), topic),
                      ErrorCode::InvalidArgument);
    // And a plain queue cannot gain them later.
    HG_VERIFY_OK(tb->createQueue(QStringLiteral("plain"), {}));
    HG_VERIFY_REFUSED(tb.broker(), tb->updateEntity(QStringLiteral("plain"), sessionProperties()),
                      ErrorCode::InvalidArgument);
}

void TestEngineSessions::sessions_S1_sendWithoutSessionIdIsRefused() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createQueue(kQueue, sessionProperties()));
    HG_VERIFY_REFUSED(tb.broker(), tb->send(kQueue, TestBroker::message(QStringLiteral("m"))),
                      ErrorCode::InvalidArgument);
    // All or nothing: one message without a SessionId refuses the batch.
    const QList<OutgoingMessage> batch{sessionMessage(QStringLiteral("A"), QStringLiteral("a1")),
                                       TestBroker::message(QStringLiteral("m"))};
    HG_VERIFY_REFUSED(tb.broker(), tb->sendBatch(kQueue, batch), ErrorCode::InvalidArgument);
    HG_VERIFY_REFUSED(
        tb.broker(),
        tb->schedule(kQueue, TestBroker::message(QStringLiteral("m")), kTestStart + minutes(1)),
        ErrorCode::InvalidArgument);
    OutgoingMessage tooLong = sessionMessage(QString(129, u's'), QStringLiteral("m"));
    HG_VERIFY_REFUSED(tb.broker(), tb->send(kQueue, tooLong), ErrorCode::InvalidArgument);
    QCOMPARE(tb->counts(kQueue)->active, qint64(0));

    HG_VERIFY_OK(tb->send(kQueue, sessionMessage(QStringLiteral("A"), QStringLiteral("a1"))));
    HG_VERIFY_OK(tb->send(kQueue, sessionMessage(QString(128, u's'), QStringLiteral("long"))));
    QCOMPARE(tb->counts(kQueue)->active, qint64(2));
    // A message with a SessionId is an ordinary message elsewhere.
    HG_VERIFY_OK(tb->createQueue(QStringLiteral("plain"), {}));
    HG_VERIFY_OK(tb->send(QStringLiteral("plain"),
                          sessionMessage(QStringLiteral("A"), QStringLiteral("p"))));
    const auto plain = tb->receive(QStringLiteral("plain"), peekLock(QStringLiteral("r")));
    HG_VERIFY_OK(plain);
    QCOMPARE(plain->first().sessionId, QStringLiteral("A"));
}

void TestEngineSessions::sessions_S1_plainReceiveOnSessionEntityIsRefused() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createQueue(kQueue, sessionProperties(seconds(30), 1)));
    sendAll(tb, {{"A", "a1"}, {"A", "a2"}});
    HG_VERIFY_REFUSED(tb.broker(), tb->receive(kQueue, peekLock(QStringLiteral("r"))),
                      ErrorCode::InvalidArgument);
    HG_VERIFY_REFUSED(tb.broker(), tb->receive(kQueue, receiveAndDelete()),
                      ErrorCode::InvalidArgument);
    HG_VERIFY_REFUSED(tb.broker(), tb->receiveDeferred(kQueue, 1, QStringLiteral("r")),
                      ErrorCode::InvalidArgument);

    // The dead-letter queue has no sessions: it is received from as usual.
    const auto session = tb->acceptSession(kQueue, named(QStringLiteral("r"), "A"));
    HG_VERIFY_OK(session);
    const auto got = tb->receiveFromSession(SessionRef::of(*session), ReceiveMode::PeekLock, 1);
    HG_VERIFY_OK(got);
    HG_VERIFY_OK(tb->deadLetter(LockRef::of(got->first())));
    const auto dead = tb->receive(kDeadLetters, peekLock(QStringLiteral("r")));
    HG_VERIFY_OK(dead);
    QCOMPARE(messageIds(*dead), QStringList{QStringLiteral("a1")});
    HG_VERIFY_OK(tb->complete(LockRef::of(dead->first())));
}

void TestEngineSessions::sessions_S1_sessionReceiveOnPlainEntityIsRefused() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createQueue(QStringLiteral("plain"), {}));
    HG_VERIFY_OK(tb->createQueue(kQueue, sessionProperties()));
    HG_VERIFY_OK(tb->send(QStringLiteral("plain"),
                          sessionMessage(QStringLiteral("A"), QStringLiteral("p1"))));
    HG_VERIFY_REFUSED(tb.broker(),
                      tb->acceptSession(QStringLiteral("plain"), named(QStringLiteral("r"), "A")),
                      ErrorCode::InvalidArgument);
    HG_VERIFY_REFUSED(
        tb.broker(), tb->acceptSession(QStringLiteral("plain"), nextAvailable(QStringLiteral("r"))),
        ErrorCode::InvalidArgument);
    HG_VERIFY_REFUSED(tb.broker(),
                      tb->acceptSession(kDeadLetters, nextAvailable(QStringLiteral("r"))),
                      ErrorCode::InvalidArgument);
    HG_VERIFY_REFUSED(tb.broker(), tb->listSessions(QStringLiteral("plain"), {}, 10),
                      ErrorCode::InvalidArgument);
    const SessionRef ref{QStringLiteral("plain"), QStringLiteral("A"), QStringLiteral("r")};
    HG_VERIFY_REFUSED(tb.broker(), tb->receiveFromSession(ref, ReceiveMode::PeekLock, 1),
                      ErrorCode::InvalidArgument);
    HG_VERIFY_REFUSED(tb.broker(), tb->setSessionState(ref, QByteArray("x")),
                      ErrorCode::InvalidArgument);
    HG_VERIFY_REFUSED(
        tb.broker(),
        tb->acceptSession(QStringLiteral("missing"), nextAvailable(QStringLiteral("r"))),
        ErrorCode::MessagingEntityNotFound);
    HG_VERIFY_REFUSED(tb.broker(), tb->acceptSession(kQueue, named(QStringLiteral("r"), "")),
                      ErrorCode::InvalidArgument);
}

void TestEngineSessions::sessions_S1_copiesAndForwardsWithoutSessionIdAreDeadLettered() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createTopic(QStringLiteral("t"), {}));
    HG_VERIFY_OK(tb->createSubscription(QStringLiteral("t/Subscriptions/plain"), {}));
    HG_VERIFY_OK(
        tb->createSubscription(QStringLiteral("t/Subscriptions/sessions"), sessionProperties()));
    HG_VERIFY_OK(tb->send(QStringLiteral("t"), TestBroker::message(QStringLiteral("none"))));
    HG_VERIFY_OK(
        tb->send(QStringLiteral("t"), sessionMessage(QStringLiteral("A"), QStringLiteral("a1"))));
    QCOMPARE(tb->counts(QStringLiteral("t/Subscriptions/plain"))->active, qint64(2));
    const auto counts = tb->counts(QStringLiteral("t/Subscriptions/sessions"));
    QCOMPARE(counts->active, qint64(1));
    QCOMPARE(counts->deadLettered, qint64(1));
    const auto dead =
        tb->listMessages(QStringLiteral("t/Subscriptions/sessions/$deadletterqueue"), 0, 10);
    HG_VERIFY_OK(dead);
    QCOMPARE(messageIds(*dead), QStringList{QStringLiteral("none")});
    QCOMPARE(dead->first().deadLetterReason, QStringLiteral("SessionIdMissing"));

    // ForwardTo a session queue: the message cannot be forwarded and stays in the source.
    HG_VERIFY_OK(tb->createQueue(kQueue, sessionProperties()));
    EntityProperties forwarding;
    forwarding.forwardTo = kQueue;
    HG_VERIFY_OK(tb->createQueue(QStringLiteral("source"), forwarding));
    HG_VERIFY_OK(tb->send(QStringLiteral("source"), TestBroker::message(QStringLiteral("f1"))));
    HG_VERIFY_OK(tb->send(QStringLiteral("source"),
                          sessionMessage(QStringLiteral("B"), QStringLiteral("f2"))));
    const auto failed = tb->listMessages(QStringLiteral("source/$deadletterqueue"), 0, 10);
    HG_VERIFY_OK(failed);
    QCOMPARE(messageIds(*failed), QStringList{QStringLiteral("f1")});
    QCOMPARE(failed->first().deadLetterReason, QStringLiteral("ForwardingFailed"));
    QVERIFY2(failed->first().deadLetterErrorDescription.contains(QLatin1String("SessionId")),
             qPrintable(failed->first().deadLetterErrorDescription));
    const auto sessions = tb->listSessions(kQueue, {}, 10);
    HG_VERIFY_OK(sessions);
    QCOMPARE(sessions->size(), 1);
    QCOMPARE(sessions->first().sessionId, QStringLiteral("B"));
    QCOMPARE(sessions->first().active, qint64(1));
}

void TestEngineSessions::sessions_S2_sessionLockIsExclusive() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createQueue(kQueue, sessionProperties()));
    sendAll(tb, {{"A", "a1"}, {"B", "b1"}, {"A", "a2"}});
    const auto first = tb->acceptSession(kQueue, named(QStringLiteral("r1"), "A"));
    HG_VERIFY_OK(first);
    QCOMPARE(first->sessionId, QStringLiteral("A"));
    QCOMPARE(first->receiver, QStringLiteral("r1"));
    // Nobody else gets A while r1 holds it, r1 itself included; a refused accept changes
    // nothing, not even the entity's last activity.
    tb.advance(seconds(1));
    HG_VERIFY_REFUSED(tb.broker(), tb->acceptSession(kQueue, named(QStringLiteral("r2"), "A")),
                      ErrorCode::SessionCannotBeLocked);
    HG_VERIFY_REFUSED(tb.broker(), tb->acceptSession(kQueue, named(QStringLiteral("r1"), "A")),
                      ErrorCode::SessionCannotBeLocked);
    const auto second = tb->acceptSession(kQueue, nextAvailable(QStringLiteral("r2")));
    HG_VERIFY_OK(second);
    QCOMPARE(second->sessionId, QStringLiteral("B"));
    SessionRef stolen = SessionRef::of(*first);
    stolen.receiver = QStringLiteral("r2");
    HG_VERIFY_REFUSED(tb.broker(), tb->receiveFromSession(stolen, ReceiveMode::PeekLock, 5),
                      ErrorCode::SessionLockLost);
    QCOMPARE(receiveIds(tb, *second), QStringList{QStringLiteral("b1")});
    QCOMPARE(receiveIds(tb, *first), (QStringList{QStringLiteral("a1"), QStringLiteral("a2")}));
}

void TestEngineSessions::sessions_S2_messagesInSequenceOrderUnderTheirOwnLocks() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createQueue(kQueue, sessionProperties(seconds(30))));
    sendAll(tb, {{"A", "a1"}, {"B", "b1"}, {"A", "a2"}, {"A", "a3"}});
    const auto session = tb->acceptSession(kQueue, named(QStringLiteral("r"), "A"));
    HG_VERIFY_OK(session);
    const SessionRef ref = SessionRef::of(*session);
    const auto got = tb->receiveFromSession(ref, ReceiveMode::PeekLock, 2);
    HG_VERIFY_OK(got);
    QCOMPARE(messageIds(*got), (QStringList{QStringLiteral("a1"), QStringLiteral("a2")}));
    QVERIFY(got->at(0).sequenceNumber < got->at(1).sequenceNumber);
    for (const MessageView& m : *got) {
        QCOMPARE(m.sessionId, QStringLiteral("A"));
        QCOMPARE(m.locked, true);
        QCOMPARE(m.lockHolder, QStringLiteral("r"));
        QCOMPARE(m.lockedUntil, kTestStart + seconds(30)); // L4: each its own LockDuration
        QCOMPARE(m.deliveryCount, quint32(1));
    }
    QVERIFY(got->at(0).lockToken != got->at(1).lockToken);
    QCOMPARE(tb->counts(kQueue)->locked, qint64(2));

    // L5 inside the session: abandon puts a1 back at the front of the session, complete removes.
    HG_VERIFY_OK(tb->abandon(LockRef::of(got->at(0))));
    HG_VERIFY_OK(tb->complete(LockRef::of(got->at(1))));
    const auto again = tb->receiveFromSession(ref, ReceiveMode::PeekLock, 5);
    HG_VERIFY_OK(again);
    QCOMPARE(messageIds(*again), (QStringList{QStringLiteral("a1"), QStringLiteral("a3")}));
    QCOMPARE(again->first().deliveryCount, quint32(2));
    // L10 inside the session: the message lock renews on its own.
    tb.advance(seconds(10));
    const auto renewed = tb->renewLock(LockRef::of(again->first()));
    HG_VERIFY_OK(renewed);
    QCOMPARE(*renewed, kTestStart + seconds(40));
    // Receive-and-delete through the session: another session's messages stay.
    HG_VERIFY_OK(tb->releaseSession(ref));
    const auto other = tb->acceptSession(kQueue, named(QStringLiteral("r"), "B"));
    HG_VERIFY_OK(other);
    const auto deleted =
        tb->receiveFromSession(SessionRef::of(*other), ReceiveMode::ReceiveAndDelete, 5);
    HG_VERIFY_OK(deleted);
    QCOMPARE(messageIds(*deleted), QStringList{QStringLiteral("b1")});
    QCOMPARE(deleted->first().locked, false);
    QCOMPARE(tb->counts(kQueue)->active, qint64(2)); // a1 and a3, unlocked again
}

void TestEngineSessions::sessions_S2_lockedUntilIsShownAndRenewed() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createQueue(kQueue, sessionProperties(seconds(30))));
    sendAll(tb, {{"A", "a1"}});
    const auto session = tb->acceptSession(kQueue, named(QStringLiteral("r"), "A"));
    HG_VERIFY_OK(session);
    QCOMPARE(session->lockedUntil, kTestStart + seconds(30));
    auto listed = tb->listSessions(kQueue, {}, 10);
    HG_VERIFY_OK(listed);
    QCOMPARE(listed->size(), 1);
    QCOMPARE(listed->first().lockedBy, QStringLiteral("r"));
    QCOMPARE(listed->first().lockedUntil, kTestStart + seconds(30));

    tb.advance(seconds(20));
    const auto renewed = tb->renewSessionLock(SessionRef::of(*session));
    HG_VERIFY_OK(renewed);
    QCOMPARE(*renewed, kTestStart + seconds(50)); // LockDuration from now
    listed = tb->listSessions(kQueue, {}, 10);
    QCOMPARE(listed->first().lockedUntil, kTestStart + seconds(50));
    // Past the first lockedUntil the renewed lock still holds.
    tb.advance(seconds(20));
    QCOMPARE(receiveIds(tb, *session), QStringList{QStringLiteral("a1")});
    SessionRef other = SessionRef::of(*session);
    other.receiver = QStringLiteral("someone else");
    HG_VERIFY_REFUSED(tb.broker(), tb->renewSessionLock(other), ErrorCode::SessionLockLost);
    // Past the renewed one it runs out.
    tb.advance(seconds(10));
    HG_VERIFY_ERROR(tb->renewSessionLock(SessionRef::of(*session)), ErrorCode::SessionLockLost);
    listed = tb->listSessions(kQueue, {}, 10);
    QCOMPARE(listed->first().lockedBy, QString());
    QCOMPARE(listed->first().lockedUntil, Instant(0));
}

void TestEngineSessions::sessions_S3_nextAvailableHasTheOldestReceivableMessage() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createQueue(kQueue, sessionProperties()));
    sendAll(tb, {{"B", "b1"}, {"A", "a1"}, {"C", "c1"}, {"B", "b2"}});
    // C's only message is deferred: C has nothing receivable and is never "available".
    {
        const auto c = tb->acceptSession(kQueue, named(QStringLiteral("r"), "C"));
        HG_VERIFY_OK(c);
        const auto got = tb->receiveFromSession(SessionRef::of(*c), ReceiveMode::PeekLock, 1);
        HG_VERIFY_OK(got);
        HG_VERIFY_OK(tb->defer(LockRef::of(got->first())));
        HG_VERIFY_OK(tb->releaseSession(SessionRef::of(*c)));
    }
    QStringList order;
    for (const char* receiver : {"r1", "r2"}) {
        const auto next = tb->acceptSession(kQueue, nextAvailable(QLatin1String(receiver)));
        HG_VERIFY_OK(next);
        order << next->sessionId;
    }
    QCOMPARE(order, (QStringList{QStringLiteral("B"), QStringLiteral("A")}));
    HG_VERIFY_ERROR(tb->acceptSession(kQueue, nextAvailable(QStringLiteral("r3"))),
                    ErrorCode::ServiceTimeout);
}

void TestEngineSessions::sessions_S3_namedSessionWithoutMessagesIsAccepted() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createQueue(kQueue, sessionProperties()));
    const auto session = tb->acceptSession(kQueue, named(QStringLiteral("r"), "empty"));
    HG_VERIFY_OK(session);
    QCOMPARE(session->sessionId, QStringLiteral("empty"));
    QCOMPARE(session->lockedUntil, kTestStart + seconds(30));
    QCOMPARE(receiveIds(tb, *session), QStringList());
    // Messages sent to it meanwhile go to its holder.
    sendAll(tb, {{"empty", "e1"}});
    QCOMPARE(receiveIds(tb, *session), QStringList{QStringLiteral("e1")});
    // Session ids are exact: "Empty" is another session.
    HG_VERIFY_OK(tb->acceptSession(kQueue, named(QStringLiteral("r2"), "Empty")));
}

void TestEngineSessions::sessions_S3_noSessionAvailableIsServiceTimeout() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createQueue(kQueue, sessionProperties()));
    tb.advance(seconds(1));
    HG_VERIFY_REFUSED(tb.broker(), tb->acceptSession(kQueue, nextAvailable(QStringLiteral("r"))),
                      ErrorCode::ServiceTimeout);
    // A wait of zero answers at once, also ServiceTimeout (retryable).
    AcceptOutcome outcome;
    tb->acceptSessionAsync(kQueue, nextAvailable(QStringLiteral("r")), 0, outcome.callback());
    const auto result = outcome.wait();
    QVERIFY(result);
    HG_VERIFY_ERROR(*result, ErrorCode::ServiceTimeout);
    QVERIFY(result->error().retryable);
    // Refusals come through the callback too.
    AcceptOutcome refused;
    tb->acceptSessionAsync(QStringLiteral("missing"), nextAvailable(QStringLiteral("r")),
                           seconds(10), refused.callback());
    const auto missing = refused.wait();
    QVERIFY(missing);
    HG_VERIFY_ERROR(*missing, ErrorCode::MessagingEntityNotFound);
}

void TestEngineSessions::sessions_S3_waitTimesOutOnTheVirtualClock() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createQueue(kQueue, sessionProperties()));
    AcceptOutcome outcome;
    tb->acceptSessionAsync(kQueue, nextAvailable(QStringLiteral("r")), seconds(30),
                           outcome.callback());
    // The wait is on the broker's clock: a paused virtual clock never runs it out, however long
    // the test takes; moving it 30 s ends it with ServiceTimeout.
    tb.advance(seconds(30));
    const auto result = outcome.wait();
    QVERIFY(result);
    HG_VERIFY_ERROR(*result, ErrorCode::ServiceTimeout);
    // Once ended, a session arriving is not granted to it.
    sendAll(tb, {{"A", "a1"}});
    const auto taken = tb->acceptSession(kQueue, nextAvailable(QStringLiteral("other")));
    HG_VERIFY_OK(taken);
    QCOMPARE(taken->sessionId, QStringLiteral("A"));
    QCOMPARE(outcome.count(), 1);
}

void TestEngineSessions::sessions_S3_waitIsGrantedWhenASessionArrives() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createQueue(kQueue, sessionProperties(seconds(30))));
    AcceptOutcome outcome;
    tb->acceptSessionAsync(kQueue, nextAvailable(QStringLiteral("waiter")), seconds(30),
                           outcome.callback());
    // One millisecond before the wait ends, a message of session A arrives: A is granted.
    tb.advance(seconds(30) - 1);
    sendAll(tb, {{"A", "a1"}});
    const auto result = outcome.wait();
    QVERIFY(result);
    HG_VERIFY_OK(*result);
    const AcceptedSession& granted = result->value();
    QCOMPARE(granted.sessionId, QStringLiteral("A"));
    QCOMPARE(granted.receiver, QStringLiteral("waiter"));
    QCOMPARE(granted.entityPath, kQueue);
    QCOMPARE(granted.lockedUntil, kTestStart + seconds(60) - 1);
    QCOMPARE(receiveIds(tb, granted), QStringList{QStringLiteral("a1")});
    HG_VERIFY_ERROR(tb->acceptSession(kQueue, named(QStringLiteral("other"), "A")),
                    ErrorCode::SessionCannotBeLocked);
}

void TestEngineSessions::sessions_S3_waitIsGrantedAtTheInstantALockRunsOut() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createQueue(kQueue, sessionProperties(seconds(20))));
    sendAll(tb, {{"A", "a1"}});
    HG_VERIFY_OK(tb->acceptSession(kQueue, named(QStringLiteral("holder"), "A")));
    AcceptOutcome outcome;
    tb->acceptSessionAsync(kQueue, nextAvailable(QStringLiteral("waiter")), seconds(30),
                           outcome.callback());
    // One jump of a minute: the holder's lock runs out at 20 s, inside the wait, and A goes to
    // the waiter at that instant (its lock runs from 20 s), not at the end of the jump.
    tb.advance(minutes(1));
    const auto result = outcome.wait();
    QVERIFY(result);
    HG_VERIFY_OK(*result);
    QCOMPARE(result->value().sessionId, QStringLiteral("A"));
    QCOMPARE(result->value().lockedUntil, kTestStart + seconds(40));
}

void TestEngineSessions::sessions_S3_waitsAreServedOldestFirst() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createQueue(kQueue, sessionProperties()));
    AcceptOutcome first;
    AcceptOutcome second;
    tb->acceptSessionAsync(kQueue, nextAvailable(QStringLiteral("w1")), minutes(1),
                           first.callback());
    tb->acceptSessionAsync(kQueue, nextAvailable(QStringLiteral("w2")), minutes(1),
                           second.callback());
    sendAll(tb, {{"A", "a1"}, {"A", "a2"}});
    const auto one = first.wait();
    QVERIFY(one);
    HG_VERIFY_OK(*one);
    QCOMPARE(one->value().sessionId, QStringLiteral("A"));
    QCOMPARE(one->value().receiver, QStringLiteral("w1"));
    // A is w1's: w2 waits for the next session.
    sendAll(tb, {{"B", "b1"}});
    const auto two = second.wait();
    QVERIFY(two);
    HG_VERIFY_OK(*two);
    QCOMPARE(two->value().sessionId, QStringLiteral("B"));
    QCOMPARE(two->value().receiver, QStringLiteral("w2"));
}

void TestEngineSessions::sessions_S3_cancelledWaitIsNeverCalledBack() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createQueue(kQueue, sessionProperties()));
    AcceptOutcome cancelled;
    const quint64 wait = tb->acceptSessionAsync(kQueue, nextAvailable(QStringLiteral("gone")),
                                                minutes(1), cancelled.callback());
    QVERIFY(tb->cancelAcceptSession(wait));
    QVERIFY(!tb->cancelAcceptSession(wait));
    // A later wait's callback comes after anything the cancelled one could have produced (one
    // callback thread, in order), so its arrival proves the cancelled one stays silent.
    AcceptOutcome later;
    tb->acceptSessionAsync(kQueue, nextAvailable(QStringLiteral("later")), minutes(1),
                           later.callback());
    sendAll(tb, {{"A", "a1"}});
    tb.advance(minutes(2));
    const auto result = later.wait();
    QVERIFY(result);
    HG_VERIFY_OK(*result);
    QCOMPARE(result->value().receiver, QStringLiteral("later"));
    QCOMPARE(cancelled.count(), 0);
}

HG_RESTART_TEST_MAIN(TestEngineSessions)
