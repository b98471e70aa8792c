// Time: the VirtualClock (pause, speed, advance), ISO-8601 durations and instants (Time.h,
// infinite = TimeSpan.MaxValue), and the Broker firing due events in time order, each at its
// own instant (Broker.h "Time").

#include "EngineChecks.h"
#include "TestBroker.h"

#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QTest>

using namespace hourglass;
using namespace hourglass::testing;

class TestEngineTime : public QObject {
    Q_OBJECT

private slots:
    void time_virtualClockStartsPausedAtItsInstant();
    void time_virtualClockAdvancesNeverBackwards();
    void time_virtualClockPauseStopsTime();
    void time_virtualClockSpeedBoundsElapsedTime();
    void time_virtualClockResetToRealTime();
    void time_parseIsoDuration_data();
    void time_parseIsoDuration();
    void time_parseIsoDurationRejects_data();
    void time_parseIsoDurationRejects();
    void time_formatIsoDuration_data();
    void time_formatIsoDuration();
    void time_isoDurationRoundTrips_data();
    void time_isoDurationRoundTrips();
    void time_instantsFormatAndParse();
    void time_addSaturatingStaysNever();
    void time_advanceFiresScheduledInTimeOrder();
    void time_T6_lockExpiryExpiresMessageBeforeLaterEvent();
    void time_L6_eachLockExpiryAtItsOwnInstant();
    void time_runDueFiresWhatFellDue();
    void time_everyOperationFiresDueEventsFirst();
    void time_nextDueAt();
    void time_advanceClockNeedsVirtualClock();
};

void TestEngineTime::time_virtualClockStartsPausedAtItsInstant() {
    VirtualClock clock(kTestStart);
    QVERIFY(clock.isPaused());
    QCOMPARE(clock.now(), kTestStart);
    QCOMPARE(clock.now(), kTestStart);
    QCOMPARE(clock.speed(), 1.0);
    QVERIFY(!clock.isRealTime());
}

void TestEngineTime::time_virtualClockAdvancesNeverBackwards() {
    VirtualClock clock(kTestStart);
    clock.advance(1500);
    QCOMPARE(clock.now(), kTestStart + 1500);
    clock.advance(0);
    clock.advance(-10);
    QCOMPARE(clock.now(), kTestStart + 1500);
    clock.advanceTo(kTestStart);
    QCOMPARE(clock.now(), kTestStart + 1500);
    clock.advanceTo(kTestStart + days(3));
    QCOMPARE(clock.now(), kTestStart + days(3));
    QVERIFY(clock.isPaused());
}

void TestEngineTime::time_virtualClockPauseStopsTime() {
    VirtualClock clock(kTestStart);
    clock.setSpeed(1000);
    clock.play();
    QVERIFY(!clock.isPaused());
    Instant previous = clock.now();
    for (int i = 0; i < 1000; ++i) {
        const Instant now = clock.now();
        QVERIFY(now >= previous);
        previous = now;
    }
    clock.pause();
    QVERIFY(clock.isPaused());
    const Instant frozen = clock.now();
    QVERIFY(frozen >= previous);
    for (int i = 0; i < 1000; ++i)
        QCOMPARE(clock.now(), frozen);
    // Advancing while paused still moves it, by exactly the amount.
    clock.advance(seconds(5));
    QCOMPARE(clock.now(), frozen + seconds(5));
}

void TestEngineTime::time_virtualClockSpeedBoundsElapsedTime() {
    VirtualClock clock(kTestStart);
    clock.setSpeed(1000);
    QCOMPARE(clock.speed(), 1000.0);
    QElapsedTimer real;
    real.start();
    clock.play();
    const Instant first = clock.now();
    for (int i = 0; i < 10000; ++i)
        (void)clock.now();
    const Instant last = clock.now();
    const qint64 realNs = real.nsecsElapsed();
    clock.pause();
    QVERIFY(first >= kTestStart);
    QVERIFY(last >= first);
    // Virtual time never runs faster than speed x the real time that passed.
    const double bound = 1000.0 * double(realNs) / 1e6 + 1.0;
    QVERIFY2(double(last - kTestStart) <= bound,
             qPrintable(
                 QStringLiteral("%1 virtual ms in %2 real ns").arg(last - kTestStart).arg(realNs)));
}

void TestEngineTime::time_virtualClockResetToRealTime() {
    VirtualClock clock(kTestStart);
    clock.setSpeed(60);
    clock.resetToRealTime();
    QVERIFY(clock.isRealTime());
    QVERIFY(!clock.isPaused());
    QCOMPARE(clock.speed(), 1.0);
    QVERIFY(qAbs(clock.now() - VirtualClock::realNow()) < seconds(1));
    clock.setSpeed(2);
    QVERIFY(!clock.isRealTime());
    clock.resetToRealTime();
    clock.pause();
    QVERIFY(!clock.isRealTime());
    clock.resetToRealTime();
    clock.advance(1);
    QVERIFY(!clock.isRealTime());
}

void TestEngineTime::time_parseIsoDuration_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<qint64>("expected");
    QTest::newRow("PT10M") << "PT10M" << minutes(10);
    QTest::newRow("P14D") << "P14D" << days(14);
    QTest::newRow("PT0.5S") << "PT0.5S" << qint64(500);
    QTest::newRow("PT0,5S") << "PT0,5S" << qint64(500);
    QTest::newRow("PT0.25S") << "PT0.25S" << qint64(250);
    QTest::newRow("P1DT2H30M") << "P1DT2H30M" << days(1) + hours(2) + minutes(30);
    QTest::newRow("PT1H1M1.001S") << "PT1H1M1.001S" << hours(1) + minutes(1) + 1001;
    QTest::newRow("PT0S") << "PT0S" << qint64(0);
    QTest::newRow("P1W") << "P1W" << days(7);
    QTest::newRow("P1Y is 365 days") << "P1Y" << days(365);
    QTest::newRow("P1M is 30 days") << "P1M" << days(30);
    QTest::newRow("PT1M is a minute") << "PT1M" << minutes(1);
    QTest::newRow("lower case") << "pt10m" << minutes(10);
    QTest::newRow("PT90S") << "PT90S" << seconds(90);
    QTest::newRow("PT36H") << "PT36H" << hours(36);
    QTest::newRow("infinite") << kInfiniteIso << kInfinite;
    QTest::newRow("above infinite") << "P99999999D" << kInfinite;
}

void TestEngineTime::time_parseIsoDuration() {
    QFETCH(QString, text);
    QFETCH(qint64, expected);
    QString why;
    const auto parsed = parseIsoDuration(text, &why);
    QVERIFY2(parsed.has_value(), qPrintable(why));
    QCOMPARE(*parsed, expected);
}

void TestEngineTime::time_parseIsoDurationRejects_data() {
    QTest::addColumn<QString>("text");
    for (const char* text : {"", "10M", "P", "PT", "-PT1M", "P-1D", "PT1X", "P1H", "PT1D", "PT1M1M",
                             "P1DT", "PTM", "abc", "T10M", "P1D2H"})
        QTest::newRow(*text ? text : "empty") << text;
}

void TestEngineTime::time_parseIsoDurationRejects() {
    QFETCH(QString, text);
    QString why;
    const auto parsed = parseIsoDuration(text, &why);
    QVERIFY2(!parsed.has_value(), qPrintable(QString::number(parsed.value_or(0))));
    QVERIFY(!why.isEmpty());
}

void TestEngineTime::time_formatIsoDuration_data() {
    QTest::addColumn<qint64>("duration");
    QTest::addColumn<QString>("expected");
    QTest::newRow("10 minutes") << minutes(10) << "PT10M";
    QTest::newRow("14 days") << days(14) << "P14D";
    QTest::newRow("half a second") << qint64(500) << "PT0.5S";
    QTest::newRow("quarter second") << qint64(250) << "PT0.25S";
    QTest::newRow("mixed") << days(1) + hours(2) + minutes(30) << "P1DT2H30M";
    QTest::newRow("milliseconds") << hours(1) + minutes(1) + 1001 << "PT1H1M1.001S";
    QTest::newRow("zero") << qint64(0) << "PT0S";
    QTest::newRow("infinite") << kInfinite << "P10675199DT2H48M5.4775807S";
}

void TestEngineTime::time_formatIsoDuration() {
    QFETCH(qint64, duration);
    QFETCH(QString, expected);
    QCOMPARE(formatIsoDuration(duration), expected);
}

void TestEngineTime::time_isoDurationRoundTrips_data() {
    QTest::addColumn<qint64>("duration");
    for (const qint64 d : {qint64(1), qint64(999), seconds(5), minutes(5) - 1, hours(25),
                           days(7) + 1, days(10675199), kInfinite})
        QTest::addRow("%lld", static_cast<long long>(d)) << d;
}

void TestEngineTime::time_isoDurationRoundTrips() {
    QFETCH(qint64, duration);
    const QString text = formatIsoDuration(duration);
    const auto parsed = parseIsoDuration(text);
    QVERIFY2(parsed.has_value(), qPrintable(text));
    QCOMPARE(*parsed, duration);
}

void TestEngineTime::time_instantsFormatAndParse() {
    QCOMPARE(formatInstant(kTestStart), QStringLiteral("2026-01-01T00:00:00.000Z"));
    QCOMPARE(formatInstant(kTestStart + 250), QStringLiteral("2026-01-01T00:00:00.250Z"));
    QCOMPARE(formatInstant(kNever), QStringLiteral("Never"));
    QCOMPARE(parseInstant(QStringLiteral("2026-01-01T00:00:00.000Z")), kTestStart);
    QCOMPARE(parseInstant(QStringLiteral("2026-01-01T00:00:00Z")), kTestStart);
    QCOMPARE(parseInstant(QStringLiteral("2026-01-01T01:00:00+01:00")), kTestStart);
    QCOMPARE(parseInstant(QStringLiteral("Never")), kNever);
    QVERIFY(!parseInstant(QStringLiteral("yesterday")).has_value());
    for (const Instant i : {kTestStart, kTestStart + 1, kTestStart + days(400) + 123})
        QCOMPARE(parseInstant(formatInstant(i)), i);
}

void TestEngineTime::time_addSaturatingStaysNever() {
    QCOMPARE(addSaturating(1, 2), Instant(3));
    QCOMPARE(addSaturating(kNever, 5), kNever);
    QCOMPARE(addSaturating(kTestStart, kInfinite), kNever);
    QCOMPARE(addSaturating(kNever - 1, 5), kNever);
    QCOMPARE(addSaturating(kTestStart, days(14)), kTestStart + days(14));
}

void TestEngineTime::time_advanceFiresScheduledInTimeOrder() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createQueue(QStringLiteral("q"), {}));
    // Scheduled out of order; one advance past all three.
    for (const auto& [id, offset] : {std::pair{"at20", seconds(20)}, std::pair{"at10", seconds(10)},
                                     std::pair{"at30", seconds(30)}})
        HG_VERIFY_OK(tb->schedule(QStringLiteral("q"), TestBroker::message(QLatin1String(id)),
                                  kTestStart + offset));
    tb.advance(minutes(1));
    const auto listed = tb->listMessages(QStringLiteral("q"), 0, 10);
    HG_VERIFY_OK(listed);
    QCOMPARE(messageIds(*listed),
             (QStringList{QStringLiteral("at10"), QStringLiteral("at20"), QStringLiteral("at30")}));
    QCOMPARE(listed->at(0).enqueuedTime, kTestStart + seconds(10));
    QCOMPARE(listed->at(1).enqueuedTime, kTestStart + seconds(20));
    QCOMPARE(listed->at(2).enqueuedTime, kTestStart + seconds(30));
    for (const MessageView& m : *listed)
        QCOMPARE(m.state, MessageState::Active);
}

void TestEngineTime::time_T6_lockExpiryExpiresMessageBeforeLaterEvent() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createQueue(QStringLiteral("sink"), {}));
    EntityProperties work;
    work.lockDuration = seconds(30);
    work.deadLetteringOnMessageExpiration = true;
    work.forwardDeadLetteredMessagesTo = QStringLiteral("sink");
    HG_VERIFY_OK(tb->createQueue(QStringLiteral("work"), work));
    HG_VERIFY_OK(
        tb->send(QStringLiteral("work"), messageWithTtl(QStringLiteral("expiring"), seconds(10))));
    const auto got = tb->receive(QStringLiteral("work"), peekLock(QStringLiteral("r")));
    HG_VERIFY_OK(got);
    QCOMPARE(got->size(), 1);
    HG_VERIFY_OK(tb->schedule(QStringLiteral("sink"), TestBroker::message(QStringLiteral("later")),
                              kTestStart + seconds(35)));

    // One step over both: the lock runs out at +30 s, the message (expired since +10 s, held by
    // its lock) expires at once and is forwarded; the scheduled message appears at +35 s. (The
    // forwarded copy keeps its own 10 s TTL in "sink", so the step ends before +40 s.)
    tb.advance(seconds(38));
    const auto sink = tb->listMessages(QStringLiteral("sink"), 0, 10);
    HG_VERIFY_OK(sink);
    QStringList seen;
    for (const MessageView& m : *sink)
        seen << describe(m);
    const auto workMain = tb->listMessages(QStringLiteral("work"), 0, 10);
    const auto workDead = tb->listMessages(QStringLiteral("work/$deadletterqueue"), 0, 10);
    HG_VERIFY_OK(workMain);
    HG_VERIFY_OK(workDead);
    for (const MessageView& m : workMain.value() + workDead.value())
        seen << QStringLiteral("in work: ") + describe(m);
    QVERIFY2(messageIds(*sink) ==
                 (QStringList{QStringLiteral("expiring"), QStringLiteral("later")}),
             qPrintable(seen.join(u'\n')));
    QCOMPARE(sink->at(0).deadLetterSource, QStringLiteral("work"));
    QCOMPARE(sink->at(0).applicationProperties.value(QStringLiteral("DeadLetterReason")).toString(),
             QStringLiteral("TTLExpiredException"));
    QCOMPARE(sink->at(0).enqueuedTime, kTestStart + seconds(30));
    QCOMPARE(sink->at(1).enqueuedTime, kTestStart + seconds(35));
    QVERIFY(sink->at(0).sequenceNumber < sink->at(1).sequenceNumber);
}

void TestEngineTime::time_L6_eachLockExpiryAtItsOwnInstant() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createQueue(QStringLiteral("sink"), {}));
    EntityProperties work;
    work.lockDuration = seconds(10);
    work.maxDeliveryCount = 1;
    work.forwardDeadLetteredMessagesTo = QStringLiteral("sink");
    HG_VERIFY_OK(tb->createQueue(QStringLiteral("work"), work));
    HG_VERIFY_OK(tb->send(QStringLiteral("work"), TestBroker::message(QStringLiteral("second"))));
    HG_VERIFY_OK(tb->send(QStringLiteral("work"), TestBroker::message(QStringLiteral("first"))));
    // "second" is locked first but renewed, so its lock runs out after the other's.
    const auto a = tb->receive(QStringLiteral("work"), peekLock(QStringLiteral("r")));
    HG_VERIFY_OK(a);
    tb.advance(seconds(5));
    const auto b = tb->receive(QStringLiteral("work"), peekLock(QStringLiteral("r")));
    HG_VERIFY_OK(b);
    QCOMPARE(a->size(), 1);
    QCOMPARE(b->size(), 1);
    tb.advance(seconds(4));
    HG_VERIFY_OK(tb->renewLock(LockRef::of(a->first()))); // now until +19 s; "first" until +15 s
    tb.advance(minutes(1));
    const auto sink = tb->listMessages(QStringLiteral("sink"), 0, 10);
    HG_VERIFY_OK(sink);
    QCOMPARE(messageIds(*sink), (QStringList{QStringLiteral("first"), QStringLiteral("second")}));
    QCOMPARE(sink->at(0).enqueuedTime, kTestStart + seconds(15));
    QCOMPARE(sink->at(1).enqueuedTime, kTestStart + seconds(19));
    QCOMPARE(sink->at(0).applicationProperties.value(QStringLiteral("DeadLetterReason")).toString(),
             QStringLiteral("MaxDeliveryCountExceeded"));
}

void TestEngineTime::time_runDueFiresWhatFellDue() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createQueue(QStringLiteral("q"), {}));
    HG_VERIFY_OK(tb->schedule(QStringLiteral("q"), TestBroker::message(QStringLiteral("s")),
                              kTestStart + minutes(1)));
    QCOMPARE(tb->runDue(), 0);
    // Moving the clock itself fires nothing; runDue() does.
    tb.clock().advance(minutes(2));
    QVERIFY(tb->runDue() >= 1);
    QCOMPARE(tb->runDue(), 0);
    const auto listed = tb->listMessages(QStringLiteral("q"), 0, 10);
    HG_VERIFY_OK(listed);
    QCOMPARE(listed->size(), 1);
    QCOMPARE(listed->first().state, MessageState::Active);
    QCOMPARE(listed->first().enqueuedTime, kTestStart + minutes(1));
}

void TestEngineTime::time_everyOperationFiresDueEventsFirst() {
    TestBroker tb;
    EntityProperties p;
    p.lockDuration = seconds(10);
    HG_VERIFY_OK(tb->createQueue(QStringLiteral("q"), p));
    HG_VERIFY_OK(tb->schedule(QStringLiteral("q"), TestBroker::message(QStringLiteral("s")),
                              kTestStart + minutes(1)));
    tb.clock().advance(minutes(1));
    // No runDue(): the receive itself sees the message that became active.
    const auto got = tb->receive(QStringLiteral("q"), peekLock(QStringLiteral("r")));
    HG_VERIFY_OK(got);
    QCOMPARE(messageIds(*got), QStringList{QStringLiteral("s")});
    tb.clock().advance(seconds(11));
    // Nor here: the lock ran out before this receive.
    const auto again = tb->receive(QStringLiteral("q"), peekLock(QStringLiteral("r2")));
    HG_VERIFY_OK(again);
    QCOMPARE(messageIds(*again), QStringList{QStringLiteral("s")});
    QCOMPARE(again->first().deliveryCount, quint32(2));
}

void TestEngineTime::time_nextDueAt() {
    TestBroker tb;
    HG_VERIFY_OK(tb->createQueue(QStringLiteral("q"), {}));
    QCOMPARE(tb->nextDueAt(), kNever);
    HG_VERIFY_OK(tb->schedule(QStringLiteral("q"), TestBroker::message(QStringLiteral("s")),
                              kTestStart + seconds(10)));
    QCOMPARE(tb->nextDueAt(), kTestStart + seconds(10));
    tb.advance(seconds(10));
    QCOMPARE(tb->nextDueAt(), kNever);
}

void TestEngineTime::time_advanceClockNeedsVirtualClock() {
    QTemporaryDir dir;
    BrokerOptions options;
    options.databasePath = dir.filePath(QStringLiteral("system.db"));
    auto opened = Broker::open(options);
    HG_VERIFY_OK(opened);
    Broker& broker = **opened;
    QVERIFY(dynamic_cast<SystemClock*>(&broker.clock()) != nullptr);
    HG_VERIFY_ERROR(broker.advanceClock(seconds(1)), ErrorCode::InvalidArgument);
}

QTEST_GUILESS_MAIN(TestEngineTime)
#include "tst_engine_time.moc"
