// The session counts in the Charts tab's and presentation mode's headers, so that presentation
// mode and the charts handle session entities: sessions holding messages and sessions locked, read
// off the GUI thread and kept live by the change feed (sessionsChanged for a lock taken or
// given back, the counts for messages); nothing shown for a plain queue.

#include "demo/EntityChartsPanel.h"
#include "demo/PresentationView.h"
#include "demo/SessionSummary.h"
#include "sessions/SessionListModel.h"
#include "sessions/SessionsTestEnv.h"

#include <QLabel>
#include <QTest>

using namespace hourglass;
using namespace hourglass::ui;
using Kind = NamespaceTreeModel::NodeKind;

class TestUiSessionSummary : public QObject {
    Q_OBJECT
private slots:
    void summary_S2_countsSessionsWithMessagesAndLockedLive();
    void chartsHeader_showsSessionsForSessionEntitiesOnly();
    void presentationHeader_showsSessionsForSessionEntitiesOnly();
    void summary_countsTheRowsOfTheSessionsTabsModel();
};

void TestUiSessionSummary::summary_S2_countsSessionsWithMessagesAndLockedLive() {
    testing::SessionsTestEnv env;
    env.send(QStringLiteral("ana"), QStringLiteral("a-1"));
    env.send(QStringLiteral("ben"), QStringLiteral("b-1"));
    SessionSummary summary(*env.client);
    summary.setPath(QStringLiteral("test:orders"));
    using Counts = SessionSummary::Counts;
    QTRY_COMPARE(summary.counts(), (Counts{true, 2, 0, false}));
    QVERIFY(!summary.isHidden());
    QCOMPARE(summary.text(), QStringLiteral("Sessions: 2 with messages · 0 locked"));

    // A message in a third session (the counts feed), a lock taken (sessionsChanged).
    env.send(QStringLiteral("cho"), QStringLiteral("c-1"));
    QTRY_COMPARE(summary.counts().withMessages, 3);
    const AcceptedSession ana = env.accept(QStringLiteral("ana"), QStringLiteral("worker-1"));
    QTRY_COMPARE(summary.counts().locked, 1);
    QCOMPARE(summary.text(), QStringLiteral("Sessions: 3 with messages · 1 locked"));
    // An empty session accepted (S3) is locked without holding messages.
    env.accept(QStringLiteral("dee"), QStringLiteral("worker-2"));
    QTRY_COMPARE(summary.counts(), (Counts{true, 3, 2, false}));
    // The lock given back.
    QVERIFY(env.call([ana](Broker& b) { return b.releaseSession(SessionRef::of(ana)); }).ok());
    QTRY_COMPARE(summary.counts().locked, 1);

    summary.setPath(QStringLiteral("test:plain"));
    QTRY_VERIFY(summary.isHidden());
    QCOMPARE(summary.counts(), Counts{});
    QVERIFY(summary.text().isEmpty());
}

void TestUiSessionSummary::chartsHeader_showsSessionsForSessionEntitiesOnly() {
    testing::SessionsTestEnv env;
    env.send(QStringLiteral("ana"), QStringLiteral("a-1"));
    EntityChartsPanel panel(*env.client);
    panel.resize(900, 600);
    panel.show();
    auto* sessions = panel.findChild<QLabel*>(QStringLiteral("chartsSessions"));
    QVERIFY(sessions);
    panel.setEntity(QStringLiteral("test:orders"), Kind::Queue);
    QTRY_VERIFY(sessions->isVisible());
    QCOMPARE(sessions->text(), QStringLiteral("Sessions: 1 with messages · 0 locked"));
    env.accept(QStringLiteral("ana"), QStringLiteral("worker-1"));
    QTRY_COMPARE(sessions->text(), QStringLiteral("Sessions: 1 with messages · 1 locked"));
    // A plain queue: the header as before.
    panel.setEntity(QStringLiteral("test:plain"), Kind::Queue);
    QVERIFY(!sessions->isVisible());
    QTRY_VERIFY(static_cast<SessionSummary*>(sessions)->counts() == SessionSummary::Counts{});
    QVERIFY(!sessions->isVisible());
}

void TestUiSessionSummary::presentationHeader_showsSessionsForSessionEntitiesOnly() {
    testing::SessionsTestEnv env;
    env.send(QStringLiteral("ana"), QStringLiteral("a-1"));
    env.send(QStringLiteral("ben"), QStringLiteral("b-1"));
    env.accept(QStringLiteral("ben"), QStringLiteral("worker-1"));
    PresentationView view(*env.client);
    view.resize(1280, 800);
    view.show();
    auto* sessions = view.findChild<QLabel*>(QStringLiteral("presentationSessions"));
    QVERIFY(sessions);
    view.setEntity(QStringLiteral("test:orders"), Kind::Queue);
    QTRY_VERIFY(sessions->isVisible());
    QCOMPARE(sessions->text(), QStringLiteral("Sessions: 2 with messages · 1 locked"));
    // Its dead-letter queue has no sessions; nor has a plain queue.
    view.setEntity(QStringLiteral("test:orders/$deadletterqueue"), Kind::DeadLetterQueue);
    QVERIFY(!sessions->isVisible());
    view.setEntity(QStringLiteral("test:plain"), Kind::Queue);
    QVERIFY(!sessions->isVisible());
}

// The line counts what the Sessions tab lists (SessionListModel), rather than reading the
// sessions a second way: its model lists every session, and the counts are its rows'.
void TestUiSessionSummary::summary_countsTheRowsOfTheSessionsTabsModel() {
    testing::SessionsTestEnv env;
    env.send(QStringLiteral("ana"), QStringLiteral("a-1"));
    env.send(QStringLiteral("ben"), QStringLiteral("b-1"));
    env.accept(QStringLiteral("dee"), QStringLiteral("worker-1")); // locked, no messages
    SessionSummary summary(*env.client);
    summary.setPath(QStringLiteral("test:orders"));
    QTRY_COMPARE(summary.counts(), (SessionSummary::Counts{true, 2, 1, false}));
    const SessionListModel& sessions = summary.sessions();
    QCOMPARE(sessions.path(), QStringLiteral("test:orders"));
    QCOMPARE(sessions.maxSessions(), SessionSummary::kMaxSessions);
    QCOMPARE(sessions.rowCount(), 3);
    QCOMPARE(sessions.sessionAt(sessions.rowOf(QStringLiteral("dee"))).lockedBy,
             QStringLiteral("worker-1"));
}

QTEST_MAIN(TestUiSessionSummary)
#include "tst_ui_session_summary.moc"
