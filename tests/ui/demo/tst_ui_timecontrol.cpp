// The time-control toolbar over a real broker: pause stops the engine's clock, speed sets its
// factor, jump ahead moves it by exactly the chosen duration through the engine (so expiries
// fire), the badge tells virtual time from real time, and a system clock leaves the bar read-only.

#include "ClientCall.h"
#include "UiTestBroker.h"
#include "common/BrokerClient.h"
#include "common/DurationEdit.h"
#include "demo/TimeControlBar.h"

#include <QAction>
#include <QComboBox>
#include <QCoreApplication>
#include <QDateTime>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace hourglass;
using namespace hourglass::ui;

namespace {

// A broker on a paused VirtualClock that starts at the real current instant (so "AHEAD" is
// measured against real time), with queue "q" dead-lettering expired messages.
struct Env {
    QTemporaryDir dir;
    std::shared_ptr<VirtualClock> clock = std::make_shared<VirtualClock>();
    std::unique_ptr<BrokerClient> client;
    std::unique_ptr<TimeControlBar> bar;

    Env() {
        auto broker = testing::openUiTestBroker(dir, clock);
        EntityProperties properties = EntityProperties::defaults(Tier::Standard);
        properties.deadLetteringOnMessageExpiration = true;
        if (!broker->createQueue(QStringLiteral("q"), properties))
            qFatal("createQueue failed");
        client = std::make_unique<BrokerClient>(std::move(broker));
        bar = std::make_unique<TimeControlBar>(*client);
    }

    template <typename T> T* child(const char* name) const {
        T* found = bar->findChild<T*>(QString::fromLatin1(name));
        if (!found)
            qFatal("no child %s", name);
        return found;
    }
    QString badge() const { return child<QLabel>("clockMode")->text(); }
};

} // namespace

class TestTimeControl : public QObject {
    Q_OBJECT
private slots:
    void modeTextNamesEveryDeparture();
    void pauseStopsTheClock();
    void playPauseKeepsTheToolbarStill();
    void speedSetsTheFactor();
    void jumpMovesExactlyAndFiresExpiries();
    void realTimeIsOneClick();
    void systemClockIsReadOnly();
};

void TestTimeControl::modeTextNamesEveryDeparture() {
    QCOMPARE(clockModeText(true, false, 1.0, 0), QStringLiteral("LIVE"));
    QCOMPARE(clockModeText(false, true, 1.0, 300), QStringLiteral("PAUSED"));
    QCOMPARE(clockModeText(false, false, 60.0, 0), QStringLiteral("60× SPEED"));
    QCOMPARE(clockModeText(false, false, 1.0, hours(1) + minutes(5)),
             QStringLiteral("+1h 05m AHEAD"));
    QCOMPARE(clockModeText(false, true, 1.0, -seconds(12)), QStringLiteral("PAUSED · -12s BEHIND"));
    QCOMPARE(clockModeText(false, false, 1.0, 0), QStringLiteral("VIRTUAL"));
}

void TestTimeControl::pauseStopsTheClock() {
    Env env;
    QSignalSpy changed(env.bar.get(), &TimeControlBar::clockChanged);
    auto* playPause = env.child<QAction>("clockPlayPause");
    QVERIFY(playPause->isEnabled());
    QVERIFY(env.badge().startsWith(QStringLiteral("PAUSED")));

    playPause->trigger();
    QVERIFY(!env.clock->isPaused());
    QVERIFY(!env.badge().contains(QStringLiteral("PAUSED")));
    QCOMPARE(playPause->text(), QStringLiteral("Pause"));

    playPause->trigger();
    QVERIFY(env.clock->isPaused());
    QCOMPARE(changed.count(), 2);
    const Instant first = env.clock->now();
    QCoreApplication::processEvents();
    env.bar->refresh();
    QCOMPARE(env.clock->now(), first);
    QCOMPARE(
        env.child<QLabel>("clockTime")->text(),
        QDateTime::fromMSecsSinceEpoch(first).toLocalTime().toString(QStringLiteral("HH:mm:ss")));
    QVERIFY(env.badge().startsWith(QStringLiteral("PAUSED")));
    QCOMPARE(playPause->text(), QStringLiteral("Play"));
}

// Pause and Play differ in width; the button keeps the wider one, so the speed box, the jump
// field and Real time stay under the pointer whatever the clock's state.
void TestTimeControl::playPauseKeepsTheToolbarStill() {
    Env env;
    env.bar->resize(1024, env.bar->sizeHint().height());
    env.bar->show();
    QVERIFY(QTest::qWaitForWindowExposed(env.bar.get()));
    const auto settle = [] {
        for (int i = 0; i < 3; ++i) {
            QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
            QCoreApplication::processEvents();
        }
    };
    const QList<QWidget*> neighbours = {
        env.child<QComboBox>("clockSpeed"), env.child<QLineEdit>("clockJumpByText"),
        env.bar->widgetForAction(env.child<QAction>("clockJump")),
        env.bar->widgetForAction(env.child<QAction>("clockRealTime"))};
    const auto positions = [&neighbours] {
        QList<QRect> out;
        for (QWidget* w : neighbours)
            out.append(QRect(w->mapTo(w->window(), QPoint(0, 0)), w->size()));
        return out;
    };
    settle();
    QCOMPARE(env.child<QAction>("clockPlayPause")->text(), QStringLiteral("Play"));
    const QList<QRect> paused = positions();

    env.child<QAction>("clockPlayPause")->trigger();
    settle();
    QCOMPARE(env.child<QAction>("clockPlayPause")->text(), QStringLiteral("Pause"));
    QCOMPARE(positions(), paused);

    env.child<QAction>("clockPlayPause")->trigger();
    settle();
    QCOMPARE(positions(), paused);
}

void TestTimeControl::speedSetsTheFactor() {
    Env env;
    QSignalSpy changed(env.bar.get(), &TimeControlBar::clockChanged);
    env.child<QAction>("clockPlayPause")->trigger();
    auto* speed = env.child<QComboBox>("clockSpeed");
    QCOMPARE(speed->count(), 4);
    speed->setCurrentIndex(speed->findText(QStringLiteral("60×")));
    QCOMPARE(env.clock->speed(), 60.0);
    QCOMPARE(changed.count(), 2);
    QVERIFY(env.badge().startsWith(QStringLiteral("60× SPEED")));
    // A refresh shows the clock's own speed without counting as a user change.
    env.bar->refresh();
    QCOMPARE(speed->currentText(), QStringLiteral("60×"));
    QCOMPARE(changed.count(), 2);
}

void TestTimeControl::jumpMovesExactlyAndFiresExpiries() {
    Env env;
    OutgoingMessage message;
    message.body = "expires";
    message.timeToLive = minutes(2);
    const auto sent = testing::callAndWait(
        *env.client, [message](Broker& b) { return b.send(QStringLiteral("q"), message); });
    QVERIFY(sent);

    auto* jumpBy = env.child<DurationEdit>("clockJumpBy");
    QCOMPARE(jumpBy->duration(), std::optional<Millis>(minutes(5)));
    auto* jump = env.child<QAction>("clockJump");
    QVERIFY(jump->isEnabled());
    QSignalSpy changed(env.bar.get(), &TimeControlBar::clockChanged);
    const Instant before = env.clock->now();
    jump->trigger();
    QTRY_COMPARE(changed.count(), 1);
    QCOMPARE(env.clock->now(), before + minutes(5));
    QVERIFY(env.clock->isPaused());
    QVERIFY2(env.badge().contains(QStringLiteral("AHEAD")), qPrintable(env.badge()));
    QVERIFY(env.badge().startsWith(QStringLiteral("PAUSED")));

    const auto main = testing::callAndWait(
        *env.client, [](Broker& b) { return b.peek(QStringLiteral("q"), 0, 10); });
    QVERIFY(main);
    QVERIFY(main->isEmpty());
    const auto dead = testing::callAndWait(
        *env.client, [](Broker& b) { return b.peek(QStringLiteral("q/$deadletterqueue"), 0, 10); });
    QVERIFY(dead);
    QCOMPARE(dead->size(), 1);
    QCOMPARE(dead->first().body, QByteArray("expires"));

    // An invalid duration disables the jump rather than sending anything.
    jumpBy->lineEdit()->setText(QStringLiteral("soon"));
    QVERIFY(!jump->isEnabled());
    jumpBy->lineEdit()->setText(QStringLiteral("PT1H"));
    QVERIFY(jump->isEnabled());
}

void TestTimeControl::realTimeIsOneClick() {
    Env env;
    auto* realTime = env.child<QAction>("clockRealTime");
    QVERIFY(realTime->isEnabled());
    env.child<QComboBox>("clockSpeed")->setCurrentIndex(3); // 600x
    QVERIFY(!env.clock->isRealTime());

    QSignalSpy changed(env.bar.get(), &TimeControlBar::clockChanged);
    realTime->trigger();
    QVERIFY(env.clock->isRealTime());
    QCOMPARE(env.clock->speed(), 1.0);
    QVERIFY(!env.clock->isPaused());
    QCOMPARE(changed.count(), 1);
    QCOMPARE(env.badge(), QStringLiteral("LIVE"));
    QVERIFY(!realTime->isEnabled());
    QCOMPARE(env.child<QComboBox>("clockSpeed")->currentText(), QStringLiteral("1×"));
}

void TestTimeControl::systemClockIsReadOnly() {
    QTemporaryDir dir;
    auto broker = testing::openUiTestBroker(dir, nullptr);
    BrokerClient client(std::move(broker));
    QVERIFY(client.virtualClock() == nullptr);
    TimeControlBar bar(client);
    for (const char* name : {"clockPlayPause", "clockJump", "clockRealTime"})
        QVERIFY2(!bar.findChild<QAction*>(QString::fromLatin1(name))->isEnabled(), name);
    QVERIFY(!bar.findChild<QComboBox*>(QStringLiteral("clockSpeed"))->isEnabled());
    QVERIFY(!bar.findChild<QLineEdit*>(QStringLiteral("clockJumpByText"))->isEnabled());
    QVERIFY(!bar.findChild<QLabel*>(QStringLiteral("clockTime"))->text().isEmpty());
    QCOMPARE(bar.findChild<QLabel*>(QStringLiteral("clockMode"))->text(), QStringLiteral("LIVE"));
}

QTEST_MAIN(TestTimeControl)
#include "tst_ui_timecontrol.moc"
