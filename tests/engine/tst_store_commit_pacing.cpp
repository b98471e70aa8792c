// When a group commit's flusher gathers before taking the log (engine/store/CommitPacing.h):
// only while commits run back to back, slow and carrying many operations, for at most half the
// last commit's duration; and the gathering ends once a wave came in and stopped (L2's sharing of
// syncs, on a slow disk). D1 is untouched: gathering only delays when a commit starts.
#include "store/CommitPacing.h"

#include <QTest>

#include <chrono>

using namespace hourglass;
using namespace std::chrono_literals;
using Clock = CommitPacing::Clock;

class TestStoreCommitPacing : public QObject {
    Q_OBJECT

private slots:
    void noGatheringBeforeAnyCommit() {
        const CommitPacing pacing;
        QCOMPARE(pacing.window(Clock::now()), Clock::duration::zero());
    }

    void gathersHalfASlowBusyCommitRightAfterIt() {
        CommitPacing pacing;
        const auto start = Clock::now();
        pacing.committed(start, start + 4ms, 50);
        QCOMPARE(pacing.window(start + 4ms + 100us), Clock::duration(2ms));
    }

    void neverGathersLongerThanTheLongestWindow() {
        CommitPacing pacing;
        const auto start = Clock::now();
        pacing.committed(start, start + 40ms, 50);
        QCOMPARE(pacing.window(start + 40ms), CommitPacing::kLongestWindow);
    }

    void noGatheringAfterAFastCommit() {
        CommitPacing pacing;
        const auto start = Clock::now();
        pacing.committed(start, start + CommitPacing::kMinimumCommit - 1us, 100);
        QCOMPARE(pacing.window(start + CommitPacing::kMinimumCommit), Clock::duration::zero());
    }

    void noGatheringAfterACommitOfFewOperations() {
        // One client's round trips: its next operation is written at once.
        CommitPacing pacing;
        const auto start = Clock::now();
        pacing.committed(start, start + 4ms, CommitPacing::kManyOperations - 1);
        QCOMPARE(pacing.window(start + 4ms), Clock::duration::zero());
    }

    void noGatheringOnceTheLastCommitIsLongOver() {
        CommitPacing pacing;
        const auto start = Clock::now();
        pacing.committed(start, start + 4ms, 50);
        QCOMPARE(pacing.window(start + 8ms), Clock::duration::zero());
    }

    void gatheringEndsOnceAWaveCameAndStopped() {
        // Polls: the count before, one that grew, one that did not: then it returns, long
        // before the window (400 ms) is over.
        int polls = 0;
        const auto start = Clock::now();
        CommitPacing::gather(400ms, [&polls] {
            ++polls;
            return polls == 1 ? std::size_t(3) : std::size_t(40);
        });
        QCOMPARE(polls, 3);
        QVERIFY(Clock::now() - start >= 150ms); // two steps of 100 ms
    }

    void gatheringWaitsTheWholeWindowWhenNothingComes() {
        int polls = 0;
        const auto start = Clock::now();
        CommitPacing::gather(200ms, [&polls] {
            ++polls;
            return std::size_t(5);
        });
        QVERIFY(Clock::now() - start >= 200ms);
        QVERIFY(polls >= 3); // the count before, then one a step (fewer when a sleep overran)
    }

    void gatheringKeepsWaitingWhileAWaveComesIn() {
        int polls = 0;
        const auto start = Clock::now();
        CommitPacing::gather(400ms, [&polls] {
            ++polls;
            return std::size_t(polls); // one more each poll: never stops early
        });
        QVERIFY(Clock::now() - start >= 400ms);
        QVERIFY(polls >= 3);
    }

    void noWindowNoWait() {
        int polls = 0;
        CommitPacing::gather(Clock::duration::zero(), [&polls] {
            ++polls;
            return std::size_t(0);
        });
        QCOMPARE(polls, 0);
    }
};

QTEST_GUILESS_MAIN(TestStoreCommitPacing)
#include "tst_store_commit_pacing.moc"
