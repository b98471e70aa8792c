// RemoteBroker's data plane against an in-process `hourglass` namespace (ServedNamespace.h, its
// clock on real time as a service's is), only through the Broker interface: send, schedule and
// cancel, peek and the explorer's reads through peek, receive in both modes and every
// settlement, deferred messages, sessions (named and next, state, renew, release, the listing,
// the asynchronous accept and its cancel), the read-only refusals with the served broker
// unchanged, and the locks given back when the broker is closed.

#include "ServedNamespace.h"
#include "WorkerCall.h"

#include "hourglass/remote/RemoteBroker.h"

#include <QTest>

#include <atomic>
#include <memory>

using namespace hourglass;
using namespace hourglass::remote;
using namespace hourglass::testing;

namespace {

std::unique_ptr<RemoteBroker> remoteFor(const ServedNamespace& served, bool readOnly = false) {
    RemoteBrokerOptions options = RemoteBrokerOptions::forConnection(served.connection());
    options.admin.extraCaFile = served.caFile();
    options.admin.timeout = std::chrono::milliseconds(5000);
    options.amqp.extraCaFile = served.caFile();
    options.amqp.callTimeoutMs = 5000;
    options.readOnly = readOnly;
    options.pollInterval = std::chrono::hours(1);
    return std::make_unique<RemoteBroker>(options);
}

OutgoingMessage inSession(const QString& id, const QString& session) {
    OutgoingMessage message = TestBroker::message(id);
    message.sessionId = session;
    return message;
}

SessionAcceptOptions named(const QString& session, const QString& receiver = "r") {
    return {receiver, session};
}

QStringList idsOf(const QList<MessageView>& messages) {
    QStringList ids;
    for (const MessageView& message : messages)
        ids.append(message.messageId);
    return ids;
}

} // namespace

class RemoteBrokerMessagesTest : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<ServedNamespace> m_served;
    std::unique_ptr<RemoteBroker> m_remote;

    Broker& served() { return m_served->broker(); }
    RemoteBroker& remote() { return *m_remote; }
    qint64 servedActive(const QString& path) { return served().counts(path)->active; }

private slots:
    void init() {
        m_served = std::make_unique<ServedNamespace>(ServedNamespace::Transport::Plain);
        m_served->testBroker().clock().resetToRealTime();
        QVERIFY(served().createQueue(QStringLiteral("jobs"), {}).ok());
        EntityProperties sessions;
        sessions.requiresSession = true;
        QVERIFY(served().createQueue(QStringLiteral("chats"), sessions).ok());
        m_remote = remoteFor(*m_served);
    }
    void cleanup() {
        m_remote.reset();
        m_served.reset();
    }

    // The window names paths "namespace:path", the namespace named after the host: sends,
    // peeks, receives, settlements and counts take them as they take "path".
    void pathsQualifiedAsTheWindowNamesThem() {
        QCOMPARE(remote().namespaces().first().name, QStringLiteral("localhost"));
        const QString jobs = QStringLiteral("localhost:jobs");
        QVERIFY(onWorker([&] { return remote().send(jobs, TestBroker::message("q1", "body")); }));
        QCOMPARE(servedActive(QStringLiteral("jobs")), qint64(1));
        const auto peeked = onWorker([&] { return remote().peek(jobs, 0, 10); });
        QVERIFY(peeked && peeked->size() == 1);
        ReceiveOptions options;
        options.receiver = QStringLiteral("window");
        const auto taken = onWorker([&] { return remote().receive(jobs, options); });
        QVERIFY(taken && taken->size() == 1);
        LockRef lock = LockRef::of(taken->first());
        lock.entityPath = jobs;
        QVERIFY(onWorker([&] { return remote().complete(lock); }));
        QCOMPARE(servedActive(QStringLiteral("jobs")), qint64(0));
        const auto counts = onWorker([&] { return remote().counts(jobs); });
        QVERIFY(counts);
        QCOMPARE(counts->active, qint64(0));
    }

    void sendPeekAndTheExplorerReads() {
        QVERIFY(remote().capabilities().listsSessions);
        QSet<QString> countsChanged;
        connect(remote().changes(), &ChangeFeed::changed, this,
                [&](const ChangeBatch& batch) { countsChanged += batch.countsChanged; });
        for (const char* id : {"a", "b", "c"})
            QVERIFY(onWorker([&] {
                return remote().send(QStringLiteral("jobs"), TestBroker::message(id, "body"));
            }));
        OutgoingMessage unnamed = TestBroker::message(QString());
        const auto sent = onWorker([&] { return remote().send(QStringLiteral("jobs"), unnamed); });
        QVERIFY(sent && !sent->messageId.isEmpty());
        QCOMPARE(servedActive(QStringLiteral("jobs")), qint64(4));
        // An own send is marked at once, not at the next poll (an hour away), with the path
        // qualified as the window names it (the namespace is named after the host).
        QTRY_VERIFY(countsChanged.contains(QStringLiteral("localhost:jobs")));

        const auto peeked = onWorker([&] { return remote().peek(QStringLiteral("jobs"), 0, 10); });
        QCOMPARE(idsOf(*peeked), (QStringList{"a", "b", "c", sent->messageId}));
        QCOMPARE(peeked->first().body, QByteArray("body"));
        const auto listed = onWorker([&] {
            return remote().listMessages(QStringLiteral("jobs"), peeked->at(1).sequenceNumber, 2,
                                         Broker::Bodies::Without);
        });
        QCOMPARE(idsOf(*listed), (QStringList{"b", "c"}));
        QVERIFY(listed->first().body.isEmpty());
        const auto one = onWorker([&] {
            return remote().message(QStringLiteral("jobs"), peeked->at(2).sequenceNumber,
                                    Broker::Bodies::With);
        });
        QCOMPARE(one->messageId, QStringLiteral("c"));
        QCOMPARE(one->body, QByteArray("body"));
        QCOMPARE(onWorker([&] {
                     return remote().message(QStringLiteral("jobs"), 9999, Broker::Bodies::With);
                 })
                     .error()
                     .code,
                 ErrorCode::MessageNotFound);
        // A peek takes nothing.
        QCOMPARE(servedActive(QStringLiteral("jobs")), qint64(4));

        const auto batch = onWorker([&] {
            return remote().sendBatch(QStringLiteral("jobs"),
                                      {TestBroker::message("d"), TestBroker::message("e")});
        });
        QCOMPARE(batch->size(), 2);
        QCOMPARE(batch->at(1).messageId, QStringLiteral("e"));
        bool taken = false;
        const auto each = onWorker([&] {
            return remote().sendEach(QStringLiteral("jobs"), {TestBroker::message("f")},
                                     [&] { taken = true; });
        });
        QVERIFY(each.first().ok());
        QVERIFY(taken);
        QCOMPARE(servedActive(QStringLiteral("jobs")), qint64(7));
    }

    void scheduleAndCancel() {
        const Instant at = VirtualClock::realNow() + 3'600'000;
        const auto scheduled = onWorker([&] {
            return remote().schedule(QStringLiteral("jobs"), TestBroker::message("s"), at);
        });
        QVERIFY(scheduled && scheduled->scheduled);
        QVERIFY(scheduled->sequenceNumber > 0);
        QCOMPARE(served().counts(QStringLiteral("jobs"))->scheduled, qint64(1));
        QVERIFY(onWorker([&] {
                    return remote().cancelScheduled(QStringLiteral("jobs"),
                                                    scheduled->sequenceNumber);
                }).ok());
        QCOMPARE(served().counts(QStringLiteral("jobs"))->scheduled, qint64(0));
    }

    void receiveAndEverySettlement() {
        for (const char* id : {"a", "b", "c", "d", "e"})
            QVERIFY(served().send(QStringLiteral("jobs"), TestBroker::message(id)));
        ReceiveOptions options;
        options.receiver = QStringLiteral("worker");
        options.maxCount = 4;
        const auto locked =
            onWorker([&] { return remote().receive(QStringLiteral("jobs"), options); });
        QVERIFY(locked);
        QCOMPARE(idsOf(*locked), (QStringList{"a", "b", "c", "d"}));
        QCOMPARE(served().counts(QStringLiteral("jobs"))->locked, qint64(4));
        const LockRef a = LockRef::of(locked->at(0));
        const auto renewed = onWorker([&] { return remote().renewLock(a); });
        QVERIFY(renewed && *renewed > VirtualClock::realNow());
        QVERIFY(onWorker([&] { return remote().complete(a); }).ok());
        QVERIFY(onWorker([&] { return remote().abandon(LockRef::of(locked->at(1)), {}); }).ok());
        QVERIFY(onWorker([&] { return remote().defer(LockRef::of(locked->at(2)), {}); }).ok());
        DeadLetterOptions dead;
        dead.reason = QStringLiteral("Broken");
        dead.description = QStringLiteral("cannot parse");
        QVERIFY(onWorker([&] { return remote().deadLetter(LockRef::of(locked->at(3)), dead); }));
        QCOMPARE(onWorker([&] { return remote().complete(a); }).error().code,
                 ErrorCode::MessageLockLost);
        const auto reasons =
            onWorker([&] { return remote().deadLetterReasons(QStringLiteral("jobs")); });
        QCOMPARE(*reasons, (QMap<QString, qint64>{{QStringLiteral("Broken"), 1}}));

        const auto deferred = onWorker([&] {
            return remote().receiveDeferred(QStringLiteral("jobs"), locked->at(2).sequenceNumber,
                                            QStringLiteral("worker"));
        });
        QVERIFY(deferred);
        QCOMPARE(deferred->messageId, QStringLiteral("c"));
        const auto batch =
            onWorker([&] { return remote().completeBatch({LockRef::of(*deferred)}); });
        QVERIFY(batch.first().ok());

        ReceiveOptions deleting;
        deleting.mode = ReceiveMode::ReceiveAndDelete;
        deleting.maxCount = 5;
        const auto gone =
            onWorker([&] { return remote().receive(QStringLiteral("jobs"), deleting); });
        QCOMPARE(idsOf(*gone), (QStringList{"b", "e"}));
        const EntityCounts counts = *served().counts(QStringLiteral("jobs"));
        QCOMPARE(counts.active + counts.locked + counts.deferred, qint64(0));
        QCOMPARE(counts.deadLettered, qint64(1));
    }

    void sessions() {
        const QString q = QStringLiteral("chats");
        for (const QString& session : {QStringLiteral("s1"), QStringLiteral("s2")})
            QVERIFY(onWorker([&] { return remote().send(q, inSession("m-" + session, session)); }));
        const auto s1 = onWorker([&] { return remote().acceptSession(q, named("s1")); });
        QVERIFY(s1);
        const SessionRef ref = SessionRef::of(*s1);
        QVERIFY(remote().holdsSession(ref));
        const auto messages =
            onWorker([&] { return remote().receiveFromSession(ref, ReceiveMode::PeekLock, 5); });
        QCOMPARE(idsOf(*messages), QStringList{QStringLiteral("m-s1")});
        QVERIFY(onWorker([&] { return remote().complete(LockRef::of(messages->first())); }).ok());
        QVERIFY(onWorker([&] { return remote().setSessionState(ref, QByteArray("step 2")); }).ok());
        QCOMPARE(onWorker([&] { return remote().sessionState(ref); })->value(),
                 QByteArray("step 2"));
        const auto info = onWorker([&] { return remote().session(q, QStringLiteral("s1")); });
        QVERIFY(info->hasState);
        QCOMPARE(info->state, QByteArray("step 2"));
        QVERIFY(onWorker([&] { return remote().renewSessionLock(ref); }).ok());
        QCOMPARE(
            onWorker([&] { return remote().acceptSession(q, named("s1", "other")); }).error().code,
            ErrorCode::SessionCannotBeLocked);

        const auto listed = onWorker([&] { return remote().listSessions(q, {}, 10, {}); });
        QVERIFY(listed);
        QStringList ids;
        for (const SessionInfo& session : *listed)
            ids.append(session.sessionId);
        QCOMPARE(ids, (QStringList{"s1", "s2"}));
        QCOMPARE(onWorker([&] { return remote().sessionPages(q, 1); })->total, qint64(2));

        QVERIFY(onWorker([&] { return remote().releaseSession(ref); }).ok());
        QVERIFY(!remote().holdsSession(ref));
        QVERIFY(!served().holdsSession(ref));

        // The next available session, on the broker's own thread; then one that never comes.
        std::atomic<bool> called = false;
        Result<AcceptedSession> next = makeError(ErrorCode::GeneralError, {});
        std::mutex mutex;
        remote().acceptSessionAsync(q, {QStringLiteral("r2"), std::nullopt}, 5000,
                                    [&](const Result<AcceptedSession>& result) {
                                        std::lock_guard lock(mutex);
                                        next = result;
                                        called = true;
                                    });
        QTRY_VERIFY(called.load());
        {
            std::lock_guard lock(mutex);
            QVERIFY(next);
            QCOMPARE(next->sessionId, QStringLiteral("s2"));
        }
        QCOMPARE(remote().releaseSessionsOf(QStringLiteral("r2")), 1);
        QVERIFY(!served().holdsSession(SessionRef::of(*next)));

        std::atomic<bool> lateCall = false;
        QVERIFY(served().createQueue(QStringLiteral("empty"), [] {
            EntityProperties properties;
            properties.requiresSession = true;
            return properties;
        }()));
        const quint64 wait = remote().acceptSessionAsync(
            QStringLiteral("empty"), {QStringLiteral("r3"), std::nullopt}, 2000,
            [&](const Result<AcceptedSession>&) { lateCall = true; });
        QVERIFY(remote().cancelAcceptSession(wait));
        QVERIFY(!remote().cancelAcceptSession(wait));
        QTest::qWait(0);
        m_remote.reset(); // waits for the wait's thread
        QVERIFY(!lateCall.load());
    }

    void deferredAndReceiveAndDeleteInASession() {
        const QString q = QStringLiteral("chats");
        for (const char* id : {"d1", "d2"})
            QVERIFY(served().send(q, inSession(id, QStringLiteral("d"))));
        QVERIFY(served().send(q, inSession("e1", QStringLiteral("e"))));
        // A deferred message in another session.
        const auto e = onWorker([&] { return remote().acceptSession(q, named("e", "r-e")); });
        QVERIFY(e);
        const auto eMessages = onWorker([&] {
            return remote().receiveFromSession(SessionRef::of(*e), ReceiveMode::PeekLock, 1);
        });
        QCOMPARE(eMessages->size(), 1);
        QVERIFY(onWorker([&] { return remote().defer(LockRef::of(eMessages->first()), {}); }).ok());
        QVERIFY(onWorker([&] { return remote().releaseSession(SessionRef::of(*e)); }).ok());

        const auto d = onWorker([&] { return remote().acceptSession(q, named("d")); });
        QVERIFY(d);
        const SessionRef ref = SessionRef::of(*d);
        const auto first =
            onWorker([&] { return remote().receiveFromSession(ref, ReceiveMode::PeekLock, 1); });
        QCOMPARE(idsOf(*first), QStringList{QStringLiteral("d1")});
        QVERIFY(onWorker([&] { return remote().defer(LockRef::of(first->first()), {}); }).ok());
        // Taken back by its sequence number on the session held, locked, then completed.
        const auto deferred = onWorker([&] {
            return remote().receiveDeferredFromSession(ref, first->first().sequenceNumber);
        });
        QVERIFY2(deferred, qPrintable(deferred ? QString() : deferred.error().toString()));
        QCOMPARE(deferred->messageId, QStringLiteral("d1"));
        QVERIFY(!deferred->lockToken.isNull());
        QVERIFY(onWorker([&] { return remote().complete(LockRef::of(*deferred)); }).ok());
        // A session this broker no longer holds: its deferred message stays where it is.
        const auto notHeld = onWorker([&] {
            return remote().receiveDeferredFromSession(SessionRef::of(*e),
                                                       eMessages->first().sequenceNumber);
        });
        QCOMPARE(notHeld.error().code, ErrorCode::SessionLockLost);

        const auto deleted = onWorker(
            [&] { return remote().receiveFromSession(ref, ReceiveMode::ReceiveAndDelete, 5); });
        QCOMPARE(idsOf(*deleted), QStringList{QStringLiteral("d2")});
        QVERIFY(deleted->first().lockToken.isNull());
        QVERIFY(onWorker([&] { return remote().releaseSession(ref); }).ok());
        const EntityCounts counts = *served().counts(q);
        QCOMPARE(counts.active + counts.locked, qint64(0));
        QCOMPARE(counts.deferred, qint64(1)); // e1, still deferred in its session
    }

    void overTls() {
        m_remote.reset();
        m_served = std::make_unique<ServedNamespace>(ServedNamespace::Transport::Tls);
        m_served->testBroker().clock().resetToRealTime();
        QVERIFY(served().createQueue(QStringLiteral("secure"), {}).ok());
        m_remote = remoteFor(*m_served);
        QVERIFY(onWorker(
            [&] { return remote().send(QStringLiteral("secure"), TestBroker::message("t")); }));
        QCOMPARE(idsOf(*onWorker([&] { return remote().peek(QStringLiteral("secure"), 0, 5); })),
                 QStringList{QStringLiteral("t")});
        ReceiveOptions options;
        options.receiver = QStringLiteral("r");
        const auto received =
            onWorker([&] { return remote().receive(QStringLiteral("secure"), options); });
        QCOMPARE(received->size(), 1);
        QVERIFY(onWorker([&] { return remote().complete(LockRef::of(received->first())); }).ok());
        QCOMPARE(servedActive(QStringLiteral("secure")), qint64(0));
        QCOMPARE(served().counts(QStringLiteral("secure"))->locked, qint64(0));
    }

    void readOnlyRefusesTheDataPlane() {
        QVERIFY(served().send(QStringLiteral("jobs"), TestBroker::message("kept")));
        QVERIFY(served().send(QStringLiteral("chats"), inSession("in-s", "s")));
        auto readOnly = remoteFor(*m_served, true);
        const SessionRef session{QStringLiteral("chats"), QStringLiteral("s"), QStringLiteral("r")};
        ReceiveOptions deleting;
        deleting.mode = ReceiveMode::ReceiveAndDelete;
        const LockRef lock{QStringLiteral("jobs"), QUuid::createUuid(), QStringLiteral("r")};
        const QList<std::function<Error()>> calls = {
            [&] {
                return readOnly->send(QStringLiteral("jobs"), TestBroker::message("x")).error();
            },
            [&] {
                return readOnly->sendBatch(QStringLiteral("jobs"), {TestBroker::message("x")})
                    .error();
            },
            [&] {
                return readOnly->schedule(QStringLiteral("jobs"), TestBroker::message("x"), 1)
                    .error();
            },
            [&] { return readOnly->cancelScheduled(QStringLiteral("jobs"), 1).error(); },
            [&] { return readOnly->receive(QStringLiteral("jobs"), {}).error(); },
            [&] { return readOnly->receive(QStringLiteral("jobs"), deleting).error(); },
            [&] { return readOnly->receiveDeferred(QStringLiteral("jobs"), 1, {}).error(); },
            [&] { return readOnly->complete(lock).error(); },
            [&] { return readOnly->abandon(lock, {}).error(); },
            [&] { return readOnly->defer(lock, {}).error(); },
            [&] { return readOnly->deadLetter(lock, {}).error(); },
            [&] { return readOnly->acceptSession(QStringLiteral("chats"), named("s")).error(); },
            [&] { return readOnly->setSessionState(session, QByteArray("x")).error(); },
            [&] {
                return readOnly->receiveFromSession(session, ReceiveMode::ReceiveAndDelete, 1)
                    .error();
            },
        };
        for (const auto& call : calls) {
            const Error error = onWorker(call);
            QCOMPARE(error.code, ErrorCode::InvalidArgument);
            QCOMPARE(error.description, QStringLiteral("This connection is read-only."));
        }
        QCOMPARE(servedActive(QStringLiteral("jobs")), qint64(1));
        QCOMPARE(servedActive(QStringLiteral("chats")), qint64(1));
        QCOMPARE(served().counts(QStringLiteral("jobs"))->scheduled, qint64(0));
        // Browsing still works.
        QCOMPARE(idsOf(*onWorker([&] { return readOnly->peek(QStringLiteral("jobs"), 0, 5); })),
                 QStringList{QStringLiteral("kept")});
    }

    void closingGivesTheLocksBack() {
        QVERIFY(served().send(QStringLiteral("jobs"), TestBroker::message("held")));
        ReceiveOptions options;
        options.receiver = QStringLiteral("worker");
        QCOMPARE(
            onWorker([&] { return remote().receive(QStringLiteral("jobs"), options); })->size(), 1);
        QCOMPARE(served().counts(QStringLiteral("jobs"))->locked, qint64(1));
        m_remote.reset();
        QTRY_COMPARE(served().counts(QStringLiteral("jobs"))->active, qint64(1));
        QCOMPARE(served().counts(QStringLiteral("jobs"))->locked, qint64(0));
    }
};

QTEST_GUILESS_MAIN(RemoteBrokerMessagesTest)
#include "tst_remote_broker_messages.moc"
