#pragma once
// Plays a scenario (scenario-format.md) against a Broker on a VirtualClock: the UserConfig first,
// then every step in At order, advancing the clock to each step's At with Broker::advanceClock so
// that everything due on the way happens at its own instant. Expectations are checked as they come;
// a failed one is recorded and the run goes on.
//
// Headless runs call run(). A player that shows the timeline can instead call runNextStep()
// whenever the clock reaches nextStepAt().
//
// Threads: a runner is used from one thread at a time; the Broker it owns is itself thread-safe.

#include "hourglass/scenario/ScenarioFile.h"
#include "hourglass/scenario/ScenarioReport.h"

#include <QMap>
#include <QTemporaryDir>

#include <memory>
#include <optional>

namespace hourglass {

class ReceiverLocks;

struct ScenarioRunOptions {
    QString databasePath; // empty: a fresh temporary database, removed with the runner
    Durability durability = Durability::PowerSafe;
    // The clock's start; default: the current real time truncated to whole seconds.
    std::optional<Instant> start;
    // Who opens the database, as another opener is told while it runs (BrokerOptions::owner).
    QString owner = QStringLiteral("an Hourglass scenario run");
};

class ScenarioRunner {
public:
    // Opens the broker and applies the scenario's UserConfig. An error here (a corrupt database,
    // an entity that already exists...) means the scenario cannot run at all.
    static Result<std::unique_ptr<ScenarioRunner>> create(Scenario scenario,
                                                          const ScenarioRunOptions& options = {});
    ~ScenarioRunner();
    ScenarioRunner(const ScenarioRunner&) = delete;
    ScenarioRunner& operator=(const ScenarioRunner&) = delete;

    const Scenario& scenario() const { return m_scenario; }
    bool atEnd() const;
    // The offset of the next step from the start (only when !atEnd()).
    Millis nextStepAt() const;
    // Advances the clock to the next step's At and runs it.
    void runNextStep();
    // Runs every remaining step and returns the report.
    ScenarioReport run();
    // The report as of now: clock, every entity's state, expectations so far.
    ScenarioReport report() const;

    // Expectations checked so far (passed count and failures by step); cheap, unlike report().
    const ScenarioReport& expectationsSoFar() const { return m_report; }

    // The broker the scenario plays on. A Restart step replaces it (same database and clock):
    // whoever shares it (a window showing the scenario) must let go before that step runs, or
    // the old broker stays open beside the new one.
    Broker& broker() { return *m_broker; }
    std::shared_ptr<Broker> sharedBroker() const { return m_broker; }
    std::shared_ptr<VirtualClock> clock() const { return m_clock; }
    Instant start() const { return m_start; }

private:
    ScenarioRunner(Scenario scenario, const ScenarioRunOptions& options);
    Result<void> openBroker();
    Result<void> execute(const ScenarioStep& step);
    Result<void> send(const SendStep& step);
    Result<void> receive(const ReceiveStep& step);
    Result<void> receiveDeferred(const ReceiveDeferredStep& step);
    Result<void> settle(const SettleStep& step);
    Result<void> settleHeld(const LockRef& lock, Settlement action, const QString& reason,
                            const QString& description, const QVariantMap& properties);
    Result<void> cancelScheduled(const CancelScheduledStep& step);
    Result<void> create(const CreateStep& step);
    Result<void> update(const UpdateStep& step);
    Result<void> restart();
    Result<void> acceptSession(const AcceptSessionStep& step);
    Result<void> releaseSession(const ReleaseSessionStep& step);
    Result<void> setSessionState(const SessionStateStep& step);
    // The session `receiver` accepted on `path`, when it did (kept after the lock ends, as a
    // client keeps its receiver: the broker then says SessionLockLost).
    std::optional<SessionRef> sessionOf(const QString& receiver, const QString& path) const;
    void runStep(const ScenarioStep& step);

    Scenario m_scenario;
    ScenarioRunOptions m_options;
    std::unique_ptr<QTemporaryDir> m_temporaryDir; // when no database path was given
    std::shared_ptr<VirtualClock> m_clock;
    Instant m_start = 0;
    std::shared_ptr<Broker> m_broker;
    qsizetype m_next = 0;                   // index into m_scenario.steps
    bool m_stopped = false;                 // set when the broker could not be reopened
    std::unique_ptr<ReceiverLocks> m_locks; // private to scenario playback
    // Sequence numbers returned by scheduling sends, by "entity\nmessageId" (lower-case entity),
    // as a client keeps them to cancel later (L11).
    QMap<QString, QList<qint64>> m_scheduled;
    // The sessions receivers accepted, by "receiver\npath" (lower-case path).
    QMap<QString, SessionRef> m_sessions;
    ScenarioReport m_report; // expectations so far
};

} // namespace hourglass
