// A send returns the MessageId the message is stored under (SendResult::messageId), and an
// observer (scenario recording) hears the caller's own send, made once: a message sent without
// a MessageId is heard under the id the broker gave it, also where a made-up id would have
// pushed the message over a size limit or the entity's quota.
#include "TestBroker.h"
#include "hourglass/OperationObserver.h"

#include <QTest>

#include <mutex>

using namespace hourglass;
using namespace hourglass::testing;

namespace {

// Keeps every send it hears.
class SendLog final : public OperationObserver {
public:
    void operationDone(const BrokerOperation& operation) override {
        if (operation.kind != BrokerOperation::Kind::Send)
            return;
        std::lock_guard lock(m_mutex);
        m_sends.append(operation);
    }
    QList<BrokerOperation> sends() const {
        std::lock_guard lock(m_mutex);
        return m_sends;
    }

private:
    mutable std::mutex m_mutex;
    QList<BrokerOperation> m_sends;
};

// The MessageIds `path` holds, in sequence order.
QStringList storedIds(Broker& broker, const QString& path) {
    QStringList ids;
    const auto peeked = broker.peek(path, 0, 10);
    if (peeked) {
        for (const MessageView& view : *peeked)
            ids.append(view.messageId);
    }
    return ids;
}

OutgoingMessage withoutId(qsizetype bodyBytes) {
    OutgoingMessage message;
    message.body = QByteArray(bodyBytes, 'x');
    return message;
}

} // namespace

class TestEngineObservedSends : public QObject {
    Q_OBJECT
private slots:
    void resultNamesTheStoredMessage();
    void observedSendAtTheSizeLimitIsTheCallersSend();
    void observedSendAtTheQuotaIsTheCallersSend();
    void observedSendEachHearsTheAssignedIds();
};

// Unobserved: the id given, or the one the broker made up, is the stored message's; a
// duplicate names the id it was dropped for.
void TestEngineObservedSends::resultNamesTheStoredMessage() {
    TestBroker t;
    EntityProperties detecting;
    detecting.requiresDuplicateDetection = true;
    QVERIFY(t->createQueue(QStringLiteral("q"), detecting));
    const auto named = t->send(QStringLiteral("q"), TestBroker::message(QStringLiteral("m1")));
    QVERIFY(named);
    QCOMPARE(named->messageId, QStringLiteral("m1"));
    const auto anonymous = t->send(QStringLiteral("q"), withoutId(4));
    QVERIFY(anonymous);
    QVERIFY(!anonymous->messageId.isEmpty());
    QCOMPARE(storedIds(t.broker(), QStringLiteral("q")),
             (QStringList{QStringLiteral("m1"), anonymous->messageId}));
    const auto again = t->send(QStringLiteral("q"), TestBroker::message(QStringLiteral("m1")));
    QVERIFY(again && again->duplicate);
    QCOMPARE(again->messageId, QStringLiteral("m1"));
}

// A message that fits MaxMessageSizeInKilobytes only without a MessageId is sent once, as the
// caller gave it; the observer hears it under the id it is stored with.
void TestEngineObservedSends::observedSendAtTheSizeLimitIsTheCallersSend() {
    TestBroker t;
    auto log = std::make_shared<SendLog>();
    t->setOperationObserver(log);
    EntityProperties small;
    small.maxMessageSizeInKilobytes = 1024;
    QVERIFY(t->createQueue(QStringLiteral("q"), small));
    const auto sent = t->sendBatch(QStringLiteral("q"), {withoutId(1024 * 1024)});
    QVERIFY2(sent, qPrintable(sent ? QString() : sent.error().description));
    const QString assigned = sent->first().messageId;
    QVERIFY(!assigned.isEmpty());
    QCOMPARE(storedIds(t.broker(), QStringLiteral("q")), QStringList{assigned});

    const QList<BrokerOperation> sends = log->sends();
    QCOMPARE(sends.size(), 1);
    QCOMPARE(sends.first().messages.size(), 1);
    QCOMPARE(sends.first().messages.first().messageId, assigned);
    QCOMPARE(sends.first().sendResults.first().messageId, assigned);
    QCOMPARE(sends.first().messages.first().body.size(), 1024 * 1024);

    // One byte more does not fit even without an id: refused, and nothing is heard.
    const auto refused = t->send(QStringLiteral("q"), withoutId(1024 * 1024 + 1));
    QCOMPARE(refused.error().code, ErrorCode::MessageSizeExceeded);
    QCOMPARE(log->sends().size(), 1);
}

// The same at the entity's quota (MaxSizeInMegabytes): the message that fills it exactly is
// stored once and heard under its stored id.
void TestEngineObservedSends::observedSendAtTheQuotaIsTheCallersSend() {
    TestBroker t;
    auto log = std::make_shared<SendLog>();
    t->setOperationObserver(log);
    EntityProperties oneMegabyte;
    oneMegabyte.maxSizeInMegabytes = 1;
    oneMegabyte.maxMessageSizeInKilobytes = 1024;
    QVERIFY(t->createQueue(QStringLiteral("q"), oneMegabyte));
    // "a" and a body one byte short of half the quota: exactly half.
    QVERIFY(t->send(QStringLiteral("q"),
                    TestBroker::message(QStringLiteral("a"), QByteArray(512 * 1024 - 1, 'a'))));
    const auto sent = t->send(QStringLiteral("q"), withoutId(512 * 1024));
    QVERIFY2(sent, qPrintable(sent ? QString() : sent.error().description));
    QCOMPARE(storedIds(t.broker(), QStringLiteral("q")),
             (QStringList{QStringLiteral("a"), sent->messageId}));

    const QList<BrokerOperation> sends = log->sends();
    QCOMPARE(sends.size(), 2);
    QCOMPARE(sends.last().messages.first().messageId, sent->messageId);
    QCOMPARE(t->send(QStringLiteral("q"), withoutId(1)).error().code, ErrorCode::QuotaExceeded);
    QCOMPARE(log->sends().size(), 2);
}

// sendEach (the wire's path): each message heard under its stored id, failures left out.
void TestEngineObservedSends::observedSendEachHearsTheAssignedIds() {
    TestBroker t;
    auto log = std::make_shared<SendLog>();
    t->setOperationObserver(log);
    EntityProperties small;
    small.maxMessageSizeInKilobytes = 1024;
    QVERIFY(t->createQueue(QStringLiteral("q"), small));
    int taken = 0;
    const QList<Result<SendResult>> results =
        t->sendEach(QStringLiteral("q"),
                    {withoutId(1024 * 1024), withoutId(1024 * 1024 + 1),
                     TestBroker::message(QStringLiteral("m3"))},
                    [&taken] { ++taken; });
    QCOMPARE(taken, 1);
    QCOMPARE(results.size(), 3);
    QVERIFY(results[0]);
    QCOMPARE(results[1].error().code, ErrorCode::MessageSizeExceeded);
    QVERIFY(results[2]);
    QCOMPARE(results[2]->messageId, QStringLiteral("m3"));
    QCOMPARE(storedIds(t.broker(), QStringLiteral("q")),
             (QStringList{results[0]->messageId, QStringLiteral("m3")}));

    const QList<BrokerOperation> sends = log->sends();
    QCOMPARE(sends.size(), 1);
    QCOMPARE(sends.first().messages.size(), 2);
    QCOMPARE(sends.first().messages[0].messageId, results[0]->messageId);
    QCOMPARE(sends.first().messages[1].messageId, QStringLiteral("m3"));
}

QTEST_GUILESS_MAIN(TestEngineObservedSends)
#include "tst_engine_observed_sends.moc"
