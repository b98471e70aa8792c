// Change notifications (ChangeFeed): coarse, coalesced batches with the right paths.
// Paths are namespace-qualified ("test:q", "test:q/$deadletterqueue"), as EntityPath.h states.

#include "EngineChecks.h"
#include "TestBroker.h"

#include <QCoreApplication>
#include <QSignalSpy>
#include <QTest>

using namespace hourglass;
using namespace hourglass::testing;

namespace {
const QString kQueue = QStringLiteral("q");
const QString kQualifiedQueue = QStringLiteral("test:q");
const QString kQualifiedDeadLetters = QStringLiteral("test:q/$deadletterqueue");

QString describe(const ChangeBatch& b) {
    const auto list = [](const QSet<QString>& set) {
        QStringList items(set.cbegin(), set.cend());
        items.sort();
        return items.join(u',');
    };
    return QStringLiteral("created[%1] updated[%2] deleted[%3] counts[%4] added[%5] removed[%6] "
                          "namespaces=%7")
        .arg(list(b.created), list(b.updated), list(b.deleted), list(b.countsChanged),
             list(b.messagesAdded), list(b.messagesRemoved))
        .arg(b.namespacesChanged);
}

ChangeBatch merged(const QSignalSpy& spy) {
    ChangeBatch all;
    for (const QList<QVariant>& arguments : spy)
        all.merge(arguments.at(0).value<ChangeBatch>());
    return all;
}
} // namespace

class TestEngineNotifications : public QObject {
    Q_OBJECT

private slots:
    void notifications_burstOfSendsCoalesces();
    void notifications_createdUpdatedDeletedMarks();
    void notifications_deletingTopicMarksItsSubscriptions();
    void notifications_namespacesMarked();
    void notifications_receiveAndSettleMarks();
    void notifications_deadLetterPathMarked();
    void notifications_topicSendMarksEachSubscription();
    void notifications_scheduledActivationMarksAdded();
    void notifications_autoDeleteMarksDeleted();
    void notifications_explorerReadsMarkNothing();
    void notifications_takePendingEmptiesTheBatch();
};

void TestEngineNotifications::notifications_burstOfSendsCoalesces() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createQueue(kQueue, {}));
    HG_VERIFY_OK(tb->createQueue(QStringLiteral("quiet"), {}));
    (void)tb->changes()->takePending();
    QSignalSpy spy(tb->changes(), &ChangeFeed::changed);
    QVERIFY(spy.isValid());

    constexpr int kSends = 10000;
    for (int i = 0; i < kSends; ++i) {
        const auto sent = tb->send(kQueue, TestBroker::message(QString::number(i)));
        if (!sent)
            QFAIL(qPrintable(sent.error().toString()));
    }
    QCOMPARE(spy.count(), 0); // delivered in the feed's thread, by its event loop
    QTRY_VERIFY(spy.count() >= 1);
    QCoreApplication::processEvents();
    QVERIFY2(spy.count() <= 3, qPrintable(QString::number(spy.count())));
    const ChangeBatch all = merged(spy);
    QVERIFY2(all.countsChanged == QSet<QString>{kQualifiedQueue}, qPrintable(describe(all)));
    QVERIFY2(all.messagesAdded == QSet<QString>{kQualifiedQueue}, qPrintable(describe(all)));
    QVERIFY2(all.created.isEmpty() && all.deleted.isEmpty() && all.updated.isEmpty(),
             qPrintable(describe(all)));
    QVERIFY(!all.namespacesChanged);
    const auto counts = tb->counts(kQueue);
    HG_VERIFY_OK(counts);
    QCOMPARE(counts->active, qint64(kSends));

    // The next change is a new batch, delivered again.
    spy.clear();
    const auto got = tb->receive(kQueue, receiveAndDelete(5));
    HG_VERIFY_OK(got);
    QTRY_COMPARE(spy.count(), 1);
    const ChangeBatch next = spy.first().at(0).value<ChangeBatch>();
    QVERIFY2(next.messagesRemoved.contains(kQualifiedQueue), qPrintable(describe(next)));
    QVERIFY2(next.messagesAdded.isEmpty(), qPrintable(describe(next)));
}

void TestEngineNotifications::notifications_createdUpdatedDeletedMarks() {
    TestBroker tb;
    (void)tb->changes()->takePending();
    HG_VERIFY_OK(tb->createQueue(kQueue, {}));
    ChangeBatch b = tb->changes()->takePending();
    QVERIFY2(b.created == QSet<QString>{kQualifiedQueue}, qPrintable(describe(b)));
    QVERIFY2(b.deleted.isEmpty() && b.updated.isEmpty(), qPrintable(describe(b)));

    EntityProperties p;
    p.maxDeliveryCount = 3;
    HG_VERIFY_OK(tb->updateEntity(kQueue, p));
    b = tb->changes()->takePending();
    QVERIFY2(b.updated == QSet<QString>{kQualifiedQueue}, qPrintable(describe(b)));
    QVERIFY2(b.created.isEmpty() && b.deleted.isEmpty(), qPrintable(describe(b)));

    HG_VERIFY_OK(tb->createTopic(QStringLiteral("t"), {}));
    HG_VERIFY_OK(tb->createSubscription(QStringLiteral("t/Subscriptions/s"), {}));
    b = tb->changes()->takePending();
    QVERIFY2(b.created.contains(QStringLiteral("test:t")), qPrintable(describe(b)));
    QVERIFY2(b.created.contains(QStringLiteral("test:t/Subscriptions/s")), qPrintable(describe(b)));

    Rule rule;
    rule.name = QStringLiteral("none");
    rule.filterType = FilterType::False;
    HG_VERIFY_OK(tb->addRule(QStringLiteral("t/Subscriptions/s"), rule));
    b = tb->changes()->takePending();
    QVERIFY2(b.updated.contains(QStringLiteral("test:t/Subscriptions/s")), qPrintable(describe(b)));
    HG_VERIFY_OK(tb->removeRule(QStringLiteral("t/Subscriptions/s"), QStringLiteral("none")));
    b = tb->changes()->takePending();
    QVERIFY2(b.updated.contains(QStringLiteral("test:t/Subscriptions/s")), qPrintable(describe(b)));

    HG_VERIFY_OK(tb->deleteEntity(kQueue));
    b = tb->changes()->takePending();
    QVERIFY2(b.deleted == QSet<QString>{kQualifiedQueue}, qPrintable(describe(b)));
}

void TestEngineNotifications::notifications_deletingTopicMarksItsSubscriptions() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createTopic(QStringLiteral("t"), {}));
    HG_VERIFY_OK(tb->createSubscription(QStringLiteral("t/Subscriptions/a"), {}));
    HG_VERIFY_OK(tb->createSubscription(QStringLiteral("t/Subscriptions/b"), {}));
    (void)tb->changes()->takePending();
    HG_VERIFY_OK(tb->deleteEntity(QStringLiteral("t")));
    const ChangeBatch b = tb->changes()->takePending();
    QVERIFY2((b.deleted == QSet<QString>{QStringLiteral("test:t"),
                                         QStringLiteral("test:t/Subscriptions/a"),
                                         QStringLiteral("test:t/Subscriptions/b")}),
             qPrintable(describe(b)));
}

void TestEngineNotifications::notifications_namespacesMarked() {
    TestBroker tb;
    (void)tb->changes()->takePending();
    HG_VERIFY_OK(tb->createNamespace({QStringLiteral("other"), Tier::Basic}));
    ChangeBatch b = tb->changes()->takePending();
    QVERIFY(b.namespacesChanged);
    HG_VERIFY_OK(
        tb->createQueue(QStringLiteral("other:jobs"), EntityProperties::defaults(Tier::Basic)));
    b = tb->changes()->takePending();
    QVERIFY2(b.created == QSet<QString>{QStringLiteral("other:jobs")}, qPrintable(describe(b)));
    HG_VERIFY_OK(tb->deleteNamespace(QStringLiteral("other")));
    b = tb->changes()->takePending();
    QVERIFY(b.namespacesChanged);
    QVERIFY2(b.deleted.contains(QStringLiteral("other:jobs")), qPrintable(describe(b)));
}

void TestEngineNotifications::notifications_receiveAndSettleMarks() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createQueue(kQueue, {}));
    HG_VERIFY_OK(tb->send(kQueue, TestBroker::message(QStringLiteral("m"))));
    (void)tb->changes()->takePending();
    const auto got = tb->receive(kQueue, peekLock(QStringLiteral("r")));
    HG_VERIFY_OK(got);
    ChangeBatch b = tb->changes()->takePending();
    // Locking changes the counts (active -> locked).
    QVERIFY2(b.countsChanged.contains(kQualifiedQueue), qPrintable(describe(b)));
    HG_VERIFY_OK(tb->complete(LockRef::of(got->first())));
    b = tb->changes()->takePending();
    QVERIFY2(b.countsChanged.contains(kQualifiedQueue), qPrintable(describe(b)));
    QVERIFY2(b.messagesRemoved.contains(kQualifiedQueue), qPrintable(describe(b)));
}

void TestEngineNotifications::notifications_deadLetterPathMarked() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createQueue(kQueue, {}));
    HG_VERIFY_OK(tb->send(kQueue, TestBroker::message(QStringLiteral("m"))));
    const auto got = tb->receive(kQueue, peekLock(QStringLiteral("r")));
    HG_VERIFY_OK(got);
    (void)tb->changes()->takePending();
    HG_VERIFY_OK(tb->deadLetter(LockRef::of(got->first())));
    const ChangeBatch b = tb->changes()->takePending();
    QVERIFY2(b.messagesAdded == QSet<QString>{kQualifiedDeadLetters}, qPrintable(describe(b)));
    QVERIFY2(b.messagesRemoved.contains(kQualifiedQueue), qPrintable(describe(b)));
    QVERIFY2(b.countsChanged.contains(kQualifiedQueue), qPrintable(describe(b)));
}

void TestEngineNotifications::notifications_topicSendMarksEachSubscription() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createTopic(QStringLiteral("t"), {}));
    HG_VERIFY_OK(tb->createSubscription(QStringLiteral("t/Subscriptions/a"), {}));
    Rule none;
    none.name = QStringLiteral("none");
    none.filterType = FilterType::False;
    HG_VERIFY_OK(tb->createSubscription(QStringLiteral("t/Subscriptions/b"), {}, {none}));
    HG_VERIFY_OK(tb->createSubscription(QStringLiteral("t/Subscriptions/c"), {}));
    (void)tb->changes()->takePending();
    HG_VERIFY_OK(tb->send(QStringLiteral("t"), TestBroker::message(QStringLiteral("m"))));
    const ChangeBatch b = tb->changes()->takePending();
    QVERIFY2(b.messagesAdded.contains(QStringLiteral("test:t/Subscriptions/a")),
             qPrintable(describe(b)));
    QVERIFY2(b.messagesAdded.contains(QStringLiteral("test:t/Subscriptions/c")),
             qPrintable(describe(b)));
    QVERIFY2(!b.messagesAdded.contains(QStringLiteral("test:t/Subscriptions/b")),
             qPrintable(describe(b)));
}

void TestEngineNotifications::notifications_scheduledActivationMarksAdded() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createQueue(kQueue, {}));
    HG_VERIFY_OK(
        tb->schedule(kQueue, TestBroker::message(QStringLiteral("s")), kTestStart + minutes(1)));
    ChangeBatch b = tb->changes()->takePending();
    QVERIFY2(b.countsChanged.contains(kQualifiedQueue), qPrintable(describe(b)));
    tb.advance(minutes(1));
    b = tb->changes()->takePending();
    QVERIFY2(b.countsChanged.contains(kQualifiedQueue), qPrintable(describe(b)));
    QVERIFY2(b.messagesAdded.contains(kQualifiedQueue) ||
                 b.messagesRemoved.contains(kQualifiedQueue),
             qPrintable(describe(b)));
}

void TestEngineNotifications::notifications_autoDeleteMarksDeleted() {
    TestBroker tb;
    EntityProperties p;
    p.autoDeleteOnIdle = minutes(5);
    HG_VERIFY_OK(tb->createQueue(kQueue, p));
    (void)tb->changes()->takePending();
    QSignalSpy spy(tb->changes(), &ChangeFeed::changed);
    tb.advance(minutes(5) + 1);
    QTRY_VERIFY(spy.count() >= 1);
    const ChangeBatch all = merged(spy);
    QVERIFY2(all.deleted == QSet<QString>{kQualifiedQueue}, qPrintable(describe(all)));
}

void TestEngineNotifications::notifications_explorerReadsMarkNothing() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createQueue(kQueue, {}));
    const auto sent = tb->send(kQueue, TestBroker::message(QStringLiteral("m")));
    HG_VERIFY_OK(sent);
    (void)tb->changes()->takePending();
    HG_VERIFY_OK(tb->listMessages(kQueue, 0, 10, Broker::Bodies::With));
    HG_VERIFY_OK(tb->message(kQueue, sent->sequenceNumber));
    HG_VERIFY_OK(tb->counts(kQueue));
    HG_VERIFY_OK(tb->entity(kQueue));
    HG_VERIFY_OK(tb->deadLetterReasons(kQueue));
    HG_VERIFY_OK(tb->peek(kQueue, 0, 10));
    QCOMPARE(tb->entities().size(), 1);
    const ChangeBatch b = tb->changes()->takePending();
    QVERIFY2(b.isEmpty(), qPrintable(describe(b)));
}

void TestEngineNotifications::notifications_takePendingEmptiesTheBatch() {
    TestBroker tb;
    QSignalSpy spy(tb->changes(), &ChangeFeed::changed);
    HG_VERIFY_OK(tb->createQueue(kQueue, {}));
    const ChangeBatch b = tb->changes()->takePending();
    QVERIFY(!b.isEmpty());
    QVERIFY(tb->changes()->takePending().isEmpty());
    // What was taken is not delivered again.
    QCoreApplication::processEvents();
    QCOMPARE(spy.count(), 0);
}

QTEST_GUILESS_MAIN(TestEngineNotifications)
#include "tst_engine_notifications.moc"
