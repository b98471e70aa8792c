#include "demo/ScenarioSession.h"

#include "hourglass/Broker.h"
#include "hourglass/scenario/ScenarioRunner.h"

#include <QCoreApplication>
#include <QPointer>
#include <QThread>

#include <algorithm>
#include <optional>

namespace hourglass::ui {

namespace {
// How often a playing scenario moves its clock: smooth countdowns without flooding the engine.
constexpr int kTickMs = 40;
// Wall time counted per move at most, so a stall (a big step) does not turn into a leap.
constexpr Millis kMaxWallPerMove = 500;
} // namespace

// What one job on the worker did, handed back to the GUI thread.
struct ScenarioSession::Progress {
    int generation = 0;
    int firstStep = 0;
    int stepsRun = 0;
    ScenarioReport expectations;
    bool atEnd = false;
    std::optional<Error> error;
    std::shared_ptr<Broker> replacedBroker; // after a Restart step
};

ScenarioSession::ScenarioSession(Scenario scenario, QObject* parent)
    : QObject(parent)
    , m_scenario(std::move(scenario))
    , m_outcomes(m_scenario.steps.size()) {
    m_worker.setMaxThreadCount(1);
    m_timer.setInterval(kTickMs);
    connect(&m_timer, &QTimer::timeout, this, &ScenarioSession::tick);
}

ScenarioSession::~ScenarioSession() {
    m_timer.stop();
    ++m_generation;
    // Closing the runner's database is SQLite work: on the worker, after any job in flight.
    if (m_runner)
        m_worker.start([old = std::move(m_runner)]() mutable { old.reset(); });
    m_worker.waitForDone();
}

void ScenarioSession::start() {
    openRunner();
}

Millis ScenarioSession::elapsed() const {
    return m_runner ? m_runner->clock()->now() - m_runner->start() : 0;
}

Millis ScenarioSession::length() const {
    return m_scenario.steps.isEmpty() ? 0 : m_scenario.steps.last().at;
}

void ScenarioSession::play() {
    if (!m_runner || m_atEnd || m_playing)
        return;
    m_playing = true;
    m_wall.start();
    m_timer.start();
    emit stateChanged();
}

void ScenarioSession::pause() {
    if (!m_playing)
        return;
    m_playing = false;
    m_timer.stop();
    emit stateChanged();
}

void ScenarioSession::step() {
    pause();
    if (!m_runner || m_busy || m_atEnd)
        return;
    if (nextIsRestart())
        emit brokerClosing();
    runJob(0, true);
}

void ScenarioSession::restart() {
    pause();
    ++m_generation; // a job still running for the old runner reports to nobody
    m_busy = false;
    emit brokerClosing();
    if (m_runner) {
        // Closing the old database is SQLite work: on the worker, before the new one opens.
        m_worker.start([old = std::move(m_runner)]() mutable { old.reset(); });
    }
    m_outcomes = QList<StepOutcome>(m_scenario.steps.size());
    m_next = 0;
    m_checksPassed = 0;
    m_checksFailed = 0;
    m_atEnd = false;
    if (!m_outcomes.isEmpty())
        emit stepsChanged(0, int(m_outcomes.size()) - 1);
    emit stateChanged();
    openRunner();
}

void ScenarioSession::setSpeed(double factor) {
    if (factor <= 0 || factor == m_speed)
        return;
    m_speed = factor;
    emit stateChanged();
}

bool ScenarioSession::nextIsRestart() const {
    return m_next < m_scenario.steps.size() &&
           std::holds_alternative<RestartStep>(m_scenario.steps.at(m_next).action);
}

void ScenarioSession::openRunner() {
    QPointer<ScenarioSession> self(this);
    const int generation = m_generation;
    QThread* gui = thread();
    m_worker.start([self, generation, gui, scenario = m_scenario] {
        auto created = ScenarioRunner::create(scenario);
        std::shared_ptr<ScenarioRunner> runner;
        std::optional<Error> error;
        if (created) {
            runner = std::move(created).value();
            // The change feed belongs to the thread that opened the broker; hand it to the GUI.
            runner->broker().changes()->moveToThread(gui);
        } else {
            error = created.error();
        }
        QMetaObject::invokeMethod(
            QCoreApplication::instance(),
            [self, generation, runner, error]() mutable {
                if (!self || generation != self->m_generation)
                    return; // replaced meanwhile; the runner closes with the last reference
                if (error) {
                    emit self->failed(*error);
                    return;
                }
                self->m_runner = std::move(runner);
                self->m_atEnd = self->m_runner->atEnd();
                emit self->ready(self->m_runner->sharedBroker());
                emit self->stateChanged();
            },
            Qt::QueuedConnection);
    });
}

void ScenarioSession::tick() {
    if (!m_playing || m_busy || !m_runner)
        return;
    const Millis wall = std::min<Millis>(m_wall.restart(), kMaxWallPerMove);
    const Millis budget = Millis(double(wall) * m_speed);
    if (nextIsRestart()) {
        const Instant due = m_runner->start() + m_scenario.steps.at(m_next).at;
        if (m_runner->clock()->now() + budget >= due)
            emit brokerClosing();
    }
    runJob(budget, false);
}

void ScenarioSession::runJob(Millis budget, bool oneStep) {
    m_busy = true;
    QPointer<ScenarioSession> self(this);
    QThread* gui = thread();
    auto progress = std::make_shared<Progress>();
    progress->generation = m_generation;
    progress->firstStep = m_next;
    m_worker.start([self, gui, progress, runner = m_runner, budget, oneStep] {
        const auto& steps = runner->scenario().steps;
        Instant target = runner->clock()->now() + budget;
        bool stoppedBeforeRestart = false;
        while (!runner->atEnd()) {
            const int index = progress->firstStep + progress->stepsRun;
            const bool isRestart = std::holds_alternative<RestartStep>(steps.at(index).action);
            if (oneStep ? progress->stepsRun > 0 : runner->start() + runner->nextStepAt() > target)
                break;
            if (isRestart && progress->stepsRun > 0) {
                stoppedBeforeRestart = true; // the window lets go of the broker first
                break;
            }
            runner->runNextStep();
            ++progress->stepsRun;
            // A clock jump step moved the clock past the target: the steps at its end run now.
            target = std::max(target, runner->clock()->now());
            if (isRestart) {
                // A database still held by the old broker (somebody kept it) is refused: the
                // runner stops, and the step's failure says why.
                if (!runner->sharedBroker()) {
                    progress->error = makeError(ErrorCode::GeneralError,
                                                QObject::tr("The scenario's database could not "
                                                            "be opened again after its restart."));
                    stoppedBeforeRestart = true;
                    break;
                }
                runner->broker().changes()->moveToThread(gui);
                progress->replacedBroker = runner->sharedBroker();
                stoppedBeforeRestart = true;
                break;
            }
        }
        // Past the last step the clock stays where the story ended.
        if (!oneStep && !stoppedBeforeRestart && !runner->atEnd()) {
            const Millis rest = target - runner->clock()->now();
            if (rest > 0) {
                // Time passing, not a jump: Broker::advanceClock would tell a recording.
                runner->clock()->advance(rest);
                runner->broker().runDue();
            }
        }
        progress->expectations = runner->expectationsSoFar();
        progress->atEnd = runner->atEnd();
        QMetaObject::invokeMethod(
            QCoreApplication::instance(),
            [self, progress] {
                if (self)
                    self->applyProgress(*progress);
            },
            Qt::QueuedConnection);
    });
}

void ScenarioSession::applyProgress(const Progress& progress) {
    if (progress.generation != m_generation)
        return;
    m_busy = false;
    for (int i = progress.firstStep; i < progress.firstStep + progress.stepsRun; ++i) {
        const ScenarioStep& step = m_scenario.steps.at(i);
        StepOutcome& outcome = m_outcomes[i];
        outcome.failures.clear();
        for (const ExpectationFailure& failure : progress.expectations.failures) {
            if (failure.step == step.index)
                outcome.failures << failure.line();
        }
        const bool checks = std::holds_alternative<ExpectStep>(step.action) || step.expectError;
        outcome.state = !outcome.failures.isEmpty() ? StepState::Failed
                        : checks                    ? StepState::Passed
                                                    : StepState::Done;
    }
    const int before = m_next;
    m_next = progress.firstStep + progress.stepsRun;
    m_checksPassed = progress.expectations.checksPassed;
    m_checksFailed = progress.expectations.checksFailed;
    m_atEnd = progress.atEnd;
    if (m_next != before)
        emit stepsChanged(before, std::min(m_next, int(m_outcomes.size()) - 1));
    if (progress.replacedBroker)
        emit ready(progress.replacedBroker);
    if (progress.error) {
        pause();
        emit failed(*progress.error);
    }
    if (m_atEnd) {
        const bool wasPlaying = m_playing;
        m_playing = false;
        m_timer.stop();
        if (wasPlaying || progress.stepsRun > 0)
            emit finished();
    }
    emit stateChanged();
}

} // namespace hourglass::ui
