#include "hourglass/scenario/ScenarioRecorder.h"

#include "ScenarioWriter.h"
#include "hourglass/EntityPath.h"
#include "hourglass/scenario/ScenarioReport.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <algorithm>
#include <array>

namespace hourglass {

using namespace scenario_writing;
using Kind = BrokerOperation::Kind;

namespace {

QString scheduledKey(const QString& path, const QString& tail) {
    return path.toLower() + u'\n' + tail;
}

// "1 move", "2 moves": singular and plural of each left-out kind, in LeftOut order.
struct Noun {
    const char* one;
    const char* many;
};
constexpr std::array<Noun, 8> kLeftOutNouns{{
    {"message delete", "message deletes"},
    {"copy", "copies"},
    {"move", "moves"},
    {"resubmit", "resubmits"},
    {"settlement of a message received before recording",
     "settlements of messages received before recording"},
    {"entity created outside the first namespace", "entities created outside the first namespace"},
    {"session lock renewal while message locks were held",
     "session lock renewals while message locks were held"},
    {"call under a session accepted before recording",
     "calls under sessions accepted before recording"},
}};

QString qualifiedKey(const QString& namespaceName, const QString& path) {
    return (namespaceName + u':' + path).toLower();
}

} // namespace

Result<void> ScenarioRecorder::begin(const Broker& broker) {
    const Instant now = broker.clock().now();
    QJsonArray namespaces;
    qint64 messages = 0;
    QSet<QString> entitiesAtStart;
    const QList<NamespaceInfo> all = broker.namespaces();
    for (const NamespaceInfo& ns : all) {
        const auto exported = exportUserConfig(broker, ns.name);
        if (!exported)
            return exported.error();
        for (const QJsonValue& value : exported->value(QStringLiteral("Namespaces")).toArray())
            namespaces.append(value);
    }
    for (const EntityInfo& info : broker.entities()) {
        entitiesAtStart.insert(qualifiedKey(info.namespaceName, info.path));
        const EntityCounts& c = info.counts;
        messages += c.active + c.scheduled + c.deferred + c.locked + c.deadLettered;
    }
    std::lock_guard lock(m_mutex);
    if (isCancelled()) // cancelled while the broker was read
        return Error::make(ErrorCode::InvalidArgument,
                           QStringLiteral("This recording was cancelled; start a new one."));
    m_recording = true;
    m_start = now;
    m_startedOn = QDateTime::currentDateTime();
    m_firstNamespace = all.isEmpty() ? QString() : all.first().name;
    m_userConfig = QJsonObject{{QStringLiteral("Namespaces"), namespaces}};
    m_entitiesAtStart = std::move(entitiesAtStart);
    m_messagesAtStart = messages;
    m_steps.clear();
    m_endStep.reset();
    m_locks.clear();
    m_scheduledIds.clear();
    m_scheduledIdUses.clear();
    m_leftOut.clear();
    m_binaryBodies = 0;
    m_binaryStates = 0;
    m_sessions.clear();
    return {};
}

void ScenarioRecorder::finish(const Broker& broker) {
    const Instant now = broker.clock().now();
    // A scenario has no "wait" step; a check that changes nothing carries the clock as far.
    const QList<EntityInfo> entities = broker.entities();
    std::lock_guard lock(m_mutex);
    if (!m_recording)
        return;
    m_recording = false;
    const Millis end = now - m_start;
    const Millis last =
        m_steps.isEmpty()
            ? 0
            : std::max_element(m_steps.begin(), m_steps.end(), [](const Step& a, const Step& b) {
                  return a.at < b.at;
              })->at;
    if (end <= last)
        return;
    // The entity checked must exist on replay: one of the first namespace (in the start or
    // created by a recorded step) or one the start holds; an entity created elsewhere is not
    // in the file.
    const auto inTheFile = [this](const EntityInfo& info) {
        return info.namespaceName.compare(m_firstNamespace, Qt::CaseInsensitive) == 0 ||
               m_entitiesAtStart.contains(qualifiedKey(info.namespaceName, info.path));
    };
    const auto found = std::find_if(entities.begin(), entities.end(), inTheFile);
    if (found == entities.end())
        return;
    const QString path = found->namespaceName + u':' + found->path;
    m_endStep = Step{
        end, QStringLiteral("Expect"),
        QJsonObject{{QStringLiteral("Entity"), pathOf(path)}, {QStringLiteral("Exists"), true}}};
}

void ScenarioRecorder::cancel() {
    m_cancelled.store(true);
    std::lock_guard lock(m_mutex);
    m_recording = false;
}

bool ScenarioRecorder::isCancelled() const {
    return m_cancelled.load();
}

void ScenarioRecorder::setTitle(const QString& title) {
    std::lock_guard lock(m_mutex);
    m_title = title;
}

bool ScenarioRecorder::isRecording() const {
    std::lock_guard lock(m_mutex);
    return m_recording;
}

int ScenarioRecorder::stepCount() const {
    std::lock_guard lock(m_mutex);
    return static_cast<int>(m_steps.size());
}

Instant ScenarioRecorder::startedAt() const {
    std::lock_guard lock(m_mutex);
    return m_start;
}

QMap<ScenarioRecorder::LeftOut, int> ScenarioRecorder::leftOut() const {
    std::lock_guard lock(m_mutex);
    return m_leftOut;
}

void ScenarioRecorder::addStep(Instant at, const QString& name, const QJsonObject& body) {
    m_steps.append(Step{std::max<Millis>(0, at - m_start), name, body});
}

// Paths of the first namespace are written unqualified, as the bundled scenarios are; a replay
// applies the namespaces in the same order, so other qualified paths stay valid as they are.
QString ScenarioRecorder::pathOf(const QString& path) const {
    const EntityPath parts = EntityPath::of(path);
    if (!parts.namespaceName().isEmpty() &&
        parts.namespaceName().compare(m_firstNamespace, Qt::CaseInsensitive) == 0)
        return parts.path();
    return path;
}

void ScenarioRecorder::operationDone(const BrokerOperation& op) {
    std::lock_guard lock(m_mutex);
    if (!m_recording)
        return;
    switch (op.kind) {
    case Kind::Send:
        recordSend(op);
        return;
    case Kind::Receive:
    case Kind::ReceiveDeferred:
        recordReceived(op);
        return;
    case Kind::Complete:
    case Kind::Abandon:
    case Kind::DeadLetter:
    case Kind::Defer:
    case Kind::RenewLock:
        recordSettle(op);
        return;
    case Kind::CancelScheduled:
        recordCancel(op);
        return;
    case Kind::Peek: {
        QJsonObject body{{QStringLiteral("From"), pathOf(op.path)},
                         {QStringLiteral("Count"), std::max(1, op.maxCount)}};
        if (op.fromSequenceNumber > 0)
            body.insert(QStringLiteral("FromSequenceNumber"), op.fromSequenceNumber);
        addStep(op.at, QStringLiteral("Peek"), body);
        return;
    }
    case Kind::CreateEntity:
    case Kind::UpdateEntity:
    case Kind::DeleteEntity:
    case Kind::AddRule:
    case Kind::RemoveRule:
    case Kind::ReplaceRule:
        recordEntityChange(op);
        return;
    case Kind::DeleteMessages:
        ++m_leftOut[LeftOut::MessageDelete];
        return;
    case Kind::TransferMessages:
        ++m_leftOut[op.transfer == Broker::Transfer::Copy ? LeftOut::Copy : LeftOut::Move];
        return;
    case Kind::Resubmit:
        ++m_leftOut[LeftOut::Resubmit];
        return;
    case Kind::AcceptSession:
    case Kind::RenewSessionLock:
    case Kind::ReleaseSession:
    case Kind::ReleaseSessions:
    case Kind::SetSessionState:
        recordSession(op);
        return;
    case Kind::AdvanceClock:
        // Its own step: a replay jumps too, rather than playing the skipped time through.
        addStep(op.at, QStringLiteral("AdvanceClock"),
                QJsonObject{{QStringLiteral("By"), formatIsoDuration(op.clockDelta)}});
        return;
    }
}

void ScenarioRecorder::recordSend(const BrokerOperation& op) {
    const QString to = pathOf(op.path);
    for (qsizetype i = 0; i < op.messages.size(); ++i) {
        const SendResult result = i < op.sendResults.size() ? op.sendResults[i] : SendResult{};
        if (result.duplicate)
            continue; // L13: acknowledged and dropped; it changed nothing
        const OutgoingMessage& message = op.messages[i];
        bool binary = false;
        addStep(op.at, QStringLiteral("Send"), sendStep(to, message, m_start, &binary));
        m_binaryBodies += binary ? 1 : 0;
        if (result.scheduled && !message.messageId.isEmpty()) {
            m_scheduledIds.insert(scheduledKey(to, QString::number(result.sequenceNumber)),
                                  message.messageId);
            ++m_scheduledIdUses[scheduledKey(to, message.messageId)];
        }
    }
}

void ScenarioRecorder::recordReceived(const BrokerOperation& op) {
    const QString from = pathOf(op.path);
    // The runner sends a receiver's receives through the session it accepted in the file.
    if (!op.session.sessionId.isEmpty() &&
        !holdsSession(op.session.receiver, from, op.session.sessionId)) {
        ++m_leftOut[LeftOut::ForeignSession];
        return;
    }
    if (op.kind == Kind::ReceiveDeferred) {
        const MessageView& view = op.messagesOut.first();
        QJsonObject body{{QStringLiteral("From"), from}};
        if (!view.messageId.isEmpty())
            body.insert(QStringLiteral("MessageId"), view.messageId);
        else
            body.insert(QStringLiteral("SequenceNumber"), view.sequenceNumber);
        if (!op.receiver.isEmpty())
            body.insert(QStringLiteral("Receiver"), op.receiver);
        addStep(op.at, QStringLiteral("ReceiveDeferred"), body);
        m_locks.insert(view.lockToken, HeldLock{op.receiver, view.messageId});
        return;
    }
    const bool peekLock = op.receiveOptions.mode == ReceiveMode::PeekLock;
    QJsonObject body{{QStringLiteral("From"), from},
                     {QStringLiteral("Mode"),
                      peekLock ? QStringLiteral("PeekLock") : QStringLiteral("ReceiveAndDelete")},
                     {QStringLiteral("Count"), std::max(1, op.receiveOptions.maxCount)}};
    if (!op.receiveOptions.receiver.isEmpty())
        body.insert(QStringLiteral("Receiver"), op.receiveOptions.receiver);
    if (peekLock)
        body.insert(QStringLiteral("Then"), settlementName(Settlement::Hold));
    addStep(op.at, QStringLiteral("Receive"), body);
    if (!peekLock)
        return;
    for (const MessageView& view : op.messagesOut)
        m_locks.insert(view.lockToken, HeldLock{op.receiveOptions.receiver, view.messageId});
}

void ScenarioRecorder::recordSettle(const BrokerOperation& op) {
    const Settlement action = *settlementOf(op.kind);
    for (const LockRef& lock : op.locks) {
        const auto held = m_locks.constFind(lock.lockToken);
        if (held == m_locks.cend() || held->messageId.isEmpty()) {
            ++m_leftOut[LeftOut::ForeignLockSettlement];
            continue;
        }
        addStep(op.at, QStringLiteral("Settle"),
                settleStep(held->receiver, held->messageId, action, op.deadLetter.reason,
                           op.deadLetter.description,
                           action == Settlement::DeadLetter ? op.deadLetter.propertiesToModify
                                                            : op.propertiesToModify));
        if (action != Settlement::RenewLock)
            m_locks.erase(held);
    }
}

void ScenarioRecorder::recordCancel(const BrokerOperation& op) {
    const QString entity = pathOf(op.path);
    const qint64 sequenceNumber = op.sequenceNumbers.value(0);
    const QString id = m_scheduledIds.value(scheduledKey(entity, QString::number(sequenceNumber)));
    QJsonObject body{{QStringLiteral("Entity"), entity}};
    // By MessageId when it names one scheduled message of the recording: a replay numbers
    // messages afresh. Otherwise by number, which holds when nothing came before the recording.
    if (!id.isEmpty() && m_scheduledIdUses.value(scheduledKey(entity, id)) == 1)
        body.insert(QStringLiteral("MessageId"), id);
    else
        body.insert(QStringLiteral("SequenceNumber"), sequenceNumber);
    addStep(op.at, QStringLiteral("CancelScheduled"), body);
}

void ScenarioRecorder::recordEntityChange(const BrokerOperation& op) {
    const QString path = pathOf(op.path);
    switch (op.kind) {
    case Kind::CreateEntity:
        // A Create step makes its entity in the first namespace.
        if (op.entity.namespaceName.compare(m_firstNamespace, Qt::CaseInsensitive) != 0) {
            ++m_leftOut[LeftOut::ForeignNamespaceCreate];
            return;
        }
        addStep(op.at, QStringLiteral("Create"), createStep(op.entity.path, op.entity));
        return;
    case Kind::UpdateEntity:
        addStep(op.at, QStringLiteral("Update"), updateStep(path, op.entity));
        forgetSessionsUnder(path); // E5, S5: its session locks are lost
        return;
    case Kind::DeleteEntity:
        addStep(op.at, QStringLiteral("Delete"), {{QStringLiteral("Entity"), path}});
        forgetSessionsUnder(path);
        return;
    case Kind::AddRule:
        addStep(op.at, QStringLiteral("AddRule"),
                {{QStringLiteral("Entity"), path}, {QStringLiteral("Rule"), op.rule.toJson()}});
        return;
    case Kind::RemoveRule:
        addStep(op.at, QStringLiteral("RemoveRule"),
                {{QStringLiteral("Entity"), path}, {QStringLiteral("Name"), op.ruleName}});
        return;
    case Kind::ReplaceRule: // a scenario has no replace step: the same outcome in two steps
        addStep(op.at, QStringLiteral("RemoveRule"),
                {{QStringLiteral("Entity"), path}, {QStringLiteral("Name"), op.ruleName}});
        addStep(op.at, QStringLiteral("AddRule"),
                {{QStringLiteral("Entity"), path}, {QStringLiteral("Rule"), op.rule.toJson()}});
        return;
    default:
        return;
    }
}

bool ScenarioRecorder::holdsSession(const QString& receiver, const QString& from,
                                    const QString& sessionId) const {
    for (auto it = m_sessions.constFind(receiver); it != m_sessions.cend() && it.key() == receiver;
         ++it) {
        if (it->from.compare(from, Qt::CaseInsensitive) == 0)
            return it->sessionId == sessionId;
    }
    return false;
}

void ScenarioRecorder::forgetSession(const QString& receiver, const QString& from) {
    for (auto it = m_sessions.find(receiver); it != m_sessions.end() && it.key() == receiver;) {
        if (it->from.compare(from, Qt::CaseInsensitive) == 0)
            it = m_sessions.erase(it);
        else
            ++it;
    }
}

void ScenarioRecorder::forgetSessionsUnder(const QString& path) {
    const QString below = path + u'/';
    for (auto it = m_sessions.begin(); it != m_sessions.end();) {
        if (it->from.compare(path, Qt::CaseInsensitive) == 0 ||
            it->from.startsWith(below, Qt::CaseInsensitive))
            it = m_sessions.erase(it);
        else
            ++it;
    }
}

void ScenarioRecorder::addSessionStep(Instant at, const QString& name, const QString& receiver,
                                      const QString& from, QJsonObject body) {
    body.insert(QStringLiteral("From"), from);
    if (!receiver.isEmpty())
        body.insert(QStringLiteral("Receiver"), receiver);
    addStep(at, name, body);
}

void ScenarioRecorder::recordSession(const BrokerOperation& op) {
    const QString from = pathOf(op.path);
    const QString& receiver = op.session.receiver;
    const QString& sessionId = op.session.sessionId;
    const auto accept = [&] {
        // Named, also when the call asked for the next available one: the replay takes the same.
        addSessionStep(op.at, QStringLiteral("AcceptSession"), receiver, from,
                       {{QStringLiteral("SessionId"), sessionId}});
        m_sessions.insert(receiver, HeldSession{from, sessionId, op.lockedUntil});
    };
    const auto release = [&](const QString& holder, const QString& path) {
        addSessionStep(op.at, QStringLiteral("ReleaseSession"), holder, path, {});
        forgetSession(holder, path);
    };
    if (op.kind == Kind::AcceptSession) {
        forgetSession(receiver, from); // the runner's receiver lets go of the one it held there
        accept();
        return;
    }
    if (op.kind == Kind::ReleaseSessions) {
        // Only those still held: a lock that ran out meanwhile is gone on replay too.
        QStringList held;
        for (auto it = m_sessions.constFind(op.receiver);
             it != m_sessions.cend() && it.key() == op.receiver; ++it) {
            if (it->lockedUntil > op.at)
                held.append(it->from);
        }
        m_sessions.remove(op.receiver);
        for (const QString& path : held)
            addSessionStep(op.at, QStringLiteral("ReleaseSession"), op.receiver, path, {});
        return;
    }
    if (!holdsSession(receiver, from, sessionId)) {
        ++m_leftOut[LeftOut::ForeignSession];
        return;
    }
    switch (op.kind) {
    case Kind::ReleaseSession:
        release(receiver, from);
        return;
    case Kind::RenewSessionLock: {
        // Released and accepted again at once: the same end, unless message locks held under
        // it would be lost on the way (S5).
        const bool holdsMessageLocks =
            std::any_of(m_locks.cbegin(), m_locks.cend(),
                        [&](const HeldLock& lock) { return lock.receiver == receiver; });
        if (holdsMessageLocks) {
            ++m_leftOut[LeftOut::SessionRenewal];
            return;
        }
        release(receiver, from);
        accept();
        return;
    }
    case Kind::SetSessionState: {
        QJsonValue state(QJsonValue::Null);
        if (op.sessionState) {
            const QString text = QString::fromUtf8(*op.sessionState);
            m_binaryStates += text.toUtf8() == *op.sessionState ? 0 : 1;
            state = text;
        }
        addSessionStep(op.at, QStringLiteral("SessionState"), receiver, from,
                       {{QStringLiteral("State"), state}});
        return;
    }
    default:
        return;
    }
}

Result<void> ScenarioRecorder::addExpectation(const Broker& broker, const QString& path) {
    const QString entityPath = EntityPath::of(path).owner().toString();
    const Instant now = broker.clock().now();
    const auto info = broker.entity(entityPath);
    if (!info && info.error().code != ErrorCode::MessagingEntityNotFound)
        return info.error();
    std::optional<QMap<QString, qint64>> reasons;
    if (info && info->kind != EntityKind::Topic) {
        const auto read = broker.deadLetterReasons(entityPath);
        if (!read)
            return read.error();
        reasons = *read;
    }
    std::lock_guard lock(m_mutex);
    if (!m_recording)
        return makeError(ErrorCode::InvalidArgument,
                         QStringLiteral("Nothing is being recorded: start a recording first."));
    addStep(
        now, QStringLiteral("Expect"),
        expectStep(pathOf(entityPath), info.ok(), info ? info->counts : EntityCounts{}, reasons));
    return {};
}

QString ScenarioRecorder::description() const {
    std::lock_guard lock(m_mutex);
    return describeLocked();
}

QString ScenarioRecorder::leftOutText() const {
    std::lock_guard lock(m_mutex);
    return leftOutLocked();
}

QString ScenarioRecorder::leftOutLocked() const {
    QStringList left;
    for (auto it = m_leftOut.begin(); it != m_leftOut.end(); ++it) {
        const Noun& noun = kLeftOutNouns.at(static_cast<std::size_t>(it.key()));
        left << counted(it.value(), noun.one, noun.many);
    }
    return left.join(QStringLiteral(", "));
}

QString ScenarioRecorder::describeLocked() const {
    QString text = QStringLiteral("Recorded in Hourglass on %1.")
                       .arg(m_startedOn.toString(QStringLiteral("yyyy-MM-dd HH:mm")));
    if (const QString left = leftOutLocked(); !left.isEmpty())
        text += QStringLiteral(" Left out (no scenario step): %1.").arg(left);
    if (m_messagesAtStart > 0)
        text += u' ' + counted(m_messagesAtStart, "message", "messages") +
                QStringLiteral(" already there when recording began are not included.");
    if (m_binaryBodies > 0)
        text += u' ' + counted(m_binaryBodies, "binary body is", "binary bodies are") +
                QStringLiteral(" written as text.");
    if (m_binaryStates > 0)
        text += u' ' +
                counted(m_binaryStates, "binary session state is", "binary session states are") +
                QStringLiteral(" written as text.");
    return text;
}

QByteArray ScenarioRecorder::toJson() const {
    std::lock_guard lock(m_mutex);
    QList<Step> steps = m_steps;
    if (m_endStep)
        steps.append(*m_endStep);
    // Operations from several threads may be reported out of turn; the file plays in At order.
    std::stable_sort(steps.begin(), steps.end(),
                     [](const Step& a, const Step& b) { return a.at < b.at; });
    QJsonArray array;
    for (const Step& step : steps)
        array.append(
            QJsonObject{{QStringLiteral("At"), formatOffset(step.at)}, {step.name, step.body}});
    const QString title = m_title.isEmpty()
                              ? QStringLiteral("Recorded %1")
                                    .arg(m_startedOn.toString(QStringLiteral("yyyy-MM-dd HH:mm")))
                              : m_title;
    const QJsonObject scenario{{QStringLiteral("Title"), title},
                               {QStringLiteral("Description"), describeLocked()},
                               {QStringLiteral("Steps"), array}};
    return QJsonDocument(QJsonObject{{QStringLiteral("UserConfig"), m_userConfig},
                                     {QStringLiteral("Scenario"), scenario}})
        .toJson(QJsonDocument::Indented);
}

} // namespace hourglass
