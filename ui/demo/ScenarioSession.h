#pragma once
// A scenario (scenario-format.md) played in the window: its runner on a fresh temporary database,
// and the player that moves it along. The window shows the runner's broker like any database while
// the session plays the timeline on it.
//
// Time: the scenario's clock stays paused and the session moves it. While playing, a timer
// turns the wall time that passed into engine time (times the speed) and advances the clock by
// that much through Broker::advanceClock, but never past the next step's At: the step then runs
// at its exact offset, and everything due on the way fires in time order, exactly as in a
// headless run. So a played scenario passes the same checks at 1x as at 600x.
//
// Threads: the runner is used only on the session's own worker thread (one at a time, as
// ScenarioRunner requires); results come back to the GUI thread. A Restart step (or the
// player's restart) replaces the broker: the session first emits brokerClosing() so that the
// window lets go of its client, then ready() with the new broker.

#include "hourglass/scenario/ScenarioFile.h"
#include "hourglass/scenario/ScenarioReport.h"

#include <QElapsedTimer>
#include <QObject>
#include <QStringList>
#include <QThreadPool>
#include <QTimer>

#include <memory>

namespace hourglass {
class Broker;
class ScenarioRunner;
} // namespace hourglass

namespace hourglass::ui {

class ScenarioSession : public QObject {
    Q_OBJECT
public:
    enum class StepState { Pending, Done, Passed, Failed };
    struct StepOutcome {
        StepState state = StepState::Pending;
        QStringList failures; // ExpectationFailure::line() for a failed step
    };

    explicit ScenarioSession(Scenario scenario, QObject* parent = nullptr);
    // Waits for the step running on the worker, then closes the runner's database.
    ~ScenarioSession() override;

    // Opens the runner on its worker: ready() or failed() follows.
    void start();

    const Scenario& scenario() const { return m_scenario; }
    int stepCount() const { return m_scenario.steps.size(); }
    // The index (in At order) of the step that runs next; stepCount() at the end.
    int nextStep() const { return m_next; }
    const StepOutcome& outcome(int step) const { return m_outcomes.at(step); }
    // Checks passed and failed so far, counted as a headless run counts them (ScenarioReport).
    int passedCount() const { return m_checksPassed; }
    int failedCount() const { return m_checksFailed; }
    bool atEnd() const { return m_atEnd; }
    bool isPlaying() const { return m_playing; }
    bool isReady() const { return m_runner != nullptr; }
    // A step or a clock move is running on the worker.
    bool isBusy() const { return m_busy; }
    double speed() const { return m_speed; }
    // Engine time since the scenario's start (0 before it is ready).
    Millis elapsed() const;
    // The offset of the last step (the timeline's length).
    Millis length() const;

    void play();
    void pause();
    // Runs the next step at once (its At comes at once too); playing stops.
    void step();
    // Starts again from a fresh database; playing stops.
    void restart();
    void setSpeed(double factor);

signals:
    // The runner's broker is open (after start(), restart() or a Restart step): show it.
    void ready(std::shared_ptr<hourglass::Broker> broker);
    // The broker is about to be replaced: let go of every reference to it now.
    void brokerClosing();
    void failed(const hourglass::Error& error);
    // Steps [first, last] changed state, or the next step moved.
    void stepsChanged(int first, int last);
    // Playing, pausing, speed, the clock or the end changed.
    void stateChanged();
    // The last step has run.
    void finished();

private:
    struct Progress;
    void tick();
    void openRunner();
    void runJob(Millis budget, bool oneStep);
    void applyProgress(const Progress& progress);
    bool nextIsRestart() const;

    Scenario m_scenario;
    std::shared_ptr<ScenarioRunner> m_runner;
    QThreadPool m_worker; // one thread: the runner is used from one thread at a time
    QTimer m_timer;
    QElapsedTimer m_wall; // wall time since the last clock move while playing
    QList<StepOutcome> m_outcomes;
    int m_next = 0;
    int m_checksPassed = 0;
    int m_checksFailed = 0;
    int m_generation = 0; // results of a replaced runner are dropped
    bool m_playing = false;
    bool m_busy = false;
    bool m_atEnd = false;
    double m_speed = 10.0;
};

} // namespace hourglass::ui
