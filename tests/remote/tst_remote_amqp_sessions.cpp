// The remote AMQP client's sessions against a real endpoint, checked on the broker's side: accept
// a named session and the next available one, receive and settle in it, its state, renewing and
// releasing its lock, listing sessions, and the refusals (a session locked elsewhere, none
// available).

#include "RemoteTestBase.h"

#include <QElapsedTimer>

using namespace hourglass;
using namespace hourglass::testing;
using remote::AmqpClient;

class TestRemoteAmqpSessions : public RemoteTestBase {
    Q_OBJECT

    const QString q = QStringLiteral("jobs");

    bool startSessions() {
        EntityProperties properties;
        properties.requiresSession = true;
        return startWithQueue(q, false, properties);
    }
    bool sendTo(const QString& sessionId, int count) {
        for (int i = 0; i < count; ++i) {
            OutgoingMessage message;
            message.sessionId = sessionId;
            message.body = sessionId.toUtf8() + QByteArray::number(i);
            if (!m_broker->send(q, message).ok())
                return false;
        }
        return true;
    }
    // Whether the endpoint still has a link whose name starts with `prefix` (its snapshot is
    // published a few times a second).
    bool endpointHasLink(const QString& prefix) {
        for (const auto& connection : m_endpoint->snapshot().connections)
            for (const auto& link : connection.links)
                if (link.name.startsWith(prefix))
                    return true;
        return false;
    }
    static SessionAcceptOptions named(const QString& id, const QString& receiver = "r1") {
        return {receiver, id};
    }

private slots:
    void cleanup() { reset(); }

    void acceptsANamedSessionAndSettlesInIt() {
        QVERIFY(startSessions() && sendTo("a", 2) && sendTo("b", 1));
        AmqpClient client(plainString(), quick());
        const auto accepted = client.acceptSession(q, named("a"));
        QVERIFY2(accepted.ok(), why(accepted).constData());
        QCOMPARE(accepted->sessionId, QStringLiteral("a"));
        QVERIFY(accepted->lockedUntil > 0);
        QVERIFY(!m_broker->session(q, "a")->lockedBy.isEmpty());
        const SessionRef session = SessionRef::of(*accepted);
        const auto got = client.receiveFromSession(session, 5, 500);
        QVERIFY2(got.ok(), why(got).constData());
        QCOMPARE(got->size(), 2);
        QCOMPARE(got->first().sessionId, QStringLiteral("a"));
        QVERIFY(client.complete(LockRef::of(got->at(0))).ok());
        QVERIFY(client.abandon(LockRef::of(got->at(1))).ok());
        QCOMPARE(m_broker->session(q, "a")->active, 1);
        // Session b was not touched.
        QCOMPARE(m_broker->session(q, "b")->active, 1);
    }

    void acceptsTheNextAvailableSession() {
        QVERIFY(startSessions() && sendTo("only", 1));
        AmqpClient client(plainString(), quick());
        const auto accepted = client.acceptSession(q, {QStringLiteral("r1"), std::nullopt});
        QVERIFY2(accepted.ok(), why(accepted).constData());
        QCOMPARE(accepted->sessionId, QStringLiteral("only"));
        // None left: the wait runs out, and the client gives up on its own when the service
        // does not say so in time (it lets its link go: no session is granted later unseen).
        QElapsedTimer elapsed;
        elapsed.start();
        const auto none = client.acceptSession(q, {QStringLiteral("r2"), std::nullopt},
                                               ReceiveMode::PeekLock, 300);
        QVERIFY(!none.ok());
        QCOMPARE(none.error().code, ErrorCode::ServiceTimeout);
        QVERIFY(elapsed.elapsed() < 3000);
        QTRY_VERIFY(!endpointHasLink(QStringLiteral("r2")));
        QVERIFY(sendTo("later", 1));
        QVERIFY(client.acceptSession(q, named("later", "r3")).ok());
    }

    void aSessionLockedElsewhereCannotBeLocked() {
        QVERIFY(startSessions() && sendTo("a", 1));
        AmqpClient first(plainString(), quick());
        AmqpClient second(plainString(), quick());
        QVERIFY(first.acceptSession(q, named("a")).ok());
        const auto refused = second.acceptSession(q, named("a", "r2"));
        QVERIFY(!refused.ok());
        QCOMPARE(refused.error().code, ErrorCode::SessionCannotBeLocked);
    }

    void keepsStateRenewsAndReleases() {
        QVERIFY(startSessions() && sendTo("a", 1));
        AmqpClient client(plainString(), quick());
        const auto accepted = client.acceptSession(q, named("a"));
        QVERIFY(accepted.ok());
        const SessionRef session = SessionRef::of(*accepted);
        QCOMPARE(client.sessionState(session).value(), std::optional<QByteArray>());
        QVERIFY(client.setSessionState(session, QByteArray("step-2")).ok());
        QCOMPARE(client.sessionState(session).value(), std::optional<QByteArray>("step-2"));
        QVERIFY(m_broker->session(q, "a")->hasState);
        const auto renewed = client.renewSessionLock(session);
        QVERIFY2(renewed.ok(), why(renewed).constData());
        QVERIFY(*renewed >= accepted->lockedUntil);
        QVERIFY(client.releaseSession(session).ok());
        QTRY_VERIFY(m_broker->session(q, "a")->lockedBy.isEmpty());
        // Released: the session's calls fail, and another receiver may take it.
        QCOMPARE(client.renewSessionLock(session).error().code, ErrorCode::SessionLockLost);
        QVERIFY(client.acceptSession(q, named("a", "r2")).ok());
    }

    void peeksOneSession() {
        QVERIFY(startSessions() && sendTo("a", 2) && sendTo("b", 1));
        AmqpClient client(plainString(), quick());
        const auto peeked = client.peek(q, {0, 10, QStringLiteral("a")});
        QVERIFY2(peeked.ok(), why(peeked).constData());
        QCOMPARE(peeked->size(), 2);
        for (const MessageView& message : *peeked)
            QCOMPARE(message.sessionId, QStringLiteral("a"));
        QCOMPARE(client.peek(q, {0, 10, std::nullopt})->size(), 3);
    }

    void listsSessions() {
        QVERIFY(startSessions() && sendTo("a", 1) && sendTo("b", 1) && sendTo("c", 1));
        AmqpClient client(plainString(), quick());
        const auto all = client.listSessions(q);
        QVERIFY2(all.ok(), why(all).constData());
        QCOMPARE(all->size(), 3);
        QVERIFY(all->contains("a") && all->contains("b") && all->contains("c"));
        QCOMPARE(client.listSessions(q, 2, 10)->size(), 1);
        QCOMPARE(client.listSessions(q, 3, 10)->size(), 0);
    }
};

QTEST_GUILESS_MAIN(TestRemoteAmqpSessions)
#include "tst_remote_amqp_sessions.moc"
