// The Lock panel over a real broker on a virtual clock (L3-L10, T6): receive in peek-lock and
// receive-and-delete mode, lock countdowns on the engine clock, every settlement, lost locks,
// several receivers, auto-renew, shortcuts (bulk settlement: tst_ui_lock_bulk.cpp).

#include "LockPanelFixture.h"
#include "LocksTestEnv.h"
#include "common/DurationText.h"
#include "common/PropertyTableEditor.h"
#include "messages/MessageViewModel.h"
#include "settle/HeldLocks.h"
#include "settle/LockAutoRenewer.h"
#include "settle/LockPanel.h"
#include "settle/SettleDialog.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTableView>
#include <QTest>

using namespace hourglass;
using namespace hourglass::ui;
using Kind = LockPanel::NodeKind;
using Fixture = testing::LockPanelFixture;

class LockTest : public QObject {
    Q_OBJECT
private slots:
    void receivePeekLockWithCountdowns();
    void completeAbandonDeadLetter();
    void deferThenReceiveDeferred();
    void renewExtendsTheLock();
    void lostLockShowsAndRefusesInline();
    void deletedEntityLosesItsLocks();
    void twoReceiversSettleTheirOwn();
    void autoRenewKeepsTheLockForTheChosenDuration();
    void settleDialogKeepsItsLockAlive();
    void settleDialogSaysCalmlyWhenTheLockIsLost();
    void settleDialogSettlesOnlyTheLocksStillHeld();
    void receiveAndDeleteRemoves();
    void keyboardShortcuts();
    void deadLetterQueueAndEntitySwitch();
};

void LockTest::receivePeekLockWithCountdowns() {
    testing::LocksTestEnv env(seconds(30));
    for (int i = 0; i < 4; ++i)
        env.send(QStringLiteral("m%1").arg(i));
    Fixture f(env);
    f.receive(3, QStringLiteral("alice"));
    QCOMPARE(env.counts().locked, 3);
    for (qint64 seq : {1, 2, 3}) {
        QCOMPARE(f.cell(seq, MessageListModel::LockHolderColumn), QStringLiteral("alice"));
        QCOMPARE(f.lockCountdown(seq).kind, Countdown::Kind::Running);
        QCOMPARE(f.lockCountdown(seq).remaining, seconds(30));
    }
    QVERIFY(f.status().contains(QStringLiteral("alice locked #1, #2, #3")));
    env.clock->advance(seconds(12));
    QTRY_COMPARE(f.lockCountdown(1).remaining, seconds(18));
    QCOMPARE(f.cell(1, MessageListModel::LockColumn), QStringLiteral("18s"));
    // The name stays in the receiver box.
    QVERIFY(f.find<QComboBox>("lockReceiver")->findText(QStringLiteral("alice")) >= 0);
}

void LockTest::completeAbandonDeadLetter() {
    testing::LocksTestEnv env;
    for (int i = 0; i < 3; ++i)
        env.send(QStringLiteral("m%1").arg(i));
    Fixture f(env);
    f.receive(3, QStringLiteral("alice"));

    f.select({1});
    f.trigger("lockComplete");
    QTRY_VERIFY(!f.locks().contains(1));
    QCOMPARE(env.message(1).error().code, ErrorCode::MessageNotFound);

    f.select({2});
    f.trigger("lockAbandon");
    SettleDialog* abandon = f.dialog();
    abandon->findChild<PropertyTableEditor*>(QStringLiteral("settleProperties"))
        ->addRow(QStringLiteral("attempt"), PropertyType::Int32, QStringLiteral("2"));
    f.accept(abandon);
    QTRY_VERIFY(!f.locks().contains(2));
    const auto abandoned = env.message(2);
    QVERIFY(abandoned.ok());
    QCOMPARE(abandoned->applicationProperties.value(QStringLiteral("attempt")).toInt(), 2);
    QVERIFY(!abandoned->locked);
    QCOMPARE(abandoned->deliveryCount, 1u);

    f.select({3});
    f.trigger("lockDeadLetter");
    SettleDialog* deadLetter = f.dialog();
    deadLetter->findChild<QLineEdit*>(QStringLiteral("deadLetterReason"))
        ->setText(QStringLiteral("Poison"));
    deadLetter->findChild<QPlainTextEdit*>(QStringLiteral("deadLetterDescription"))
        ->setPlainText(QStringLiteral("cannot parse the body"));
    f.accept(deadLetter);
    QTRY_VERIFY(!f.locks().contains(3));
    const auto dead = env.message(3, QStringLiteral("q/$deadletterqueue"));
    QVERIFY(dead.ok());
    QCOMPARE(dead->deadLetterReason, QStringLiteral("Poison"));
    QCOMPARE(dead->deadLetterErrorDescription, QStringLiteral("cannot parse the body"));
    QVERIFY(f.errors.isEmpty());
}

void LockTest::deferThenReceiveDeferred() {
    testing::LocksTestEnv env;
    env.send(QStringLiteral("later"));
    Fixture f(env);
    f.receive(1, QStringLiteral("alice"));
    f.select({1});
    f.trigger("lockDefer");
    f.accept(f.dialog());
    QTRY_VERIFY(!f.locks().contains(1));
    QCOMPARE(env.message(1)->state, MessageState::Deferred);
    // The deferred number is offered for receiving it back.
    QCOMPARE(f.find<QSpinBox>("deferredSeq")->value(), 1);
    f.trigger("receiveDeferred");
    QTRY_VERIFY(f.locks().contains(1));
    QCOMPARE(f.locks().status(1), HeldLocks::Status::Held);
    QVERIFY(env.message(1)->locked);
    QCOMPARE(env.message(1)->lockHolder, QStringLiteral("alice"));
}

void LockTest::renewExtendsTheLock() {
    testing::LocksTestEnv env(seconds(30));
    env.send(QStringLiteral("slow"));
    Fixture f(env);
    f.receive(1, QStringLiteral("alice"));
    const Instant first = f.locks().lockedUntil(1);
    env.clock->advance(seconds(20));
    f.select({1});
    f.trigger("lockRenew");
    QTRY_COMPARE(f.locks().lockedUntil(1), env.now() + seconds(30));
    QVERIFY(f.locks().lockedUntil(1) > first);
    QCOMPARE(env.message(1)->lockedUntil, f.locks().lockedUntil(1));
    QCOMPARE(f.lockCountdown(1).remaining, seconds(30));
}

void LockTest::lostLockShowsAndRefusesInline() {
    testing::LocksTestEnv env(seconds(30));
    env.send(QStringLiteral("late"));
    Fixture f(env);
    f.receive(1, QStringLiteral("alice"));
    env.clock->advance(seconds(31));
    QTRY_COMPARE(f.cell(1, MessageListModel::StateColumn), QStringLiteral("Lock lost"));
    QCOMPARE(f.cell(1, MessageListModel::LockColumn), QStringLiteral("Lock lost"));
    QCOMPARE(f.lockCountdown(1).kind, Countdown::Kind::Expired);
    f.select({1});
    f.trigger("lockComplete");
    QTRY_VERIFY(f.status().contains(QStringLiteral("MessageLockLost")));
    QCOMPARE(f.errors.size(), 1);
    QCOMPARE(f.errors.first().code, ErrorCode::MessageLockLost);
    // Still listed, greyed, until cleared; the message is back in the queue.
    QVERIFY(f.locks().contains(1));
    QVERIFY(f.locks().index(0, 0).data(Qt::ForegroundRole).isValid());
    QVERIFY(env.message(1).ok());
    f.trigger("lockClear");
    QCOMPARE(f.locks().rowCount(), 0);
}

void LockTest::deletedEntityLosesItsLocks() {
    testing::LocksTestEnv env;
    env.send(QStringLiteral("doomed"));
    Fixture f(env);
    f.receive(1, QStringLiteral("alice"));
    QVERIFY(env.call([](Broker& b) { return b.deleteEntity(QStringLiteral("q")); }).ok());
    QTRY_COMPARE(f.locks().status(1), HeldLocks::Status::Lost);
    QCOMPARE(f.cell(1, MessageListModel::StateColumn), QStringLiteral("Lock lost"));
}

void LockTest::twoReceiversSettleTheirOwn() {
    testing::LocksTestEnv env;
    env.send(QStringLiteral("a"));
    env.send(QStringLiteral("b"));
    env.send(QStringLiteral("c"));
    Fixture f(env);
    f.receive(1, QStringLiteral("alice"));
    f.receive(2, QStringLiteral("bob"));
    auto* receiver = f.find<QComboBox>("lockReceiver");
    QVERIFY(receiver->findText(QStringLiteral("alice")) >= 0);
    QVERIFY(receiver->findText(QStringLiteral("bob")) >= 0);
    QCOMPARE(f.cell(1, MessageListModel::LockHolderColumn), QStringLiteral("alice"));
    QCOMPARE(f.cell(2, MessageListModel::LockHolderColumn), QStringLiteral("bob"));
    QCOMPARE(env.message(2)->lockHolder, QStringLiteral("bob"));
    // Whatever the box says now, each lock settles as its own receiver.
    receiver->setEditText(QStringLiteral("carol"));
    f.select({1});
    f.trigger("lockComplete");
    QTRY_VERIFY(!f.locks().contains(1));
    f.select({2});
    f.trigger("lockAbandon");
    f.accept(f.dialog());
    QTRY_VERIFY(!f.locks().contains(2));
    QVERIFY(!env.message(2)->locked);
    QVERIFY(f.errors.isEmpty());
}

void LockTest::autoRenewKeepsTheLockForTheChosenDuration() {
    testing::LocksTestEnv env(seconds(30));
    env.send(QStringLiteral("long job"));
    Fixture f(env);
    f.receive(1, QStringLiteral("alice"));
    const QUuid token = env.message(1)->lockToken;
    f.find<QLineEdit>("lockAutoRenewFor")->setText(QStringLiteral("2")); // minutes
    auto* autoRenew = f.find<QCheckBox>("lockAutoRenew");
    autoRenew->setChecked(true);
    const Instant until = f.panel.autoRenewer()->until();
    QCOMPARE(until, env.now() + minutes(2));
    // Small steps well past the 30 s lock: a third of it left triggers a renew each time.
    while (env.now() + seconds(5) < until) {
        env.clock->advance(seconds(5));
        QTRY_VERIFY(f.locks().lockedUntil(1) - env.now() >= seconds(10));
    }
    QCOMPARE(f.locks().status(1), HeldLocks::Status::Held);
    const auto held = env.message(1);
    QVERIFY(held->locked);
    QCOMPARE(held->lockHolder, QStringLiteral("alice"));
    QVERIFY(env.now() - testing::kTestStart > seconds(100));
    // Past the chosen duration auto-renew switches itself off and the lock runs out.
    env.clock->advanceTo(until);
    QTRY_VERIFY(!autoRenew->isChecked());
    QVERIFY(!f.panel.autoRenewer()->isActive());
    env.clock->advance(seconds(31));
    QTRY_COMPARE(f.locks().status(1), HeldLocks::Status::Lost);
    QVERIFY(!env.message(1)->locked || env.message(1)->lockToken != token);
    // A bad duration is refused inline.
    f.find<QLineEdit>("lockAutoRenewFor")->setText(QStringLiteral("soon"));
    autoRenew->setChecked(true);
    QVERIFY(!autoRenew->isChecked());
    QVERIFY(f.status().contains(QStringLiteral("InvalidArgument")));
}

// A newcomer reads the dead-letter dialog and types a reason for two minutes on a 30 s lock:
// the dialog renews the lock while it is open (and says so), and the dead-letter succeeds.
// Closed, it renews no more.
void LockTest::settleDialogKeepsItsLockAlive() {
    testing::LocksTestEnv env(seconds(30));
    env.send(QStringLiteral("slow reader"));
    env.send(QStringLiteral("left alone"));
    Fixture f(env);
    f.receive(2, QStringLiteral("alice"));
    f.select({1});
    f.trigger("lockDeadLetter");
    SettleDialog* dialog = f.dialog();
    auto* note = dialog->findChild<QLabel*>(QStringLiteral("settleLockNote"));
    QVERIFY(note);
    QVERIFY(note->isVisible());
    QVERIFY2(note->text().contains(QStringLiteral("kept alive while this dialog is open")),
             qPrintable(note->text()));

    const Instant opened = env.now();
    while (env.now() < opened + minutes(2)) {
        env.clock->advance(seconds(5));
        QTRY_VERIFY(f.locks().lockedUntil(1) - env.now() >= seconds(10));
    }
    QCOMPARE(f.locks().status(1), HeldLocks::Status::Held);
    // Only the dialog's lock: #2 ran out meanwhile.
    QTRY_COMPARE(f.locks().status(2), HeldLocks::Status::Lost);
    QTest::keyClicks(dialog->findChild<QLineEdit*>(QStringLiteral("deadLetterReason")),
                     QStringLiteral("ReadSlowly"));
    f.accept(dialog);
    QTRY_VERIFY(!f.locks().contains(1));
    QCOMPARE(env.message(1, QStringLiteral("q/$deadletterqueue"))->deadLetterReason,
             QStringLiteral("ReadSlowly"));
    QVERIFY(f.errors.isEmpty());

    // A dialog cancelled stops renewing: its lock runs out as any other.
    f.trigger("lockClear"); // #2's lost lock: receiving takes #2 again
    f.receive(1, QStringLiteral("alice"));
    const qint64 third = f.locks().held().last();
    f.select({third});
    f.trigger("lockAbandon");
    SettleDialog* abandon = f.dialog();
    QTest::mouseClick(abandon->findChild<QPushButton*>(QStringLiteral("settleCancel")),
                      Qt::LeftButton);
    env.clock->advance(seconds(25));
    QTest::qWait(3 * LockAutoRenewer::kIntervalMs); // a renewer still running would act now
    QCOMPARE(f.locks().lockedUntil(third), env.now() + seconds(5));
}

// When a renewal fails after all (the lock ran out before it came, the queue was purged), the
// dialog says so in place of its note, without alarm, and offers no settlement that must fail.
void LockTest::settleDialogSaysCalmlyWhenTheLockIsLost() {
    testing::LocksTestEnv env(seconds(30));
    env.send(QStringLiteral("interrupted"));
    Fixture f(env);
    f.receive(1, QStringLiteral("alice"));
    f.select({1});
    f.trigger("lockDefer");
    SettleDialog* dialog = f.dialog();
    env.clock->advance(seconds(31)); // in one jump: past the lock before any renewal
    auto* note = dialog->findChild<QLabel*>(QStringLiteral("settleLockNote"));
    QVERIFY(note);
    QTRY_VERIFY2(note->text().contains(QStringLiteral("lock was lost")), qPrintable(note->text()));
    QVERIFY(note->text().contains(QStringLiteral("receive it again")));
    QVERIFY(!dialog->findChild<QPushButton*>(QStringLiteral("settleOk"))->isEnabled());
    QVERIFY(dialog->isVisible());
    QCOMPARE(f.locks().status(1), HeldLocks::Status::Lost);
}

// One of two locks lost while the dialog is open: OK settles the other only, and the lost one
// raises no MessageLockLost alarm (the dialog said so already).
void LockTest::settleDialogSettlesOnlyTheLocksStillHeld() {
    testing::LocksTestEnv env(seconds(30));
    env.send(QStringLiteral("first"));
    env.send(QStringLiteral("second"));
    Fixture f(env);
    f.receive(1, QStringLiteral("alice"));
    env.clock->advance(seconds(20));
    f.receive(1, QStringLiteral("alice"));
    f.select({1, 2});
    f.trigger("lockDefer");
    SettleDialog* dialog = f.dialog();
    env.clock->advance(seconds(11)); // #1's lock ran out; #2's has 19 s left
    auto* note = dialog->findChild<QLabel*>(QStringLiteral("settleLockNote"));
    QTRY_VERIFY2(note->text().contains(QStringLiteral("1 of 2 locks were lost")),
                 qPrintable(note->text()));
    auto* ok = dialog->findChild<QPushButton*>(QStringLiteral("settleOk"));
    QVERIFY(ok->isEnabled());
    const int errorsBefore = int(f.errors.size());
    QTest::mouseClick(ok, Qt::LeftButton);
    QTRY_VERIFY(!f.locks().contains(2)); // deferred
    QCOMPARE(env.counts().deferred, 1);
    QCOMPARE(int(f.errors.size()), errorsBefore);
}

void LockTest::receiveAndDeleteRemoves() {
    testing::LocksTestEnv env;
    for (int i = 0; i < 3; ++i)
        env.send(QStringLiteral("m%1").arg(i));
    Fixture f(env);
    f.receive(2, QStringLiteral("alice"), 1);
    QCOMPARE(env.counts().active, 1);
    QCOMPARE(env.counts().locked, 0);
    QCOMPARE(env.message(1).error().code, ErrorCode::MessageNotFound);
    QCOMPARE(f.cell(1, MessageListModel::StateColumn), QStringLiteral("Received"));
    QCOMPARE(f.cell(2, MessageListModel::LockHolderColumn), QStringLiteral("alice"));
    QCOMPARE(f.locks().status(2), HeldLocks::Status::Received);
    QCOMPARE(f.lockCountdown(1).kind, Countdown::Kind::None);
    QVERIFY(f.status().contains(QStringLiteral("received and deleted #1, #2")));
    QCOMPARE(f.locks().clearFinished(), 2);
}

void LockTest::keyboardShortcuts() {
    testing::LocksTestEnv env;
    env.send(QStringLiteral("a"));
    env.send(QStringLiteral("b"));
    Fixture f(env);
    QApplication::setActiveWindow(&f.panel);
    f.panel.view()->setFocus();
    QVERIFY(QTest::qWaitForWindowActive(&f.panel));
    QTest::keyClick(f.panel.view(), Qt::Key_R, Qt::ControlModifier);
    QTRY_COMPARE(f.locks().rowCount(), 1);
    f.select({1});
    QTest::keyClick(f.panel.view(), Qt::Key_Return, Qt::ControlModifier);
    QTRY_COMPARE(f.locks().rowCount(), 0);
    QCOMPARE(env.message(1).error().code, ErrorCode::MessageNotFound);
    QCOMPARE(f.find<QAction>("lockDeadLetter")->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_D));
    QCOMPARE(f.panel.actions().size(), 9); // with Copy message id (Ctrl+C)
}

// Receiving from a dead-letter queue settles there; switching entity clears the list and stops
// auto-renew.
void LockTest::deadLetterQueueAndEntitySwitch() {
    testing::LocksTestEnv env;
    env.send(QStringLiteral("poison"));
    const MessageView taken = env.receive(1, QStringLiteral("setup")).first();
    QVERIFY(env.call([taken](Broker& b) { return b.deadLetter(LockRef::of(taken)); }).ok());
    Fixture f(env);
    f.panel.setEntity(QStringLiteral("test:q/$deadletterqueue"), Kind::DeadLetterQueue);
    QVERIFY(!f.panel.view()->isColumnHidden(MessageViewModel::DeadLetterReasonColumn));
    f.receive(1, QStringLiteral("fixer"));
    QCOMPARE(f.locks().lockRef(1).entityPath, QStringLiteral("test:q/$deadletterqueue"));
    f.select({1});
    f.trigger("lockComplete");
    QTRY_VERIFY(!f.locks().contains(1));
    QCOMPARE(env.counts().deadLettered, 0);

    env.send(QStringLiteral("held"));
    f.panel.setEntity(QStringLiteral("test:q"), Kind::Queue);
    f.receive(1, QStringLiteral("alice"));
    f.find<QCheckBox>("lockAutoRenew")->setChecked(true);
    QVERIFY(f.panel.autoRenewer()->isActive());
    f.panel.setEntity(QStringLiteral("test"), Kind::Namespace);
    QCOMPARE(f.locks().rowCount(), 0);
    QVERIFY(!f.panel.autoRenewer()->isActive());
    QVERIFY(!f.find<QCheckBox>("lockAutoRenew")->isChecked());
    QVERIFY(!f.find<QAction>("lockReceive")->isEnabled());
}

QTEST_MAIN(LockTest)
#include "tst_ui_lock.moc"
