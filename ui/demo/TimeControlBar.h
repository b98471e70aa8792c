#pragma once
// The toolbar that drives the engine's clock: the clock's time in large digits, pause /
// play, speed (1x..600x), "jump ahead" by a chosen duration, and back to real time in one click.
// A coloured badge says whenever the clock is not real time (PAUSED, 60x SPEED, +1h 05m AHEAD),
// so nobody mistakes a demo's virtual time for the wall clock.
//
// Every countdown, lock and scheduled message follows because the engine reads time only from
// this clock. Pause, play, speed and real time act on the VirtualClock directly (its own small
// mutex, never the broker's); jumping goes through Broker::advanceClock on the client's workers
// so that everything due on the way fires in time order. With a system clock (virtualClock() is
// null) the bar shows the time read-only and disables its controls.
//
// Object names: "timeControlBar", "clockTime", "clockDate", "clockMode", actions
// "clockPlayPause" (F8, Ctrl+Space), "clockJump", "clockRealTime", combo "clockSpeed", duration
// field "clockJumpBy" (a DurationEdit: its line edit is "clockJumpByText").

#include "hourglass/Status.h"
#include "hourglass/Time.h"

#include <QToolBar>

class QAction;
class QComboBox;
class QLabel;
class QTimer;

namespace hourglass {
class VirtualClock;
}

namespace hourglass::ui {

class BrokerClient;
class DurationEdit;

// The badge text for a clock state: "LIVE" in real time, else the parts that differ from it
// ("PAUSED", "60× SPEED", "+1h 05m AHEAD" / "-12s BEHIND") joined by " · ". `offset` is virtual
// minus real time; under a second counts as none.
QString clockModeText(bool realTime, bool paused, double speed, Millis offset);

class TimeControlBar : public QToolBar {
    Q_OBJECT
public:
    explicit TimeControlBar(BrokerClient& client, QWidget* parent = nullptr);

    QAction* playPauseAction() const { return m_playPause; }
    QAction* jumpAction() const { return m_jump; }
    QAction* realTimeAction() const { return m_realTime; }

    // Rereads the clock and updates every label and control (the timer does this a few times a
    // second; callers may force it after changing the clock themselves).
    void refresh();
    // While a scenario plays in the window it moves the clock itself, step by step, so that
    // every step runs at its exact offset: the bar then shows `badge` (e.g. "SCENARIO · 10×")
    // and disables its own controls. An empty badge hands the clock back to the bar.
    void setScenarioDriven(const QString& badge);
    bool isScenarioDriven() const { return !m_scenarioBadge.isEmpty(); }

protected:
    void changeEvent(QEvent* event) override;

signals:
    // After any change the user made to the clock (the window may repaint countdowns at once).
    void clockChanged();
    // A jump the engine refused.
    void errorOccurred(const hourglass::Error& error);

private:
    void buildClockDisplay();
    void buildControls();
    void togglePlayPause();
    void chooseSpeed(int index);
    void jumpBy(Millis delta);
    void backToRealTime();
    void updateBadge(VirtualClock* clock, Instant now);
    void updateEnabled(VirtualClock* clock);
    void keepPlayPauseWidth();

    BrokerClient& m_client;
    QTimer* m_refreshTimer;
    QLabel* m_time = nullptr;
    QLabel* m_date = nullptr;
    QLabel* m_mode = nullptr;
    QAction* m_playPause = nullptr;
    QComboBox* m_speed = nullptr;
    DurationEdit* m_jumpBy = nullptr;
    QAction* m_jump = nullptr;
    QAction* m_realTime = nullptr;
    bool m_jumping = false;     // a jump is running on a worker; another would race it
    QString m_scenarioBadge;    // non-empty while a scenario drives the clock
    int m_iconShowsPaused = -1; // the play/pause icon's state (-1: to be drawn)
};

} // namespace hourglass::ui
