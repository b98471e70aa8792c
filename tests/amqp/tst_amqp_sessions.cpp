// The session operations of `$management` (SessionManagement.h) as the connection runs them,
// without a socket: renew-session-lock, get/set-session-state, get-message-sessions, and
// peek-message, receive-by-sequence-number and update-disposition inside a session, on a
// virtual clock. Also the .NET ticks of `com.microsoft:locked-until-utc`. The SDK's own view of
// session receivers is tests/sdk/sessions.test.mjs.

#include "ManagementOperations.h"
#include "SessionLinks.h"
#include "TestBroker.h"
#include "hourglass/amqpcodec/AmqpValue.h"
#include "hourglass/amqpcodec/MessageCodec.h"
#include "hourglass/amqpcodec/WireErrors.h"

#include <QDateTime>
#include <QTest>

using namespace hourglass;
using namespace hourglass::amqp;
using hourglass::testing::TestBroker;

namespace {
const QString kQueue = QStringLiteral("orders");
const QString kHolder = QStringLiteral("amqp/1/session-link");
constexpr Millis kLockDuration = 30000;

ManagementRequest request(const QString& operation, const QVariantMap& body) {
    ManagementRequest made;
    made.operation = QStringLiteral("com.microsoft:") + operation;
    made.properties.insert(QStringLiteral("operation"), made.operation);
    made.body = body;
    made.messageId = QStringLiteral("request-1");
    return made;
}

ManagementContext as(const QString& receiver) {
    ManagementContext context;
    context.entityPath = kQueue;
    // As a claim places the link: every broker call names the namespace (TestBroker's "test").
    context.namespaceName = QStringLiteral("test");
    context.brokerPath = QStringLiteral("test:") + kQueue;
    context.receiverName = receiver;
    return context;
}

OutgoingMessage inSession(const QString& id, const QString& sessionId) {
    OutgoingMessage message = TestBroker::message(id);
    message.sessionId = sessionId;
    return message;
}

QStringList bodiesOf(const ManagementOutcome& outcome) {
    QStringList ids;
    for (const QVariant& item : outcome.response.body.toMap().value("messages").toList()) {
        const auto decoded = decodeMessage(item.toMap().value("message").toByteArray());
        ids.append(decoded ? decoded->messageId : QStringLiteral("?"));
    }
    return ids;
}
} // namespace

class AmqpSessionsTest : public QObject {
    Q_OBJECT
private slots:
    void init() {
        m_broker = std::make_unique<TestBroker>();
        EntityProperties properties = EntityProperties::defaults(Tier::Standard);
        properties.requiresSession = true;
        properties.lockDuration = kLockDuration;
        QVERIFY((*m_broker)->createQueue(kQueue, properties).ok());
    }
    void cleanup() { m_broker.reset(); }

    void lockedUntilIsInDotNetTicks() {
        QCOMPARE(dotNetTicks(0), 621355968000000000LL);
        // 2026-01-01T00:00:00Z, as .NET's DateTime(2026, 1, 1).Ticks says.
        QCOMPARE(dotNetTicks(hourglass::testing::kTestStart), 639028224000000000LL);
    }

    void renewSessionLockByItsHolderMovesTheEnd() {
        const auto accepted = accept(QStringLiteral("s1"));
        m_broker->advance(10000);
        const auto outcome = run("renew-session-lock", {{"session-id", "s1"}}, kHolder);
        QCOMPARE(outcome.response.statusCode, 200);
        const QDateTime expiration = outcome.response.body.toMap().value("expiration").toDateTime();
        QCOMPARE(expiration.toMSecsSinceEpoch(), m_broker->clock().now() + kLockDuration);
    }

    void aForeignOrLostSessionLockIs410SessionLockLost_data() {
        QTest::addColumn<QString>("operation");
        QTest::addColumn<bool>("lost");
        for (const char* operation :
             {"renew-session-lock", "get-session-state", "set-session-state"}) {
            QTest::addRow("%s, another receiver", operation) << QString(operation) << false;
            QTest::addRow("%s, lock ran out", operation) << QString(operation) << true;
        }
    }
    void aForeignOrLostSessionLockIs410SessionLockLost() {
        QFETCH(QString, operation);
        QFETCH(bool, lost);
        accept(QStringLiteral("s1"));
        QString receiver = QStringLiteral("amqp/2/someone-else");
        if (lost) {
            m_broker->advance(kLockDuration + 1);
            receiver = kHolder;
        }
        const auto outcome =
            run(operation, {{"session-id", "s1"}, {"session-state", QByteArray("x")}}, receiver);
        QCOMPARE(outcome.response.statusCode, 410);
        QCOMPARE(outcome.response.errorCondition, QByteArray("com.microsoft:session-lock-lost"));
    }

    void sessionStateRoundTripsAndNullRemovesIt() {
        accept(QStringLiteral("s1"));
        auto got = run("get-session-state", {{"session-id", "s1"}}, kHolder);
        QCOMPARE(got.response.statusCode, 200);
        QCOMPARE(got.response.body.toMap().value("session-state").typeId(),
                 int(QMetaType::Nullptr));
        QCOMPARE(run("set-session-state",
                     {{"session-id", "s1"}, {"session-state", QByteArray("\x01\x02", 2)}}, kHolder)
                     .response.statusCode,
                 200);
        got = run("get-session-state", {{"session-id", "s1"}}, kHolder);
        QCOMPARE(got.response.body.toMap().value("session-state").toByteArray(),
                 QByteArray("\x01\x02", 2));
        QCOMPARE(run("set-session-state",
                     {{"session-id", "s1"}, {"session-state", QVariant::fromValue(nullptr)}},
                     kHolder)
                     .response.statusCode,
                 200);
        got = run("get-session-state", {{"session-id", "s1"}}, kHolder);
        QCOMPARE(got.response.body.toMap().value("session-state").typeId(),
                 int(QMetaType::Nullptr));
    }

    void aBadSessionStateChangesNothing() {
        accept(QStringLiteral("s1"));
        const auto outcome =
            run("set-session-state", {{"session-id", "s1"}, {"session-state", 42}}, kHolder);
        QCOMPARE(outcome.response.statusCode, 400);
        QVERIFY(!(*m_broker)->session(kQueue, QStringLiteral("s1"))->hasState);
    }

    void getMessageSessionsPagesWithSkipAndTop() {
        for (const QString id : {"a", "b", "c"}) {
            accept(id, QStringLiteral("amqp/1/") + id);
            QVERIFY((*m_broker)
                        ->setSessionState({kQueue, id, QStringLiteral("amqp/1/") + id},
                                          QByteArray("state"))
                        .ok());
        }
        const QDateTime since =
            QDateTime::fromMSecsSinceEpoch(hourglass::testing::kTestStart - 1, Qt::UTC);
        auto page = run("get-message-sessions",
                        {{"last-updated-time", since}, {"skip", 0}, {"top", 2}}, kHolder);
        QCOMPARE(page.response.statusCode, 200);
        QCOMPARE(idsOf(page), QStringList({"a", "b"}));
        QCOMPARE(page.response.body.toMap().value("skip").toInt(), 2);
        page = run("get-message-sessions", {{"last-updated-time", since}, {"skip", 2}, {"top", 2}},
                   kHolder);
        QCOMPARE(idsOf(page), QStringList({"c"}));
        page = run("get-message-sessions", {{"last-updated-time", since}, {"skip", 3}, {"top", 2}},
                   kHolder);
        QCOMPARE(page.response.statusCode, 204);
        // Sessions whose state was set before last-updated-time are left out.
        const QDateTime later =
            QDateTime::fromMSecsSinceEpoch(m_broker->clock().now() + 1, Qt::UTC);
        page = run("get-message-sessions", {{"last-updated-time", later}, {"skip", 0}, {"top", 10}},
                   kHolder);
        QCOMPARE(page.response.statusCode, 204);
    }

    void peekWithASessionIdSeesThatSessionOnly() {
        QVERIFY((*m_broker)->send(kQueue, inSession("a-1", "a")).ok());
        QVERIFY((*m_broker)->send(kQueue, inSession("b-1", "b")).ok());
        QVERIFY((*m_broker)->send(kQueue, inSession("a-2", "a")).ok());
        auto peeked = run(
            "peek-message",
            {{"from-sequence-number", qlonglong(1)}, {"message-count", 10}, {"session-id", "a"}},
            kHolder);
        QCOMPARE(peeked.response.statusCode, 200);
        QCOMPARE(bodiesOf(peeked), QStringList({"a-1", "a-2"}));
        peeked =
            run("peek-message",
                {{"from-sequence-number", qlonglong(1)}, {"message-count", 1}, {"session-id", "a"}},
                kHolder);
        QCOMPARE(bodiesOf(peeked), QStringList({"a-1"}));
        peeked = run("peek-message",
                     {{"from-sequence-number", qlonglong(1)},
                      {"message-count", 10},
                      {"session-id", "nobody"}},
                     kHolder);
        QCOMPARE(peeked.response.statusCode, 204);
    }

    void receiveBySequenceNumberGoesThroughTheSession() {
        QVERIFY((*m_broker)->send(kQueue, inSession("d-1", "d")).ok());
        const SessionRef session = SessionRef::of(accept(QStringLiteral("d")));
        const auto received = (*m_broker)->receiveFromSession(session, ReceiveMode::PeekLock, 1);
        QVERIFY(received.ok() && received->size() == 1);
        QVERIFY((*m_broker)->defer(LockRef::of(received->first())).ok());
        const qlonglong number = received->first().sequenceNumber;

        // Another session's receiver does not get it.
        accept(QStringLiteral("e"), QStringLiteral("amqp/1/e"));
        auto outcome = run("receive-by-sequence-number",
                           {{"sequence-numbers", QVariantList{number}},
                            {"receiver-settle-mode", 1u},
                            {"session-id", "e"}},
                           QStringLiteral("amqp/1/e"));
        QCOMPARE(outcome.response.statusCode, 404);

        outcome = run("receive-by-sequence-number",
                      {{"sequence-numbers", QVariantList{number}},
                       {"receiver-settle-mode", 1u},
                       {"session-id", "d"}},
                      kHolder);
        QCOMPARE(outcome.response.statusCode, 200);
        QCOMPARE(bodiesOf(outcome), QStringList({"d-1"}));
        QCOMPARE(outcome.locksTaken.size(), 1);

        // Settled through update-disposition, with the lock the connection knows.
        ManagementContext context = as(kHolder);
        const QUuid token = outcome.locksTaken.first().ref.lockToken;
        context.knownLocks.insert(token, outcome.locksTaken.first().ref);
        const auto settled = runManagementOperation(
            m_broker->broker(),
            request("update-disposition", {{"lock-tokens", QVariantList{token}},
                                           {"disposition-status", "completed"},
                                           {"session-id", "d"}}),
            context);
        QCOMPARE(settled.response.statusCode, 200);
        QCOMPARE((*m_broker)->counts(kQueue)->deferred, 0);
    }

    void settlingAfterTheSessionLockRanOutIs410SessionLockLost() {
        QVERIFY((*m_broker)->send(kQueue, inSession("s-1", "s")).ok());
        const SessionRef session = SessionRef::of(accept(QStringLiteral("s")));
        const auto received = (*m_broker)->receiveFromSession(session, ReceiveMode::PeekLock, 1);
        QVERIFY(received.ok() && received->size() == 1);
        m_broker->advance(kLockDuration + 1);
        ManagementContext context = as(kHolder);
        const LockRef lock = LockRef::of(received->first());
        context.knownLocks.insert(lock.lockToken, lock);
        const auto settled = runManagementOperation(
            m_broker->broker(),
            request("update-disposition", {{"lock-tokens", QVariantList{lock.lockToken}},
                                           {"disposition-status", "completed"},
                                           {"session-id", "s"}}),
            context);
        QCOMPARE(settled.response.statusCode, 410);
        QCOMPARE(settled.response.errorCondition, QByteArray("com.microsoft:session-lock-lost"));
        QCOMPARE((*m_broker)->counts(kQueue)->active, 1);
    }

private:
    AcceptedSession accept(const QString& sessionId, const QString& receiver = kHolder) {
        SessionAcceptOptions options;
        options.receiver = receiver;
        options.sessionId = sessionId;
        const auto accepted = (*m_broker)->acceptSession(kQueue, options);
        if (!accepted)
            qFatal("accept %s: %s", qPrintable(sessionId), qPrintable(accepted.error().toString()));
        return *accepted;
    }
    ManagementOutcome run(const QString& operation, const QVariantMap& body,
                          const QString& receiver) {
        return runManagementOperation(m_broker->broker(), request(operation, body), as(receiver));
    }
    static QStringList idsOf(const ManagementOutcome& outcome) {
        QStringList ids;
        const QVariant value = outcome.response.body.toMap().value("sessions-ids");
        for (const QVariant& id : value.value<AmqpArray>().items)
            ids.append(id.toString());
        return ids;
    }

    std::unique_ptr<TestBroker> m_broker;
};

QTEST_GUILESS_MAIN(AmqpSessionsTest)
#include "tst_amqp_sessions.moc"
