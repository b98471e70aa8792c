// The timer queue's compaction policy (TimerQueue.h): stale events are dropped only once the heap
// has grown past twice its size when it last held only live events, never below 4096 events; what
// is left is still popped earliest first.
#include "TimerQueue.h"

#include <QTest>

using namespace hourglass;

namespace {
// An event due at the instant `n`, naming the message `n`.
TimerEvent eventAt(qint64 n) {
    return {n, n, 1, TimerKind::Expire, 0};
}
} // namespace

class TestEngineTimerQueue : public QObject {
    Q_OBJECT

private slots:
    void smallHeapIsNeverCompacted() {
        TimerQueue queue;
        for (qint64 n = 1; n <= 4096; ++n)
            queue.push(eventAt(n));
        int asked = 0;
        QVERIFY(!queue.compactIfGrown([&](const TimerEvent&) {
            ++asked;
            return false;
        }));
        QCOMPARE(queue.size(), std::size_t(4096));
        QCOMPARE(asked, 0);
    }

    void grownHeapKeepsOnlyLiveEventsInOrder() {
        TimerQueue queue;
        for (qint64 n = 4097; n >= 1; --n)
            queue.push(eventAt(n));
        const auto even = [](const TimerEvent& e) { return e.seq % 2 == 0; };
        QVERIFY(queue.compactIfGrown(even));
        QCOMPARE(queue.size(), std::size_t(2048));
        qint64 previous = 0;
        while (!queue.empty()) {
            const TimerEvent event = queue.pop();
            QCOMPARE(event.seq % 2, qint64(0));
            QVERIFY(event.due > previous);
            previous = event.due;
        }
        QCOMPARE(previous, qint64(4096));
    }

    void nextCompactionWaitsUntilTheLiveHeapDoubled() {
        TimerQueue queue;
        for (qint64 n = 1; n <= 6000; ++n)
            queue.push(eventAt(n));
        queue.markAllLive(); // as after loading a database: the mark is 12000
        const auto all = [](const TimerEvent&) { return true; };
        for (qint64 n = 6001; n <= 12000; ++n)
            queue.push(eventAt(n));
        QVERIFY(!queue.compactIfGrown(all));
        queue.push(eventAt(12001));
        QVERIFY(queue.compactIfGrown(all));
        QCOMPARE(queue.size(), std::size_t(12001));
        // Compacted with every event live: the next mark is twice that.
        for (qint64 n = 12002; n <= 24002; ++n)
            queue.push(eventAt(n));
        QVERIFY(!queue.compactIfGrown(all));
        queue.push(eventAt(24003));
        QVERIFY(queue.compactIfGrown(all));
    }

    void clearForgetsTheMark() {
        TimerQueue queue;
        for (qint64 n = 1; n <= 6000; ++n)
            queue.push(eventAt(n));
        queue.markAllLive();
        queue.clear();
        for (qint64 n = 1; n <= 4097; ++n)
            queue.push(eventAt(n));
        QVERIFY(queue.compactIfGrown([](const TimerEvent&) { return true; }));
    }
};

QTEST_GUILESS_MAIN(TestEngineTimerQueue)
#include "tst_engine_timer_queue.moc"
