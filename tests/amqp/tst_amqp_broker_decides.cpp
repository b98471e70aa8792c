// The endpoint decides nothing the engine decides, and reaches the broker only from its worker
// threads (engine/amqp/README.md, Threads): over a real socket with frames written by hand
// (RawAmqpPeer), an attach to a missing entity, a link that does not fit its entity and a
// message without SessionId to a session entity are refused as the broker refuses them, with
// the conditions the SDKs expect; and while every worker is busy, an attach waits for one
// instead of being decided on the proactor thread.

#include "EndpointTestBase.h"
#include "RawPeerSteps.h"
#include "hourglass/OperationObserver.h"

#include <condition_variable>
#include <mutex>

using namespace hourglass;
using namespace hourglass::amqp;
using namespace hourglass::testing;
namespace frames = hourglass::testing;

namespace {
const QString kQueue = QStringLiteral("q");
const QString kSessionQueue = QStringLiteral("qs");
const QString kTopic = QStringLiteral("t");
constexpr quint32 kLink = 2;

// A receiver attach's source filter asking for the next available session.
void nextSessionFilter(pn_data_t* d) {
    for (int i = 0; i < 6; ++i) // durable ... distribution-mode
        pn_data_put_null(d);
    pn_data_put_map(d);
    pn_data_enter(d);
    putSymbol(d, "com.microsoft:session-filter");
    pn_data_put_null(d);
    pn_data_exit(d);
}

// A message with `sessionId` as its group-id (none: empty).
QByteArray messageInSession(const QByteArray& sessionId) {
    pn_message_t* m = pn_message();
    putString(pn_message_id(m), "m");
    if (!sessionId.isEmpty())
        pn_message_set_group_id(m, sessionId.constData());
    pn_data_put_binary(pn_message_body(m), pn_bytes(4, "body"));
    const QByteArray encoded = RawAmqpPeer::encode(m);
    pn_message_free(m);
    return encoded;
}

// Holds the worker that reports a send inside the broker call, until released.
class HoldingObserver : public OperationObserver {
public:
    void operationDone(const BrokerOperation& operation) override {
        if (operation.kind != BrokerOperation::Kind::Send)
            return;
        std::unique_lock lock(m_mutex);
        m_holding = true;
        m_changed.notify_all();
        m_changed.wait(lock, [this] { return m_released; });
    }
    bool holding(int ms) {
        std::unique_lock lock(m_mutex);
        return m_changed.wait_for(lock, std::chrono::milliseconds(ms),
                                  [this] { return m_holding; });
    }
    void release() {
        std::lock_guard lock(m_mutex);
        m_released = true;
        m_changed.notify_all();
    }

private:
    std::mutex m_mutex;
    std::condition_variable m_changed;
    bool m_holding = false;
    bool m_released = false;
};

// Releases the observer however the test ends: the endpoint waits for its workers when it stops.
struct ReleaseAtEnd {
    HoldingObserver& observer;
    ~ReleaseAtEnd() { observer.release(); }
};
} // namespace

class AmqpBrokerDecidesTest : public EndpointTestBase {
    Q_OBJECT
private slots:
    void init() {
        QVERIFY(openBroker());
        QVERIFY(m_broker->createQueue(kQueue, {}).ok());
        EntityProperties sessions;
        sessions.requiresSession = true;
        QVERIFY(m_broker->createQueue(kSessionQueue, sessions).ok());
        QVERIFY(m_broker->createTopic(kTopic, {}).ok());
    }
    void cleanup() { reset(); }

    // An attach to an entity the broker does not have: attached, then detached with
    // amqp:not-found and the sentence the JavaScript SDK recognises.
    void anAttachToAMissingEntityIsRefusedNotFound_data() {
        QTest::addColumn<bool>("peerSends");
        QTest::newRow("receiver") << false;
        QTest::newRow("sender") << true;
    }
    void anAttachToAMissingEntityIsRefusedNotFound() {
        QFETCH(bool, peerSends);
        QVERIFY(startEndpoint());
        RawAmqpPeer peer(m_port);
        QVERIFY(openWithCbs(peer));
        QVERIFY(putToken(peer));
        peer.attach(kLink, "missing-link", "no-such-queue", peerSends);
        QVERIFY(peer.waitFor(frames::kAttach, 5000, named("missing-link")));
        const auto detach = peer.waitFor(frames::kDetach, 5000);
        QVERIFY(detach);
        const auto [condition, description] = RawAmqpPeer::error(detach->field(2));
        QCOMPARE(condition, QByteArray("amqp:not-found"));
        QCOMPARE(description,
                 QStringLiteral("The messaging entity 'no-such-queue' could not be found."));
    }

    // A receiver that does not fit its entity is refused with amqp:not-allowed in the broker's
    // words; one that fits (a plain receiver on a session queue's dead-letter queue) attaches.
    void aReceiverThatDoesNotFitIsNotAllowed_data() {
        QTest::addColumn<QString>("address");
        QTest::addColumn<bool>("sessionFilter");
        QTest::addColumn<QString>("says"); // empty: attached, no detach
        QTest::newRow("plain receiver on a topic") << kTopic << false << "subscriptions of";
        QTest::newRow("session receiver on a topic") << kTopic << true << "subscriptions of";
        QTest::newRow("plain receiver on a session queue")
            << kSessionQueue << false << "requires sessions";
        QTest::newRow("session receiver on a plain queue")
            << kQueue << true << "does not require sessions";
        QTest::newRow("session receiver on a dead-letter queue")
            << kSessionQueue + QStringLiteral("/$deadletterqueue") << true << "has no sessions";
        QTest::newRow("plain receiver on a session queue's dead-letter queue")
            << kSessionQueue + QStringLiteral("/$deadletterqueue") << false << QString();
    }
    void aReceiverThatDoesNotFitIsNotAllowed() {
        QFETCH(QString, address);
        QFETCH(bool, sessionFilter);
        QFETCH(QString, says);
        QVERIFY(startEndpoint());
        RawAmqpPeer peer(m_port);
        QVERIFY(openWithCbs(peer));
        QVERIFY(putToken(peer));
        peer.attach(kLink, "receiver", address.toUtf8(), false,
                    sessionFilter ? std::function<void(pn_data_t*)>(nextSessionFilter)
                                  : std::function<void(pn_data_t*)>());
        QVERIFY(peer.waitFor(frames::kAttach, 5000, named("receiver")));
        const auto detach = peer.waitFor(frames::kDetach, says.isEmpty() ? 500 : 5000);
        if (says.isEmpty()) {
            QVERIFY2(!detach, "a receiver that fits was detached");
            return;
        }
        QVERIFY(detach);
        const auto [condition, description] = RawAmqpPeer::error(detach->field(2));
        QCOMPARE(condition, QByteArray("amqp:not-allowed"));
        QVERIFY2(description.contains(says), qPrintable(description));
    }

    // A message without SessionId to a session queue is rejected by the broker's own check
    // with amqp:not-allowed, and nothing is stored; one with a SessionId is accepted.
    void aMessageWithoutSessionIdIsNotAllowed() {
        QVERIFY(startEndpoint());
        RawAmqpPeer peer(m_port);
        QVERIFY(openWithCbs(peer));
        QVERIFY(putToken(peer));
        QVERIFY(attachSender(peer, kLink, "sender", kSessionQueue.toUtf8()));
        const quint32 without = peer.transfer(kLink, messageInSession({}));
        const auto refused = peer.waitFor(frames::kDisposition, 5000, settles(without));
        QVERIFY(refused);
        const Outcome outcome = outcomeOf(*refused);
        QCOMPARE(outcome.state, quint64(0x25));
        QCOMPARE(outcome.condition, QByteArray("amqp:not-allowed"));
        QVERIFY2(outcome.description.contains(QStringLiteral("requires sessions")),
                 qPrintable(outcome.description));
        QCOMPARE(m_broker->counts(kSessionQueue)->active, qint64(0));
        const quint32 with = peer.transfer(kLink, messageInSession("s1"));
        const auto accepted = peer.waitFor(frames::kDisposition, 5000, settles(with));
        QVERIFY(accepted);
        QCOMPARE(outcomeOf(*accepted).state, quint64(0x24));
        QCOMPARE(m_broker->counts(kSessionQueue)->active, qint64(1));
    }

    // The proactor thread never asks the broker itself: with the endpoint's one worker held
    // inside a broker call, an attach is not answered (on the proactor thread it would be at
    // once); once the worker is free, the broker's answer refuses it.
    void anAttachWaitsForAWorker() {
        auto observer = std::make_shared<HoldingObserver>();
        ReleaseAtEnd releaseAtEnd{*observer};
        m_broker->setOperationObserver(observer);
        EndpointOptions options;
        options.workerThreads = 1;
        QVERIFY(startEndpoint(options));
        RawAmqpPeer peer(m_port);
        QVERIFY(openWithCbs(peer));
        QVERIFY(putToken(peer));
        QVERIFY(attachSender(peer, kLink, "sender", kQueue.toUtf8()));
        peer.transfer(kLink, messageInSession({}));
        QVERIFY2(observer->holding(5000), "the send never reached the broker");

        constexpr quint32 kMissing = kLink + 1;
        peer.attach(kMissing, "missing-link", "no-such-queue", false);
        QVERIFY2(!peer.waitFor(frames::kAttach, 500, named("missing-link")),
                 "the attach was answered while no worker could ask the broker");
        observer->release();
        QVERIFY(peer.waitFor(frames::kAttach, 5000, named("missing-link")));
        const auto detach = peer.waitFor(frames::kDetach, 5000);
        QVERIFY(detach);
        QCOMPARE(RawAmqpPeer::error(detach->field(2)).first, QByteArray("amqp:not-found"));
    }
};

QTEST_GUILESS_MAIN(AmqpBrokerDecidesTest)
#include "tst_amqp_broker_decides.moc"
