// A broken connection: an in-process served namespace (ServedNamespace.h) reached through a relay
// the test cuts (CuttableRelay.h). The calls in flight and those made while the namespace is
// unreachable fail at once with ServiceCommunicationProblem; the locks and sessions taken before
// the break are lost and say so; the broker says since when the connection is broken; attempts
// to make it again back off; once the namespace is reachable the connection is made again on its
// own, the next calls work, and the counts poll recovers.

#include "CuttableRelay.h"
#include "ServedNamespace.h"
#include "WorkerCall.h"

#include "hourglass/remote/RemoteBroker.h"

#include <QElapsedTimer>
#include <QTest>

#include <memory>

using namespace hourglass;
using namespace hourglass::remote;
using namespace hourglass::testing;

namespace {

// The served namespace's plain string, pointed at the relay's port.
ConnectionString throughRelay(const ServedNamespace& served, const CuttableRelay& relay) {
    ConnectionString where = served.connection();
    where.host = QStringLiteral("127.0.0.1");
    where.port = relay.port();
    return where;
}

RemoteBrokerOptions quickOptions(const ConnectionString& where) {
    RemoteBrokerOptions options = RemoteBrokerOptions::forConnection(where);
    options.admin.timeout = std::chrono::milliseconds(3000);
    options.amqp.callTimeoutMs = 3000;
    options.amqp.reconnectFirstDelayMs = 200;
    options.amqp.reconnectMaxDelayMs = 800;
    options.pollInterval = std::chrono::milliseconds(200);
    return options;
}

QByteArray why(const Result<void>& result) {
    return result.ok() ? QByteArray("it worked") : result.error().toString().toUtf8();
}

} // namespace

class RemoteReconnectTest : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<ServedNamespace> m_served;
    std::unique_ptr<CuttableRelay> m_relay;

    Broker& served() { return m_served->broker(); }

private slots:
    void init() {
        m_served = std::make_unique<ServedNamespace>(ServedNamespace::Transport::Plain);
        m_served->testBroker().clock().resetToRealTime();
        QVERIFY(served().createQueue(QStringLiteral("jobs"), {}).ok());
        EntityProperties sessions;
        sessions.requiresSession = true;
        QVERIFY(served().createQueue(QStringLiteral("chats"), sessions).ok());
        m_relay = std::make_unique<CuttableRelay>(quint16(m_served->connection().amqpPort()));
    }
    void cleanup() {
        m_relay.reset();
        m_served.reset();
    }

    // Locks taken before the break are lost and say why; calls fail at once while the
    // namespace cannot be reached; then the connection comes back on its own and the messages
    // (released with the broken connection) are received again.
    void locksLostThenReconnected() {
        QVERIFY(served().send(QStringLiteral("jobs"), TestBroker::message("a")).ok());
        QVERIFY(served().send(QStringLiteral("jobs"), TestBroker::message("b")).ok());
        RemoteBroker remote(quickOptions(throughRelay(*m_served, *m_relay)));
        ReceiveOptions peekLock;
        peekLock.receiver = QStringLiteral("r");
        peekLock.maxCount = 2;
        const auto taken =
            onWorker([&] { return remote.receive(QStringLiteral("jobs"), peekLock); });
        QVERIFY2(taken && taken->size() == 2,
                 taken ? "too few" : qPrintable(taken.error().toString()));
        QCOMPARE(remote.connectionLostAt(), Instant(0));
        QVERIFY(remote.connectionProblem().isEmpty());
        QVERIFY(served().counts(QStringLiteral("jobs"))->locked == 2);

        const Instant before = QDateTime::currentMSecsSinceEpoch();
        m_relay->setDown(true);
        m_relay->cut();
        QTRY_VERIFY_WITH_TIMEOUT(remote.connectionLostAt() != 0, 5000);
        QVERIFY(remote.connectionLostAt() >= before);
        QCOMPARE(remote.lastConnectionBreakAt(), remote.connectionLostAt());
        QVERIFY(!remote.connectionProblem().isEmpty());

        // A lock from the broken connection: lost, and the message says why.
        const auto completed = onWorker([&] { return remote.complete(LockRef::of(taken->at(0))); });
        QVERIFY(!completed);
        QCOMPARE(completed.error().code, ErrorCode::MessageLockLost);
        QVERIFY2(completed.error().description.contains(QStringLiteral("broke")), why(completed));
        QVERIFY2(completed.error().description.contains(QStringLiteral("the lock was released")),
                 why(completed));
        const auto renewed = onWorker([&] { return remote.renewLock(LockRef::of(taken->at(1))); });
        QVERIFY(!renewed);
        QCOMPARE(renewed.error().code, ErrorCode::MessageLockLost);

        // The namespace unreachable: a send fails fast, it does not wait out its time-out.
        QElapsedTimer timer;
        timer.start();
        const auto sent =
            onWorker([&] { return remote.send(QStringLiteral("jobs"), TestBroker::message("c")); });
        QVERIFY(!sent);
        QCOMPARE(sent.error().code, ErrorCode::ServiceCommunicationProblem);
        QVERIFY2(timer.elapsed() < 2500, qPrintable(QString::number(timer.elapsed())));
        // The poll (administration over the same address) fails meanwhile.
        QTRY_VERIFY_WITH_TIMEOUT(!remote.lastListError().isEmpty(), 10000);
        QVERIFY(remote.connectionLostAt() != 0);
        // A listing that fails answers the last one that worked: the window's tree stays.
        QStringList paths;
        for (const EntityInfo& entity : onWorker([&] { return remote.entities({}); }))
            paths.append(entity.path);
        QCOMPARE(paths, (QStringList{"chats", "jobs"}));
        QVERIFY(!remote.lastListError().isEmpty());

        // Reachable again: made again without a call, then every call works.
        m_relay->setDown(false);
        QTRY_COMPARE_WITH_TIMEOUT(remote.connectionLostAt(), Instant(0), 10000);
        QVERIFY(remote.connectionProblem().isEmpty());
        QVERIFY(remote.lastConnectionBreakAt() >= before); // kept: what was taken before is gone
        const auto sentAgain =
            onWorker([&] { return remote.send(QStringLiteral("jobs"), TestBroker::message("d")); });
        QVERIFY2(sentAgain, qPrintable(sentAgain ? QString() : sentAgain.error().toString()));
        // The served side let go of the locks with the connection: a, b and d are there again.
        peekLock.maxCount = 3;
        QStringList ids;
        QElapsedTimer receiving;
        receiving.start();
        QList<MessageView> again;
        while (ids.size() < 3 && receiving.elapsed() < 10000) {
            const auto got =
                onWorker([&] { return remote.receive(QStringLiteral("jobs"), peekLock); });
            QVERIFY2(got, qPrintable(got ? QString() : got.error().toString()));
            for (const MessageView& message : *got) {
                ids.append(message.messageId);
                again.append(message);
            }
        }
        ids.sort();
        QCOMPARE(ids, (QStringList{"a", "b", "d"}));
        // Locks taken on the new connection settle.
        for (const MessageView& message : again) {
            const auto done = onWorker([&] { return remote.complete(LockRef::of(message)); });
            QVERIFY2(done, why(done));
        }
        QCOMPARE(served().counts(QStringLiteral("jobs"))->active, 0);
        // The poll recovers.
        QTRY_VERIFY_WITH_TIMEOUT(remote.lastListError().isEmpty(), 10000);
        const Instant polled = remote.lastPollAt();
        QTRY_VERIFY_WITH_TIMEOUT(remote.lastPollAt() > polled, 10000);
    }

    // A session accepted before the break is no longer held and says why.
    void sessionLostWithTheConnection() {
        OutgoingMessage message = TestBroker::message("s1");
        message.sessionId = QStringLiteral("alpha");
        QVERIFY(served().send(QStringLiteral("chats"), message).ok());
        RemoteBroker remote(quickOptions(throughRelay(*m_served, *m_relay)));
        const auto accepted = onWorker([&] {
            return remote.acceptSession(QStringLiteral("chats"),
                                        {QStringLiteral("r"), QStringLiteral("alpha")});
        });
        QVERIFY2(accepted, qPrintable(accepted ? QString() : accepted.error().toString()));
        const SessionRef session = SessionRef::of(*accepted);
        QVERIFY(remote.holdsSession(session));

        m_relay->cut();
        QTRY_VERIFY_WITH_TIMEOUT(!remote.holdsSession(session), 5000);
        const auto renewed = onWorker([&] { return remote.renewSessionLock(session); });
        QVERIFY(!renewed);
        QCOMPARE(renewed.error().code, ErrorCode::SessionLockLost);
        QVERIFY2(renewed.error().description.contains(QStringLiteral("broke")),
                 qPrintable(renewed.error().toString()));
        // Back (the relay never went down): the session can be accepted again.
        QTRY_COMPARE_WITH_TIMEOUT(remote.connectionLostAt(), Instant(0), 10000);
        Result<AcceptedSession> again = Error::make(ErrorCode::GeneralError, {});
        QElapsedTimer timer;
        timer.start();
        while (!again && timer.elapsed() < 10000) // until the served side saw the old link go
            again = onWorker([&] {
                return remote.acceptSession(QStringLiteral("chats"),
                                            {QStringLiteral("r"), QStringLiteral("alpha")});
            });
        QVERIFY2(again, qPrintable(again ? QString() : again.error().toString()));
        QVERIFY(remote.holdsSession(SessionRef::of(*again)));
    }

    // While the namespace cannot be reached, attempts to make the connection again back off
    // (200, 400, 800, 800 ms ...) rather than follow each other at once.
    void attemptsBackOff() {
        AmqpClientOptions options = quickOptions(throughRelay(*m_served, *m_relay)).amqp;
        AmqpClient client(throughRelay(*m_served, *m_relay), options);
        const auto connected = onWorker([&] { return client.connect(); });
        QVERIFY2(connected, why(connected));
        m_relay->setDown(true);
        QElapsedTimer timer;
        timer.start();
        m_relay->cut();
        // The first attempt at once, then after 200, 400 and 800 ms.
        QTRY_VERIFY_WITH_TIMEOUT(m_relay->attempts() >= 4, 10000);
        QVERIFY2(timer.elapsed() >= 1300, qPrintable(QString::number(timer.elapsed())));
        QVERIFY(client.connectionLostAt() != 0);
        m_relay->setDown(false);
        QTRY_COMPARE_WITH_TIMEOUT(client.connectionLostAt(), Instant(0), 10000);
        QVERIFY(client.isConnected());
        // Closed on purpose: not broken, and not made again.
        client.close();
        QCOMPARE(client.connectionLostAt(), Instant(0));
        QVERIFY(!client.isConnected());
    }
};

QTEST_GUILESS_MAIN(RemoteReconnectTest)
#include "tst_remote_reconnect.moc"
