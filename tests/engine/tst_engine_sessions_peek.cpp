// Sessions, part 3: a peek limited to one session (L12 inside S2), as a session receiver peeks:
// only that session's messages, in sequence order, with their states, taking no lock; refused
// on an entity without sessions.
#include "TestEngineSessions.h"

#include "BrokerSnapshot.h"
#include "EngineChecks.h"
#include "TestBroker.h"

#include <QTest>

using namespace hourglass;
using namespace hourglass::testing;

namespace {
const QString& kQueue = kSessionQueue;

PeekOptions inSession(const QString& sessionId, qint64 from = 0, int maxCount = 100) {
    return {from, maxCount, sessionId};
}
} // namespace

void TestEngineSessions::sessions_L12_S2_peekShowsOneSessionOnly() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createQueue(kQueue, sessionProperties()));
    HG_VERIFY_OK(tb->sendBatch(kQueue, {sessionMessage("a", "a-1"), sessionMessage("b", "b-1"),
                                        sessionMessage("a", "a-2"), sessionMessage("b", "b-2"),
                                        sessionMessage("a", "a-3")}));
    OutgoingMessage later = sessionMessage("a", "a-later");
    HG_VERIFY_OK(tb->schedule(kQueue, later, tb.clock().now() + minutes(5)));
    // a-1 is locked in the session, a-2 deferred: a peek shows them with their states.
    const auto session = tb->acceptSession(kQueue, named("r", "a"));
    HG_VERIFY_OK(session);
    const auto got = tb->receiveFromSession(SessionRef::of(*session), ReceiveMode::PeekLock, 2);
    HG_VERIFY_OK(got);
    QCOMPARE(got->size(), 2);
    HG_VERIFY_OK(tb->defer(LockRef::of(got->at(1))));
    const EntityCounts before = *tb->counts(kQueue);

    auto peeked = tb->peek(kQueue, inSession("a"));
    HG_VERIFY_OK(peeked);
    QCOMPARE(messageIds(*peeked), QStringList({"a-1", "a-2", "a-3", "a-later"}));
    QCOMPARE(peeked->at(0).state, MessageState::Active);
    QVERIFY(peeked->at(0).lockedUntil > 0);
    QCOMPARE(peeked->at(1).state, MessageState::Deferred);
    QCOMPARE(peeked->at(3).state, MessageState::Scheduled);
    QCOMPARE(peeked->at(2).body, QByteArray("a-3"));
    // From a sequence number on, and at most maxCount.
    peeked = tb->peek(kQueue, inSession("a", peeked->at(2).sequenceNumber));
    HG_VERIFY_OK(peeked);
    QCOMPARE(messageIds(*peeked), QStringList({"a-3", "a-later"}));
    peeked = tb->peek(kQueue, inSession("b", 0, 1));
    HG_VERIFY_OK(peeked);
    QCOMPARE(messageIds(*peeked), QStringList({"b-1"}));
    // A session nobody used has nothing; a session id is exact (case-sensitive).
    peeked = tb->peek(kQueue, inSession("A"));
    HG_VERIFY_OK(peeked);
    QVERIFY(peeked->isEmpty());
    // L12: no lock taken, no count changed.
    QCOMPARE(describe(*tb->counts(kQueue)), describe(before));
    const auto listed = tb->listSessions(kQueue, "b", 1);
    HG_VERIFY_OK(listed);
    QVERIFY(listed->first().lockedBy.isEmpty());
}

void TestEngineSessions::sessions_L12_S1_sessionPeekNeedsSessions() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createQueue(kQueue, sessionProperties()));
    HG_VERIFY_OK(tb->createQueue("plain", {}));
    HG_VERIFY_OK(tb->send(kQueue, sessionMessage("a", "a-1")));
    OutgoingMessage plain = TestBroker::message("p-1");
    plain.sessionId = "a";
    HG_VERIFY_OK(tb->send("plain", plain));
    HG_VERIFY_REFUSED(tb.broker(), tb->peek("plain", inSession("a")), ErrorCode::InvalidArgument);
    HG_VERIFY_REFUSED(tb.broker(), tb->peek(kSessionDeadLetters, inSession("a")),
                      ErrorCode::InvalidArgument);
    HG_VERIFY_REFUSED(tb.broker(), tb->peek(kQueue, inSession("")), ErrorCode::InvalidArgument);
    HG_VERIFY_REFUSED(tb.broker(), tb->peek(kQueue, inSession(QString(129, u'x'))),
                      ErrorCode::InvalidArgument);
    HG_VERIFY_REFUSED(tb.broker(), tb->peek(kQueue, inSession("a", 0, 0)),
                      ErrorCode::InvalidArgument);
    HG_VERIFY_REFUSED(tb.broker(), tb->peek("missing", inSession("a")),
                      ErrorCode::MessagingEntityNotFound);
}
