// What one connection may take of the endpoint, over a real socket with frames written by hand
// (RawAmqpPeer): a finite session window that a sender keeping to it is never stalled by, at most
// kMaxSessionsPerConnection sessions and kMaxLinksPerConnection links, and the credit of all its
// inbound links together within kInboundBytesPerConnection.

#include "EndpointTestBase.h"
#include "RawAmqpPeer.h"
#include "RawPeerSteps.h"
#include "hourglass/amqpcodec/PeerLimits.h"

#include <QTest>

#include <algorithm>

using namespace hourglass;
using namespace hourglass::amqp;
using namespace hourglass::testing;

namespace {
const QString kQueue = QStringLiteral("q");
// The most a transfer may carry on the endpoint's links: their max-message-size (256 KiB) and
// 64 KiB for the transfer's own sections. The byte budget counts each credit at this.
constexpr quint64 kTransferBound = 320 * 1024;

// The first frame of `performative` the endpoint sent on `channel`, among those read so far.
std::optional<AmqpFrame> firstOf(const RawAmqpPeer& peer, quint64 performative,
                                 quint16 channel = 0) {
    for (const AmqpFrame& frame : peer.received()) {
        if (frame.performative == performative && frame.channel == channel)
            return frame;
    }
    return std::nullopt;
}

// The transfer-id past the last one the endpoint's session on channel 0 lets the peer send:
// next-incoming-id plus incoming-window of its latest flow (or of its begin, before any flow).
quint64 windowEnd(const RawAmqpPeer& peer) {
    quint64 end = 0;
    for (const AmqpFrame& frame : peer.received()) {
        if (frame.channel != 0)
            continue;
        if (frame.performative == kBegin)
            end = frame.field(2).toUInt(); // our next-outgoing-id was 0
        else if (frame.performative == kFlow && frame.field(0).isValid())
            end = quint64(frame.field(0).toUInt()) + frame.field(1).toUInt();
    }
    return end;
}
} // namespace

class AmqpPeerBudgetsTest : public EndpointTestBase {
    Q_OBJECT
private slots:
    void init() { QVERIFY(startWithQueue(kQueue)); }
    void cleanup() { reset(); }

    // Proton 0.37 advertises 2^31-1 frames unless told a capacity.
    void theSessionWindowIsFinite() {
        RawAmqpPeer peer(m_port);
        QVERIFY(peer.open());
        const auto begin = firstOf(peer, kBegin);
        QVERIFY(begin);
        const quint32 window = begin->field(2).toUInt();
        QVERIFY2(window > 0 && window <= quint32(kSessionWindowFrames),
                 qPrintable(QString::number(window)));
    }

    // Three windows' worth of transfers, each sent only inside the window the endpoint last
    // advertised: the endpoint renews it as it reads them, and every message is stored.
    void aSenderKeepingToTheWindowIsNeverStalled() {
        RawAmqpPeer peer(m_port);
        QVERIFY(openWithCbs(peer));
        QVERIFY(putToken(peer));
        const auto sender = attachSender(peer, 2, "sender", kQueue.toUtf8());
        QVERIFY(sender);
        const int total = 3 * kSessionWindowFrames + 10;
        QVERIFY(quint32(total) <= sender->credit);
        quint64 sent = 1; // the put-token
        const QByteArray small = message("within the window");
        for (int i = 0; i < total; ++i) {
            while (sent >= windowEnd(peer))
                QVERIFY2(peer.waitFor(kFlow, 5000), "the window was not renewed");
            peer.transfer(2, small);
            ++sent;
            peer.drain();
        }
        QTRY_COMPARE_WITH_TIMEOUT(m_broker->entity(kQueue)->counts.active, qint64(total), 10000);
        QVERIFY(!peer.closedByEndpoint());
    }

    // The open says how many sessions the endpoint takes (channel-max); the last channel is
    // begun, the one past it ends the connection.
    void aBeginPastTheSessionLimitEndsTheConnection() {
        RawAmqpPeer peer(m_port);
        QVERIFY(peer.open());
        const auto open = firstOf(peer, kOpen);
        QVERIFY(open);
        QCOMPARE(open->field(3).toUInt(), quint32(kMaxSessionsPerConnection - 1));
        const quint16 last = quint16(kMaxSessionsPerConnection - 1);
        peer.begin(last);
        QVERIFY(peer.waitFor(kBegin, 5000, [last](const AmqpFrame& f) {
            return f.field(0).isValid() && f.field(0).toUInt() == last;
        }));
        peer.begin(quint16(kMaxSessionsPerConnection));
        const auto close = peer.waitFor(kClose, 5000);
        QVERIFY2(close, "the connection went on");
        QCOMPARE(RawAmqpPeer::error(close->field(0)).first,
                 QByteArray("amqp:connection:framing-error"));
    }

    // kMaxLinksPerConnection links are attached; the next is refused with
    // resource-limit-exceeded, and once one detaches another is taken again.
    void linksPastTheLimitAreRefused() {
        RawAmqpPeer peer(m_port);
        QVERIFY(openWithCbs(peer));
        QVERIFY(putToken(peer));
        peer.dropFrames(kFlow);
        const quint32 limit = quint32(kMaxLinksPerConnection);
        for (quint32 handle = 2; handle < limit; ++handle)
            peer.attach(handle, "s" + QByteArray::number(handle), kQueue.toUtf8(), true);
        const QByteArray lastName = "s" + QByteArray::number(limit - 1);
        QVERIFY(peer.waitFor(kAttach, 10000, named(lastName)));
        QVERIFY(!peer.waitFor(kDetach, 0));

        peer.attach(limit, "one-too-many", kQueue.toUtf8(), true);
        QVERIFY(peer.waitFor(kAttach, 5000, named("one-too-many")));
        const auto refused = peer.waitFor(kDetach, 5000);
        QVERIFY(refused);
        QCOMPARE(RawAmqpPeer::error(refused->field(2)).first,
                 QByteArray("amqp:resource-limit-exceeded"));
        peer.detach(limit); // as a client answers a detach

        peer.detach(2);
        QVERIFY(peer.waitFor(kDetach, 5000)); // the endpoint's answer
        peer.attach(limit + 1, "after-one-left", kQueue.toUtf8(), true);
        QVERIFY(peer.waitFor(kAttach, 5000, named("after-one-left")));
        QVERIFY(!peer.waitFor(kDetach, 1000));
    }

    // Ten senders on one connection: the first gets its whole window, the credit of all of them
    // together stays within the connection's byte budget (each holds at least one transfer),
    // and when the first one leaves, those that got less are granted what it held.
    void theCreditOfAllSendersStaysWithinTheConnectionsBudget() {
        RawAmqpPeer peer(m_port);
        QVERIFY(openWithCbs(peer));
        QVERIFY(putToken(peer));
        constexpr int kSenders = 10;
        QList<AttachedSender> senders;
        for (int i = 0; i < kSenders; ++i) {
            const auto sender =
                attachSender(peer, quint32(2 + i), "s" + QByteArray::number(i), kQueue.toUtf8());
            QVERIFY(sender);
            senders.append(*sender);
        }
        QCOMPARE(senders.first().credit, 500u);
        quint64 credit = 0;
        for (const AttachedSender& sender : senders)
            credit += sender.credit;
        QVERIFY2(credit * kTransferBound <= kInboundBytesPerConnection + kSenders * kTransferBound,
                 qPrintable(QString::number(credit)));

        QCOMPARE(senders.last().credit, 1u);
        peer.detach(2);
        const auto more = peer.waitFor(kFlow, 5000, [&](const AmqpFrame& f) {
            for (const AttachedSender& sender : senders.mid(1)) {
                if (f.field(4).toUInt() == sender.endpointHandle)
                    return f.field(6).toUInt() > sender.credit;
            }
            return false;
        });
        QVERIFY2(more, "no sender was granted the credit that came free");
    }
};

QTEST_GUILESS_MAIN(AmqpPeerBudgetsTest)
#include "tst_amqp_peer_budgets.moc"
