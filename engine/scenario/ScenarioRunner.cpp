#include "hourglass/scenario/ScenarioRunner.h"

#include "MessageLookup.h"
#include "ReceiverLocks.h"
#include "ScenarioExpect.h"

#include <QJsonArray>

#include <cmath>

namespace hourglass {

namespace {

const QString kDatabaseFileName = QStringLiteral("scenario.db");

QString substitute(const QString& text, int n) {
    return QString(text).replace(QStringLiteral("{n}"), QString::number(n));
}

// A String property gets {n} replaced; other types are sent as the file typed them.
QVariant propertyValue(const QVariant& value, int n) {
    if (value.typeId() == QMetaType::QString)
        return substitute(value.toString(), n);
    return value;
}

OutgoingMessage buildMessage(const SendStep& step, int n) {
    OutgoingMessage message;
    message.systemProperties() = step.system;
    for (const SystemTextProperty& property : kSystemTextProperties)
        message.*property.member = substitute(message.*property.member, n);
    message.body = substitute(step.body, n).toUtf8();
    for (auto it = step.properties.begin(); it != step.properties.end(); ++it)
        message.applicationProperties.insert(substitute(it.key(), n), propertyValue(it.value(), n));
    return message;
}

QString scheduledKey(const QString& entity, const QString& messageId) {
    return entity.toLower() + u'\n' + messageId;
}

QString sessionKey(const QString& receiver, const QString& path) {
    return receiver + u'\n' + path.toLower();
}

Error noSession(const QString& receiver, const QString& path) {
    return makeError(
        ErrorCode::SessionLockLost,
        QStringLiteral("receiver '%1' accepted no session on '%2'").arg(receiver, path));
}

// The main path a step works on, for the lines printed about it.
QString describe(const ScenarioStep& step) {
    const StepAction& a = step.action;
    QString path;
    if (const auto* s = std::get_if<SendStep>(&a))
        path = s->to;
    else if (const auto* s = std::get_if<ReceiveStep>(&a))
        path = s->from;
    else if (const auto* s = std::get_if<ReceiveDeferredStep>(&a))
        path = s->from;
    else if (const auto* s = std::get_if<SettleStep>(&a))
        path = s->messageId;
    else if (const auto* s = std::get_if<CancelScheduledStep>(&a))
        path = s->entity;
    else if (const auto* s = std::get_if<CreateStep>(&a))
        path = s->kind == EntityKind::Queue   ? s->queue.name
               : s->kind == EntityKind::Topic ? s->topic.name
                                              : s->subscription.path();
    else if (const auto* s = std::get_if<UpdateStep>(&a))
        path = s->entity;
    else if (const auto* s = std::get_if<DeleteStep>(&a))
        path = s->entity;
    else if (const auto* s = std::get_if<AddRuleStep>(&a))
        path = s->entity;
    else if (const auto* s = std::get_if<RemoveRuleStep>(&a))
        path = s->entity;
    else if (const auto* s = std::get_if<PeekStep>(&a))
        path = s->from;
    else if (const auto* s = std::get_if<ExpectStep>(&a))
        path = s->entity;
    else if (const auto* s = std::get_if<AcceptSessionStep>(&a))
        path = s->from;
    else if (const auto* s = std::get_if<ReleaseSessionStep>(&a))
        path = s->from;
    else if (const auto* s = std::get_if<SessionStateStep>(&a))
        path = s->from;
    return path.isEmpty() ? stepName(a) : stepName(a) + u' ' + path;
}

QString qualifiedPath(const Broker& broker, const EntityInfo& info) {
    const auto namespaces = broker.namespaces();
    if (namespaces.isEmpty() ||
        namespaces.first().name.compare(info.namespaceName, Qt::CaseInsensitive) == 0)
        return info.path;
    return info.namespaceName + u':' + info.path;
}

// Every entity's counts, to show that a step that failed as expected changed nothing.
QMap<QString, EntityCounts> snapshot(const Broker& broker) {
    QMap<QString, EntityCounts> counts;
    for (const EntityInfo& info : broker.entities())
        counts.insert(qualifiedPath(broker, info), info.counts);
    return counts;
}

QString describeChanges(const QMap<QString, EntityCounts>& before,
                        const QMap<QString, EntityCounts>& after) {
    QStringList changed;
    for (auto it = before.begin(); it != before.end(); ++it) {
        if (!after.contains(it.key()))
            changed << it.key() + QStringLiteral(" deleted");
        else if (!(after.value(it.key()) == it.value()))
            changed << it.key() + QStringLiteral(" counts changed");
    }
    for (auto it = after.begin(); it != after.end(); ++it) {
        if (!before.contains(it.key()))
            changed << it.key() + QStringLiteral(" created");
    }
    return changed.join(QStringLiteral(", "));
}

QJsonValue errorValue(const Error& error) {
    return QStringLiteral("%1: %2").arg(errorCodeName(error.code), error.description);
}

} // namespace

ScenarioRunner::ScenarioRunner(Scenario scenario, const ScenarioRunOptions& options)
    : m_scenario(std::move(scenario))
    , m_options(options)
    , m_locks(std::make_unique<ReceiverLocks>()) {
    m_start = options.start.value_or(VirtualClock::realNow() / 1000 * 1000);
    m_clock = std::make_shared<VirtualClock>(m_start);
}

ScenarioRunner::~ScenarioRunner() = default;

Result<std::unique_ptr<ScenarioRunner>> ScenarioRunner::create(Scenario scenario,
                                                               const ScenarioRunOptions& options) {
    std::unique_ptr<ScenarioRunner> runner(new ScenarioRunner(std::move(scenario), options));
    if (runner->m_options.databasePath.isEmpty()) {
        runner->m_temporaryDir = std::make_unique<QTemporaryDir>();
        if (!runner->m_temporaryDir->isValid())
            return makeError(ErrorCode::GeneralError,
                             QStringLiteral("cannot create a temporary directory: %1")
                                 .arg(runner->m_temporaryDir->errorString()));
        runner->m_options.databasePath = runner->m_temporaryDir->filePath(kDatabaseFileName);
    }
    if (auto opened = runner->openBroker(); !opened)
        return opened.error();
    if (auto applied = applyUserConfig(*runner->m_broker, runner->m_scenario.userConfig); !applied)
        return applied.error();
    return runner;
}

Result<void> ScenarioRunner::openBroker() {
    BrokerOptions options;
    options.databasePath = m_options.databasePath;
    options.durability = m_options.durability;
    options.clock = m_clock;
    options.owner = m_options.owner;
    auto opened = Broker::open(options);
    if (!opened)
        return opened.error();
    m_broker = std::move(opened).value();
    return {};
}

bool ScenarioRunner::atEnd() const {
    return m_stopped || m_next >= m_scenario.steps.size();
}

Millis ScenarioRunner::nextStepAt() const {
    return m_scenario.steps.at(m_next).at;
}

void ScenarioRunner::runNextStep() {
    if (atEnd())
        return;
    const ScenarioStep& step = m_scenario.steps.at(m_next++);
    const qsizetype failuresBefore = m_report.failures.size();
    runStep(step);
    if (m_report.failures.size() > failuresBefore)
        ++m_report.checksFailed;
    else if (std::holds_alternative<ExpectStep>(step.action) || step.expectError)
        ++m_report.checksPassed;
}

ScenarioReport ScenarioRunner::run() {
    while (!atEnd())
        runNextStep();
    return report();
}

void ScenarioRunner::runStep(const ScenarioStep& step) {
    ExpectationRecorder recorder(m_report, step, describe(step));
    const Millis delta = m_start + step.at - m_clock->now();
    if (delta > 0) {
        // Time passing up to the step, not a jump: an observer of this broker (a recording)
        // hears only of AdvanceClock steps.
        m_clock->advance(delta);
        m_broker->runDue();
    }
    if (const auto* expect = std::get_if<ExpectStep>(&step.action)) {
        checkExpectations(*m_broker, m_start, *expect, recorder);
        return;
    }
    if (!step.expectError) {
        if (auto result = execute(step); !result)
            recorder.fail(QStringLiteral("Error"), QStringLiteral("success"),
                          errorValue(result.error()));
        return;
    }
    // The step must fail with the expected code, and change nothing.
    const auto before = snapshot(*m_broker);
    const auto result = execute(step);
    const QString expectedCode = errorCodeName(*step.expectError);
    if (result.ok()) {
        recorder.fail(QStringLiteral("ExpectError"), expectedCode, QStringLiteral("success"));
        return;
    }
    if (result.error().code != *step.expectError) {
        recorder.fail(QStringLiteral("ExpectError"), expectedCode, errorValue(result.error()));
        return;
    }
    if (m_stopped) {
        recorder.pass();
        return;
    }
    const QString changes = describeChanges(before, snapshot(*m_broker));
    if (changes.isEmpty())
        recorder.pass();
    else
        recorder.fail(QStringLiteral("ExpectError"),
                      expectedCode + QStringLiteral(" and no change"),
                      expectedCode + QStringLiteral(" but ") + changes);
}

Result<void> ScenarioRunner::execute(const ScenarioStep& step) {
    const StepAction& a = step.action;
    if (const auto* s = std::get_if<SendStep>(&a))
        return send(*s);
    if (const auto* s = std::get_if<ReceiveStep>(&a))
        return receive(*s);
    if (const auto* s = std::get_if<ReceiveDeferredStep>(&a))
        return receiveDeferred(*s);
    if (const auto* s = std::get_if<SettleStep>(&a))
        return settle(*s);
    if (const auto* s = std::get_if<CancelScheduledStep>(&a))
        return cancelScheduled(*s);
    if (const auto* s = std::get_if<CreateStep>(&a))
        return create(*s);
    if (const auto* s = std::get_if<UpdateStep>(&a))
        return update(*s);
    if (const auto* s = std::get_if<DeleteStep>(&a))
        return m_broker->deleteEntity(s->entity);
    if (const auto* s = std::get_if<AddRuleStep>(&a))
        return m_broker->addRule(s->entity, s->rule);
    if (const auto* s = std::get_if<RemoveRuleStep>(&a))
        return m_broker->removeRule(s->entity, s->name);
    if (const auto* s = std::get_if<PeekStep>(&a)) {
        const auto peeked = m_broker->peek(s->from, s->fromSequenceNumber, s->count);
        if (!peeked)
            return peeked.error();
        return {};
    }
    if (std::holds_alternative<RestartStep>(a))
        return restart();
    if (const auto* s = std::get_if<AcceptSessionStep>(&a))
        return acceptSession(*s);
    if (const auto* s = std::get_if<ReleaseSessionStep>(&a))
        return releaseSession(*s);
    if (const auto* s = std::get_if<SessionStateStep>(&a))
        return setSessionState(*s);
    if (const auto* s = std::get_if<AdvanceClockStep>(&a))
        return m_broker->advanceClock(s->by);
    return {}; // Expect is checked by runStep
}

Result<void> ScenarioRunner::send(const SendStep& step) {
    if (step.scheduledEnqueueOffset) {
        const Instant enqueueAt = m_start + *step.scheduledEnqueueOffset;
        for (int n = 1; n <= step.count; ++n) {
            const OutgoingMessage message = buildMessage(step, n);
            const auto sent = m_broker->schedule(step.to, message, enqueueAt);
            if (!sent)
                return sent.error();
            m_scheduled[scheduledKey(step.to, message.messageId)].append(sent->sequenceNumber);
        }
        return {};
    }
    if (step.count == 1) {
        const auto sent = m_broker->send(step.to, buildMessage(step, 1));
        if (!sent)
            return sent.error();
        return {};
    }
    // One batch: all or nothing, and one disk sync for the whole burst (L2).
    QList<OutgoingMessage> batch;
    batch.reserve(step.count);
    for (int n = 1; n <= step.count; ++n)
        batch.append(buildMessage(step, n));
    const auto sent = m_broker->sendBatch(step.to, batch);
    if (!sent)
        return sent.error();
    return {};
}

Result<void> ScenarioRunner::settleHeld(const LockRef& lock, Settlement action,
                                        const QString& reason, const QString& description,
                                        const QVariantMap& properties) {
    switch (action) {
    case Settlement::Complete:
        return m_broker->complete(lock);
    case Settlement::Abandon:
        return m_broker->abandon(lock, properties);
    case Settlement::DeadLetter:
        return m_broker->deadLetter(lock, DeadLetterOptions{reason, description, properties});
    case Settlement::Defer:
        return m_broker->defer(lock, properties);
    case Settlement::RenewLock: {
        const auto renewed = m_broker->renewLock(lock);
        if (!renewed)
            return renewed.error();
        return {};
    }
    case Settlement::Hold:
        break;
    }
    return {};
}

Result<void> ScenarioRunner::receive(const ReceiveStep& step) {
    const std::optional<SessionRef> session = sessionOf(step.receiver, step.from);
    const auto received =
        session ? m_broker->receiveFromSession(*session, step.mode, step.count)
                : m_broker->receive(step.from, {step.mode, step.count, step.receiver});
    if (!received)
        return received.error();
    if (step.mode == ReceiveMode::ReceiveAndDelete)
        return {};
    for (const MessageView& message : *received) {
        if (step.then == Settlement::Hold) {
            m_locks->hold(step.receiver, message);
            continue;
        }
        LockRef lock = LockRef::of(message);
        lock.receiver = step.receiver;
        if (auto settled = settleHeld(lock, step.then, step.reason, step.description, {}); !settled)
            return settled;
    }
    return {};
}

Result<void> ScenarioRunner::receiveDeferred(const ReceiveDeferredStep& step) {
    qint64 sequenceNumber = step.sequenceNumber.value_or(0);
    if (!step.sequenceNumber) {
        const auto found = findInPath(*m_broker, step.from, [&](const MessageView& view) {
            return view.messageId == step.messageId && view.state == MessageState::Deferred;
        });
        if (!found)
            return makeError(
                ErrorCode::MessageNotFound,
                QStringLiteral("no deferred message '%1' in '%2'").arg(step.messageId, step.from));
        sequenceNumber = found->sequenceNumber;
    }
    const std::optional<SessionRef> session = sessionOf(step.receiver, step.from);
    const auto received = session
                              ? m_broker->receiveDeferredFromSession(*session, sequenceNumber)
                              : m_broker->receiveDeferred(step.from, sequenceNumber, step.receiver);
    if (!received)
        return received.error();
    if (step.then == Settlement::Hold) {
        m_locks->hold(step.receiver, *received);
        return {};
    }
    LockRef lock = LockRef::of(*received);
    lock.receiver = step.receiver;
    return settleHeld(lock, step.then, step.reason, step.description, {});
}

Result<void> ScenarioRunner::settle(const SettleStep& step) {
    const auto held = m_locks->find(step.receiver, step.messageId);
    LockRef lock;
    if (held) {
        lock = held->lock;
    } else if (const auto other = m_locks->findElsewhere(step.receiver, step.messageId)) {
        // Settling a lock another receiver holds must fail with a lock-lost error (L9); let the
        // broker say so rather than the runner.
        lock = other->lock;
        lock.receiver = step.receiver;
    } else {
        return makeError(ErrorCode::MessageLockLost,
                         QStringLiteral("receiver '%1' never received message '%2'")
                             .arg(step.receiver, step.messageId));
    }
    return settleHeld(lock, step.action, step.reason, step.description, step.properties);
}

Result<void> ScenarioRunner::cancelScheduled(const CancelScheduledStep& step) {
    if (step.sequenceNumber)
        return m_broker->cancelScheduled(step.entity, *step.sequenceNumber);
    // The number the send returned, as a client keeps it; cancelling twice asks the broker twice.
    const QList<qint64> recorded = m_scheduled.value(scheduledKey(step.entity, step.messageId));
    if (!recorded.isEmpty())
        return m_broker->cancelScheduled(step.entity, recorded.last());
    const auto found = findInPath(*m_broker, step.entity, [&](const MessageView& view) {
        return view.messageId == step.messageId && view.state == MessageState::Scheduled;
    });
    if (!found)
        return makeError(
            ErrorCode::MessageNotFound,
            QStringLiteral("no scheduled message '%1' in '%2'").arg(step.messageId, step.entity));
    return m_broker->cancelScheduled(step.entity, found->sequenceNumber);
}

Result<void> ScenarioRunner::create(const CreateStep& step) {
    switch (step.kind) {
    case EntityKind::Queue:
        return createConfigQueue(*m_broker, {}, step.queue);
    case EntityKind::Topic:
        return createConfigTopic(*m_broker, {}, step.topic);
    case EntityKind::Subscription:
        return createConfigSubscription(*m_broker, {}, step.subscription);
    }
    return {};
}

Result<void> ScenarioRunner::update(const UpdateStep& step) {
    const auto current = m_broker->entity(step.entity);
    if (!current)
        return current.error();
    const auto properties = EntityProperties::fromJson(step.properties, current->properties);
    if (!properties)
        return properties.error();
    const auto updated = m_broker->updateEntity(step.entity, *properties);
    if (!updated)
        return updated.error();
    return {};
}

Result<void> ScenarioRunner::restart() {
    // As after a crash: the engine goes away with everything volatile (locks, L9) and the same
    // database opens again on the same clock (D2). The receivers keep their lock tokens, as a
    // client would, and learn from the broker that they are gone.
    m_broker.reset();
    if (auto opened = openBroker(); !opened) {
        m_stopped = true;
        return opened.error();
    }
    return {};
}

std::optional<SessionRef> ScenarioRunner::sessionOf(const QString& receiver,
                                                    const QString& path) const {
    const auto it = m_sessions.constFind(sessionKey(receiver, path));
    if (it == m_sessions.cend())
        return std::nullopt;
    return it.value();
}

Result<void> ScenarioRunner::acceptSession(const AcceptSessionStep& step) {
    const auto accepted = m_broker->acceptSession(step.from, {step.receiver, step.sessionId});
    if (!accepted)
        return accepted.error();
    // A receiver that accepts another session on the entity lets go of the one it held here
    // (its lock stays until it runs out, as a client's abandoned receiver's would).
    m_sessions.insert(sessionKey(step.receiver, step.from), SessionRef::of(*accepted));
    return {};
}

Result<void> ScenarioRunner::releaseSession(const ReleaseSessionStep& step) {
    const auto session = sessionOf(step.receiver, step.from);
    if (!session)
        return noSession(step.receiver, step.from);
    m_sessions.remove(sessionKey(step.receiver, step.from));
    return m_broker->releaseSession(*session);
}

Result<void> ScenarioRunner::setSessionState(const SessionStateStep& step) {
    const auto session = sessionOf(step.receiver, step.from);
    if (!session)
        return noSession(step.receiver, step.from);
    std::optional<QByteArray> state;
    if (step.state)
        state = step.state->toUtf8();
    return m_broker->setSessionState(*session, state);
}

ScenarioReport ScenarioRunner::report() const {
    ScenarioReport report = m_report;
    report.clock = m_clock->now() - m_start;
    if (!m_broker)
        return report;
    for (const EntityInfo& info : m_broker->entities()) {
        EntityReport entity;
        entity.path = qualifiedPath(*m_broker, info);
        entity.counts = info.counts;
        // Topics have no dead-letter queue of their own; they report no reasons.
        if (info.kind != EntityKind::Topic) {
            if (const auto reasons = m_broker->deadLetterReasons(entity.path))
                entity.deadLetterReasons = *reasons;
        }
        report.entities.append(entity);
    }
    return report;
}

} // namespace hourglass
