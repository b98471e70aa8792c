// The Receive & settle tab on a queue that requires sessions (S2-S6): a plain
// Receive is led to accepting a session (no raw refusal); a named or the next available
// session is accepted as a named receiver and its messages come in order, under their own
// locks, beside the session lock's live countdown; renew, state (with its confirmation) and
// release; a session lock that runs out or is released takes its message locks with it.

#include "SessionsTestEnv.h"
#include "common/DurationText.h"
#include "messages/MessageListModel.h"
#include "sessions/SessionStateDialog.h"
#include "settle/HeldLocks.h"
#include "settle/HeldSessions.h"
#include "settle/LockPanel.h"

#include <QAbstractItemModelTester>
#include <QAction>
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

namespace {

struct Fixture {
    testing::SessionsTestEnv& env;
    LockPanel panel;
    QAbstractItemModelTester locksTester;
    QAbstractItemModelTester sessionsTester;
    QList<Error> errors;

    explicit Fixture(testing::SessionsTestEnv& e)
        : env(e)
        , panel(*e.client)
        , locksTester(panel.locks(), QAbstractItemModelTester::FailureReportingMode::QtTest)
        , sessionsTester(panel.sessions(), QAbstractItemModelTester::FailureReportingMode::QtTest) {
        QObject::connect(&panel, &LockPanel::errorOccurred,
                         [this](const Error& error) { errors.append(error); });
        panel.resize(900, 600);
        panel.show();
        panel.setEntity(QStringLiteral("test:orders"), LockPanel::NodeKind::Queue);
        if (!QTest::qWaitFor([this] { return panel.requiresSession(); }))
            qFatal("the panel never learnt that orders requires sessions");
    }
    template <typename T> T* find(const char* name) {
        T* child = panel.findChild<T*>(QLatin1String(name));
        if (!child)
            qFatal("no child %s", name);
        return child;
    }
    QString status() { return find<QLabel>("lockStatus")->text(); }
    void trigger(const char* action) { find<QAction>(action)->trigger(); }
    void as(const QString& receiver) { find<QComboBox>("lockReceiver")->setEditText(receiver); }
    void accept(const QString& receiver, const QString& sessionId) {
        as(receiver);
        find<QLineEdit>("sessionToAccept")->setText(sessionId);
        trigger("sessionAccept");
        if (!QTest::qWaitFor([&] { return panel.sessions()->heldBy(receiver).has_value(); }))
            qFatal("%s: %s", qPrintable(receiver), qPrintable(status()));
    }
    void receive(const QString& receiver, int count) {
        as(receiver);
        find<QSpinBox>("lockCount")->setValue(count);
        trigger("lockReceive");
    }
    Countdown sessionCountdown(const QString& receiver) {
        HeldSessions& sessions = *panel.sessions();
        return sessions.index(sessions.rowOf(receiver), HeldSessions::SessionLockColumn)
            .data(MessageListModel::CountdownRole)
            .value<Countdown>();
    }
    QString messageIdAt(int row) {
        return panel.locks()->index(row, MessageListModel::MessageIdColumn).data().toString();
    }
};

} // namespace

class LockSessionsTest : public QObject {
    Q_OBJECT
private slots:
    void plainReceiveIsLedToAcceptASession();
    void namedSession_S2_messagesInOrderBesideTheSessionLock();
    void nextAvailable_S3_andNoneAvailableIsCalm();
    void renewAndRelease_S5_releaseLosesTheMessageLocks();
    void sessionLockRunsOut_S5_settlingSaysSessionLockLost();
    void sessionState_S4_setByTheHolderWithAConfirmation();
    void deferredThroughTheSession_S6();
    void aSessionAnApplicationHoldsPointsToConnections();
};

void LockSessionsTest::plainReceiveIsLedToAcceptASession() {
    testing::SessionsTestEnv env;
    env.send(QStringLiteral("A"), QStringLiteral("a-1"));
    Fixture f(env);
    QVERIFY(f.find<QWidget>("sessionBar")->isVisible());
    f.receive(QStringLiteral("alice"), 1);
    QVERIFY2(f.status().contains(QStringLiteral("requires sessions")) &&
                 f.status().contains(QStringLiteral("Accept a session as alice")),
             qPrintable(f.status()));
    QVERIFY(f.errors.isEmpty()); // guidance, not an error
    QCOMPARE(f.panel.locks()->rowCount(), 0);
    QVERIFY(f.find<QLineEdit>("sessionToAccept")->hasFocus() ||
            !QApplication::focusWidget()); // offscreen may have no focus window

    // A plain queue shows no session controls.
    f.panel.setEntity(QStringLiteral("test:plain"), LockPanel::NodeKind::Queue);
    QVERIFY(!f.find<QWidget>("sessionBar")->isVisible());
}

void LockSessionsTest::namedSession_S2_messagesInOrderBesideTheSessionLock() {
    testing::SessionsTestEnv env;
    env.send(QStringLiteral("A"), QStringLiteral("a-1"));
    env.send(QStringLiteral("B"), QStringLiteral("b-1"));
    env.send(QStringLiteral("A"), QStringLiteral("a-2"));
    env.send(QStringLiteral("A"), QStringLiteral("a-3"));
    Fixture f(env);
    f.accept(QStringLiteral("alice"), QStringLiteral("A"));
    QVERIFY(f.status().contains(QStringLiteral("alice accepted session A")));
    QCOMPARE(f.sessionCountdown(QStringLiteral("alice")).kind, Countdown::Kind::Running);
    QCOMPARE(f.sessionCountdown(QStringLiteral("alice")).remaining, seconds(30));
    QCOMPARE(env.session(QStringLiteral("A")).lockedBy, QStringLiteral("alice"));

    f.receive(QStringLiteral("alice"), 2);
    QTRY_COMPARE(f.panel.locks()->rowCount(), 2);
    QCOMPARE(f.messageIdAt(0), QStringLiteral("a-1")); // the session's, in order; not b-1
    QCOMPARE(f.messageIdAt(1), QStringLiteral("a-2"));
    // The session lock counts down beside the message locks.
    env.clock->advance(seconds(10));
    QTRY_COMPARE(f.sessionCountdown(QStringLiteral("alice")).remaining, seconds(20));
    QCOMPARE(f.panel.sessions()->index(0, HeldSessions::SessionLockColumn).data().toString(),
             QStringLiteral("20s"));

    // Settling goes as for any lock.
    f.panel.view()->selectRow(0);
    f.trigger("lockComplete");
    QTRY_COMPARE(f.panel.locks()->rowCount(), 1);
    QCOMPARE(env.session(QStringLiteral("A")).active, 1);

    // Another receiver cannot take A; the refusal is the engine's, inline.
    f.as(QStringLiteral("bob"));
    f.find<QLineEdit>("sessionToAccept")->setText(QStringLiteral("A"));
    f.trigger("sessionAccept");
    QTRY_COMPARE(f.errors.size(), 1);
    QCOMPARE(f.errors.first().code, ErrorCode::SessionCannotBeLocked);
}

void LockSessionsTest::nextAvailable_S3_andNoneAvailableIsCalm() {
    testing::SessionsTestEnv env;
    env.send(QStringLiteral("B"), QStringLiteral("b-1"));
    env.send(QStringLiteral("A"), QStringLiteral("a-1"));
    Fixture f(env);
    f.accept(QStringLiteral("alice"), QString());
    QCOMPARE(f.panel.sessions()->sessionOf(QStringLiteral("alice")), QStringLiteral("B"));
    f.accept(QStringLiteral("bob"), QString());
    QCOMPARE(f.panel.sessions()->sessionOf(QStringLiteral("bob")), QStringLiteral("A"));
    f.as(QStringLiteral("carol"));
    f.find<QLineEdit>("sessionToAccept")->clear();
    f.trigger("sessionAccept");
    QTRY_VERIFY2(f.status().contains(QStringLiteral("No session is available")),
                 qPrintable(f.status()));
    QVERIFY(f.errors.isEmpty());
    // A receiver holds one session at a time.
    f.as(QStringLiteral("alice"));
    f.trigger("sessionAccept");
    QVERIFY(f.status().contains(QStringLiteral("already holds session B")));
}

void LockSessionsTest::renewAndRelease_S5_releaseLosesTheMessageLocks() {
    testing::SessionsTestEnv env;
    const qint64 first = env.send(QStringLiteral("A"), QStringLiteral("a-1"));
    Fixture f(env);
    f.accept(QStringLiteral("alice"), QStringLiteral("A"));
    f.receive(QStringLiteral("alice"), 1);
    QTRY_COMPARE(f.panel.locks()->rowCount(), 1);
    env.clock->advance(seconds(20));
    f.as(QStringLiteral("alice"));
    f.trigger("sessionRenew");
    QTRY_COMPARE(f.sessionCountdown(QStringLiteral("alice")).remaining, seconds(30));
    QVERIFY(f.status().contains(QStringLiteral("renewed session A")));

    f.trigger("sessionRelease");
    QTRY_COMPARE(f.panel.sessions()->rowCount(), 0);
    QCOMPARE(f.panel.locks()->status(first), HeldLocks::Status::Lost);
    QVERIFY(env.session(QStringLiteral("A")).lockedBy.isEmpty());
    QCOMPARE(env.session(QStringLiteral("A")).active, 1); // back for the next holder
}

void LockSessionsTest::sessionLockRunsOut_S5_settlingSaysSessionLockLost() {
    testing::SessionsTestEnv env;
    const qint64 first = env.send(QStringLiteral("A"), QStringLiteral("a-1"));
    Fixture f(env);
    f.accept(QStringLiteral("alice"), QStringLiteral("A"));
    f.receive(QStringLiteral("alice"), 1);
    QTRY_COMPARE(f.panel.locks()->rowCount(), 1);
    // The session lock runs out: the message lock it covered is lost with it (S5).
    env.clock->advance(seconds(31));
    QTRY_VERIFY(f.panel.sessions()->isLost(QStringLiteral("alice")));
    QTRY_COMPARE(f.panel.locks()->status(first), HeldLocks::Status::Lost);
    QCOMPARE(f.sessionCountdown(QStringLiteral("alice")).text, QStringLiteral("Session lost"));
    // Receive now says what happened and what to do.
    f.receive(QStringLiteral("alice"), 1);
    QVERIFY2(f.status().contains(QStringLiteral("was lost")), qPrintable(f.status()));
    // Release clears the lost row; a new session can be accepted.
    f.trigger("sessionRelease");
    QCOMPARE(f.panel.sessions()->rowCount(), 0);
    f.accept(QStringLiteral("alice"), QStringLiteral("A"));
    f.receive(QStringLiteral("alice"), 1);
    QTRY_COMPARE(f.panel.locks()->status(first), HeldLocks::Status::Held);
}

void LockSessionsTest::sessionState_S4_setByTheHolderWithAConfirmation() {
    testing::SessionsTestEnv env;
    env.send(QStringLiteral("A"), QStringLiteral("a-1"));
    Fixture f(env);
    f.accept(QStringLiteral("alice"), QStringLiteral("A"));
    f.trigger("sessionStateEdit");
    SessionStateDialog* dialog = nullptr;
    QTRY_VERIFY((dialog = f.panel.findChild<SessionStateDialog*>(
                     QStringLiteral("sessionStateDialog"))) != nullptr);
    dialog->findChild<QPlainTextEdit*>(QStringLiteral("stateEdit"))
        ->setPlainText(QStringLiteral("{\"shipped\": 1}"));
    QTest::mouseClick(dialog->findChild<QPushButton*>(QStringLiteral("stateApply")),
                      Qt::LeftButton);
    QVERIFY(!env.session(QStringLiteral("A")).hasState); // asked first
    QPointer<SessionStateDialog> guard(dialog);
    QTest::mouseClick(dialog->findChild<QPushButton*>(QStringLiteral("stateConfirm")),
                      Qt::LeftButton);
    QTRY_VERIFY(guard.isNull());
    QCOMPARE(env.session(QStringLiteral("A")).state, QByteArray("{\"shipped\": 1}"));
    // Alice still holds the session: setting the state does not release it.
    QCOMPARE(env.session(QStringLiteral("A")).lockedBy, QStringLiteral("alice"));
    QVERIFY(f.status().contains(QStringLiteral("alice set the state of session A")));
}

void LockSessionsTest::deferredThroughTheSession_S6() {
    testing::SessionsTestEnv env;
    const qint64 first = env.send(QStringLiteral("A"), QStringLiteral("a-1"));
    Fixture f(env);
    f.accept(QStringLiteral("alice"), QStringLiteral("A"));
    f.receive(QStringLiteral("alice"), 1);
    QTRY_COMPARE(f.panel.locks()->rowCount(), 1);
    const LockRef lock = f.panel.locks()->lockRef(first);
    QVERIFY(env.call([lock](Broker& b) { return b.defer(lock); }).ok());
    f.panel.locks()->remove(first);
    f.find<QSpinBox>("deferredSeq")->setValue(int(first));
    f.trigger("receiveDeferred");
    QTRY_COMPARE(f.panel.locks()->rowCount(), 1);
    QCOMPARE(f.panel.locks()->status(first), HeldLocks::Status::Held);
    QVERIFY(f.errors.isEmpty());
}

void LockSessionsTest::aSessionAnApplicationHoldsPointsToConnections() {
    testing::SessionsTestEnv env;
    env.send(QStringLiteral("A"), QStringLiteral("a-1"));
    // An application's session link holds A, as the endpoint records it.
    env.accept(QStringLiteral("A"), QStringLiteral("amqp/3/orders-receiver"));
    Fixture f(env);
    f.as(QStringLiteral("bob"));
    f.find<QLineEdit>("sessionToAccept")->setText(QStringLiteral("A"));
    f.trigger("sessionAccept");
    QTRY_COMPARE(f.errors.size(), 1);
    const Error& refused = f.errors.first();
    QCOMPARE(refused.code, ErrorCode::SessionCannotBeLocked);
    // Who holds it, by the name View > Connections uses, and where to look.
    QVERIFY2(
        refused.description.contains(QStringLiteral("AMQP link orders-receiver (connection 3)")),
        qPrintable(refused.description));
    QVERIFY2(refused.description.contains(QStringLiteral("View > Connections")),
             qPrintable(refused.description));
    QVERIFY(!refused.description.contains(QStringLiteral("(S")));
    QVERIFY(!f.panel.sessions()->heldBy(QStringLiteral("bob")));
}

QTEST_MAIN(LockSessionsTest)
#include "tst_ui_lock_sessions.moc"
