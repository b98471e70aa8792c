// Restart, part 2 (service-bus-rules.md D2): the counters a crash could forget. "A delivery is
// durable before the message is handed out, so a receiver that crashes the process on a poison
// message still drives it to MaxDeliveryCount, and a restart never makes an entity look idle for
// longer than it was." Each before half ends with the operation under test and reads nothing stored
// after it (a stored read would commit what is pending and hide a lazy write), so the kill -9
// variant sees exactly what the engine made durable before acknowledging.
#include "TestEngineRestart.h"

#include "EngineChecks.h"
#include "KilledRestart.h"
#include "TestBroker.h"

#include <QHash>
#include <QTest>

using namespace hourglass;
using namespace hourglass::testing;

namespace {
const QString& kQueue = kRestartQueue;
const QString kDeadLetters = kRestartQueue + QStringLiteral("/$deadletterqueue");
const QString kTopic = QStringLiteral("t");
const QString kSub = QStringLiteral("t/Subscriptions/s");
constexpr Millis kShortLock = seconds(30);

QString handedOutKey(const QString& messageId) {
    return QStringLiteral("handedOut.") + messageId;
}

// "a" is handed out twice with an abandon in between, "b" twice with its lock running out in
// between, "c" once; the second receive is the last operation before the restart.
const BeforeRestart kDeliverAgain{
    "deliverAgain", [](TestBroker& tb, Handoff& handoff) {
        QHash<QString, int> handedOut;
        const auto first = tb->receive(kQueue, peekLock(QStringLiteral("r"), 2));
        HG_VERIFY_OK(first);
        QCOMPARE(messageIds(*first), (QStringList{QStringLiteral("a"), QStringLiteral("b")}));
        for (const MessageView& m : *first)
            ++handedOut[m.messageId];
        HG_VERIFY_OK(tb->abandon(LockRef::of(first->at(0))));
        tb.advance(kShortLock + 1);
        const auto second = tb->receive(kQueue, peekLock(QStringLiteral("r"), 3));
        HG_VERIFY_OK(second);
        QCOMPARE(messageIds(*second),
                 (QStringList{QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c")}));
        for (const MessageView& m : *second) {
            ++handedOut[m.messageId];
            QCOMPARE(m.deliveryCount, quint32(handedOut[m.messageId]));
        }
        for (auto it = handedOut.cbegin(); it != handedOut.cend(); ++it)
            handoff.put(handedOutKey(it.key()), qint64(it.value()));
    }};

// A receiver that crashes the process on the message it was handed (a poison message).
const BeforeRestart kCrashOnPoison{
    "crashOnPoison", [](TestBroker& tb, Handoff& handoff) {
        const auto got = tb->receive(kQueue, peekLock(QStringLiteral("crashing")));
        HG_VERIFY_OK(got);
        QCOMPARE(messageIds(*got), QStringList{QStringLiteral("poison")});
        handoff.put(QStringLiteral("deliveryCount"), qint64(got->first().deliveryCount));
    }};

// Four minutes into a five-minute idle timer, one operation that A2 counts as activity.
const BeforeRestart kActivity{
    "activity", [](TestBroker& tb, Handoff& handoff) {
        const QString operation = handoff.text(QStringLiteral("operation"));
        const QString path = handoff.text(QStringLiteral("path"));
        std::optional<MessageView> locked;
        if (operation == QLatin1String("renew") || operation == QLatin1String("complete")) {
            const auto got = tb->receive(path, peekLock(QStringLiteral("r")));
            HG_VERIFY_OK(got);
            QCOMPARE(got->size(), 1);
            locked = got->first();
        }
        tb.advance(minutes(4));
        if (operation == QLatin1String("send")) {
            HG_VERIFY_OK(tb->send(path, TestBroker::message(QStringLiteral("late"))));
        } else if (operation == QLatin1String("receive (empty)")) {
            const auto got = tb->receive(path, peekLock(QStringLiteral("poller")));
            HG_VERIFY_OK(got);
            QVERIFY(got->isEmpty());
        } else if (operation == QLatin1String("receive")) {
            const auto got = tb->receive(path, peekLock(QStringLiteral("r")));
            HG_VERIFY_OK(got);
            QCOMPARE(got->size(), 1);
        } else if (operation == QLatin1String("peek")) {
            const auto got = tb->peek(path, 0, 10);
            HG_VERIFY_OK(got);
            QVERIFY(!got->isEmpty());
        } else if (operation == QLatin1String("renew")) {
            HG_VERIFY_OK(tb->renewLock(LockRef::of(*locked)));
        } else if (operation == QLatin1String("complete")) {
            HG_VERIFY_OK(tb->complete(LockRef::of(*locked)));
        } else {
            QFAIL(qPrintable("unknown operation " + operation));
        }
        handoff.put(QStringLiteral("at"), tb.clock().now());
    }};

// A message that stays: deferred, so it is neither received nor consumed by the operations.
void addDeferredMessage(TestBroker& tb, const QString& sendPath, const QString& receivePath) {
    HG_VERIFY_OK(tb->send(sendPath, TestBroker::message(QStringLiteral("kept"))));
    const auto got = tb->receive(receivePath, peekLock(QStringLiteral("setup")));
    HG_VERIFY_OK(got);
    QCOMPARE(got->size(), 1);
    HG_VERIFY_OK(tb->defer(LockRef::of(got->first())));
}

} // namespace

void TestEngineRestart::restart_D2_deliveryCountSurvivesCrash_data() {
    addRestartRows();
}

void TestEngineRestart::restart_D2_deliveryCountSurvivesCrash() {
    QFETCH(Restart, restart);
    TestBroker tb;
    EntityProperties p;
    p.lockDuration = kShortLock;
    HG_VERIFY_OK(tb->createQueue(kQueue, p));
    const QStringList ids{QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c")};
    QHash<QString, qint64> sequence;
    for (const QString& id : ids) {
        const auto sent = tb->send(kQueue, TestBroker::message(id));
        HG_VERIFY_OK(sent);
        sequence.insert(id, sent->sequenceNumber);
    }
    const Handoff handed = kDeliverAgain.runThenRestart(tb, restart);
    if (QTest::currentTestFailed())
        return;

    // Every message is checked before the test fails, so the message shows each one: "a" had
    // an abandon (a stored settlement) between its deliveries, "b" only a lock that ran out.
    QStringList forgotten;
    for (const QString& id : ids) {
        const qint64 handedOut = handed.number(handedOutKey(id));
        QVERIFY(handedOut > 0);
        const auto stored = tb->message(kQueue, sequence.value(id));
        HG_VERIFY_OK(stored);
        if (stored->deliveryCount < handedOut)
            forgotten << QStringLiteral("%1: handed out %2 time(s) under a lock, DeliveryCount %3")
                             .arg(id)
                             .arg(handedOut)
                             .arg(stored->deliveryCount);
    }
    QVERIFY2(forgotten.isEmpty(),
             qPrintable(QStringLiteral("deliveries forgotten by the restart:\n  ") +
                        forgotten.join(QStringLiteral("\n  "))));
    // The next delivery counts on from there.
    const auto again = tb->receive(kQueue, peekLock(QStringLiteral("after"), 3));
    HG_VERIFY_OK(again);
    QCOMPARE(messageIds(*again), ids);
    for (const MessageView& m : *again)
        QVERIFY(m.deliveryCount >= handed.number(handedOutKey(m.messageId)) + 1);
}

void TestEngineRestart::restart_D2_poisonMessageReachesMaxDeliveryCount_data() {
    addRestartRows();
}

void TestEngineRestart::restart_D2_poisonMessageReachesMaxDeliveryCount() {
    QFETCH(Restart, restart);
    constexpr int kMaxDeliveryCount = 3;
    TestBroker tb;
    EntityProperties p;
    p.maxDeliveryCount = kMaxDeliveryCount;
    HG_VERIFY_OK(tb->createQueue(kQueue, p));
    const auto sent = tb->send(kQueue, TestBroker::message(QStringLiteral("poison")));
    HG_VERIFY_OK(sent);

    // What each crashing receiver saw, and what the restarted broker had stored: the failure
    // message shows where the count went missing.
    QStringList history;
    for (int crash = 1; crash <= kMaxDeliveryCount; ++crash) {
        const Handoff handed = kCrashOnPoison.runThenRestart(tb, restart);
        if (QTest::currentTestFailed())
            return;
        const auto stored = tb->message(kQueue, sent->sequenceNumber);
        HG_VERIFY_OK(stored);
        history << QStringLiteral("receive %1 saw DeliveryCount %2, stored after the restart: %3")
                       .arg(crash)
                       .arg(handed.number(QStringLiteral("deliveryCount")))
                       .arg(stored->deliveryCount);
    }
    // L6: a fourth delivery would exceed MaxDeliveryCount, so it goes to the dead-letter queue.
    const auto fourth = tb->receive(kQueue, peekLock(QStringLiteral("r")));
    HG_VERIFY_OK(fourth);
    QVERIFY2(fourth->isEmpty(),
             qPrintable(QStringLiteral("after %1 receivers crashed on it, the poison message was "
                                       "handed out again with DeliveryCount %2:\n  %3")
                            .arg(kMaxDeliveryCount)
                            .arg(fourth->isEmpty() ? 0 : fourth->first().deliveryCount)
                            .arg(history.join(QStringLiteral("\n  ")))));
    const auto dead = tb->listMessages(kDeadLetters, 0, 10);
    HG_VERIFY_OK(dead);
    QCOMPARE(messageIds(*dead), QStringList{QStringLiteral("poison")});
    QCOMPARE(dead->first().deadLetterReason, QStringLiteral("MaxDeliveryCountExceeded"));
    QCOMPARE(dead->first().deliveryCount, quint32(kMaxDeliveryCount));
}

void TestEngineRestart::restart_D2_activitySurvivesCrash_data() {
    QTest::addColumn<QString>("operation");
    QTest::addColumn<QString>("path");
    // The entities whose last activity the operation moves (A2): an operation on a subscription
    // is activity on its topic too, a send to a topic is not activity on its subscriptions.
    QTest::addColumn<QStringList>("touched");
    QTest::addColumn<Restart>("restart");
    const QStringList queueOperations{QStringLiteral("send"),    QStringLiteral("receive (empty)"),
                                      QStringLiteral("receive"), QStringLiteral("peek"),
                                      QStringLiteral("renew"),   QStringLiteral("complete")};
    for (const RestartVariant& variant : kRestartVariants) {
        for (const QString& operation : queueOperations)
            QTest::addRow("queue %s/%s", qPrintable(operation), variant.tag)
                << operation << kQueue << QStringList{kQueue} << variant.restart;
        for (const QString& operation : queueOperations.mid(1))
            QTest::addRow("subscription %s/%s", qPrintable(operation), variant.tag)
                << operation << kSub << QStringList{kSub, kTopic} << variant.restart;
        QTest::addRow("topic send/%s", variant.tag)
            << QStringLiteral("send") << kTopic << QStringList{kTopic} << variant.restart;
    }
}

void TestEngineRestart::restart_D2_activitySurvivesCrash() {
    QFETCH(QString, operation);
    QFETCH(QString, path);
    QFETCH(QStringList, touched);
    QFETCH(Restart, restart);
    constexpr Millis kIdle = minutes(5); // the shortest AutoDeleteOnIdle (A1)
    TestBroker tb;
    EntityProperties p;
    p.autoDeleteOnIdle = kIdle;
    p.lockDuration = minutes(5); // a lock taken at the start still holds four minutes later
    HG_VERIFY_OK(tb->createQueue(kQueue, p));
    EntityProperties topicProperties;
    topicProperties.autoDeleteOnIdle = kIdle;
    HG_VERIFY_OK(tb->createTopic(kTopic, topicProperties));
    HG_VERIFY_OK(tb->createSubscription(kSub, p));
    addDeferredMessage(tb, kQueue, kQueue);
    addDeferredMessage(tb, kTopic, kSub);
    if (operation != QLatin1String("receive (empty)")) {
        HG_VERIFY_OK(tb->send(kQueue, TestBroker::message(QStringLiteral("m"))));
        HG_VERIFY_OK(tb->send(kTopic, TestBroker::message(QStringLiteral("m"))));
    }
    if (QTest::currentTestFailed())
        return;

    Handoff handoff;
    handoff.put(QStringLiteral("operation"), operation);
    handoff.put(QStringLiteral("path"), path);
    const Handoff handed = kActivity.runThenRestart(tb, restart, handoff);
    if (QTest::currentTestFailed())
        return;
    const Instant at = handed.number(QStringLiteral("at"));
    QCOMPARE(at, kTestStart + minutes(4));
    QCOMPARE(tb.clock().now(), at);
    for (const QString& entity : touched) {
        const auto info = tb->entity(entity);
        HG_VERIFY_OK(info);
        QVERIFY2(info->lastActivityAt == at,
                 qPrintable(QStringLiteral("%1's last activity after the restart is %2, not the "
                                           "%3 at %4")
                                .arg(entity, formatInstant(info->lastActivityAt), operation,
                                     formatInstant(at))));
        QCOMPARE(info->autoDeleteAt, at + kIdle);
    }
    // Past the instant a forgotten activity would have left it idle until, it is still there,
    // with its messages...
    tb.advance(minutes(4));
    for (const QString& entity : touched) {
        QVERIFY2(tb->entity(entity).ok(),
                 qPrintable(entity + " was deleted as idle although the " + operation + " at " +
                            formatInstant(at) + " was less than five minutes ago"));
        if (entity != kTopic) {
            const auto counts = tb->counts(entity);
            HG_VERIFY_OK(counts);
            QCOMPARE(counts->deferred, qint64(1));
        }
    }
    // ...and five idle minutes after the operation it goes.
    tb.advance(at + kIdle + 1 - tb.clock().now());
    for (const QString& entity : touched)
        HG_VERIFY_ERROR(tb->entity(entity), ErrorCode::MessagingEntityNotFound);
}
