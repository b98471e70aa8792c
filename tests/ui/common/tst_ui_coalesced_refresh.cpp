// CoalescedRefresh: one refresh at a time, the ones asked for meanwhile coalesced into one more,
// and reset() forgetting both.

#include "common/CoalescedRefresh.h"

#include <QTest>

using hourglass::ui::CoalescedRefresh;

class TestUiCoalescedRefresh : public QObject {
    Q_OBJECT
private slots:
    void askedWhileRunningIsQueuedOnce();
    void resetForgetsRunningAndQueued();
};

void TestUiCoalescedRefresh::askedWhileRunningIsQueuedOnce() {
    CoalescedRefresh refresh;
    QVERIFY(refresh.start());  // idle: this one runs
    QVERIFY(!refresh.start()); // running: queued
    QVERIFY(!refresh.start()); // queued once, however often asked
    refresh.finish();
    QVERIFY(refresh.takeQueued());
    QVERIFY(!refresh.takeQueued());
    QVERIFY(refresh.start()); // the queued one runs
    refresh.finish();
    QVERIFY(!refresh.takeQueued()); // nothing was asked meanwhile
}

void TestUiCoalescedRefresh::resetForgetsRunningAndQueued() {
    CoalescedRefresh refresh;
    QVERIFY(refresh.start());
    QVERIFY(!refresh.start());
    refresh.reset();
    QVERIFY(!refresh.takeQueued());
    QVERIFY(refresh.start());
}

QTEST_GUILESS_MAIN(TestUiCoalescedRefresh)
#include "tst_ui_coalesced_refresh.moc"
