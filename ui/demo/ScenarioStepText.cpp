#include "demo/ScenarioStepText.h"

#include "common/DurationText.h"

#include <QStringList>

namespace hourglass::ui {

namespace {

QString settlementText(Settlement settlement) {
    switch (settlement) {
    case Settlement::Complete:
        return QStringLiteral("complete");
    case Settlement::Abandon:
        return QStringLiteral("abandon");
    case Settlement::DeadLetter:
        return QStringLiteral("dead-letter");
    case Settlement::Defer:
        return QStringLiteral("defer");
    case Settlement::Hold:
        return QStringLiteral("hold the lock");
    case Settlement::RenewLock:
        return QStringLiteral("renew the lock");
    }
    return {};
}

QString withReason(QString text, const QString& reason) {
    if (!reason.isEmpty())
        text += QStringLiteral(" (%1)").arg(reason);
    return text;
}

QString messageRef(const QString& messageId, const std::optional<qint64>& sequenceNumber) {
    return !messageId.isEmpty() ? messageId : QStringLiteral("#%1").arg(sequenceNumber.value_or(0));
}

QString describeSend(const SendStep& s) {
    // One message is named by its id; a batch by its size.
    QString text = s.count == 1 && !s.system.messageId.isEmpty()
                       ? QStringLiteral("Send %1 to %2").arg(s.system.messageId, s.to)
                       : QStringLiteral("Send %1 to %2").arg(s.count).arg(s.to);
    if (s.system.timeToLive)
        text += QStringLiteral(" · TTL %1").arg(shortDuration(*s.system.timeToLive));
    if (s.scheduledEnqueueOffset)
        text +=
            QStringLiteral(" · scheduled for %1").arg(scenarioClockText(*s.scheduledEnqueueOffset));
    return text;
}

QString describeReceive(const ReceiveStep& s) {
    const QString who = s.receiver.isEmpty() ? QString() : QStringLiteral(" as %1").arg(s.receiver);
    if (s.mode == ReceiveMode::ReceiveAndDelete)
        return QStringLiteral("Receive and delete %1 from %2%3").arg(s.count).arg(s.from, who);
    return withReason(QStringLiteral("Receive %1 from %2%3 → %4")
                          .arg(s.count)
                          .arg(s.from, who, settlementText(s.then)),
                      s.reason);
}

QString describeExpect(const ExpectStep& s) {
    QStringList parts;
    const auto add = [&parts](const char* name, const std::optional<qint64>& value) {
        if (value)
            parts << QStringLiteral("%1 %2").arg(QLatin1String(name)).arg(*value);
    };
    if (s.exists)
        parts << (*s.exists ? QStringLiteral("exists") : QStringLiteral("does not exist"));
    add("Active", s.active);
    add("Scheduled", s.scheduled);
    add("Deferred", s.deferred);
    add("Locked", s.locked);
    add("Dead-lettered", s.deadLettered);
    if (s.deadLetterReasons) {
        QStringList reasons;
        for (auto it = s.deadLetterReasons->begin(); it != s.deadLetterReasons->end(); ++it)
            reasons << QStringLiteral("%1 %2").arg(it.key()).arg(it.value());
        parts << QStringLiteral("reasons {%1}").arg(reasons.join(QStringLiteral(", ")));
    }
    if (!s.messages.isEmpty())
        parts << (s.messages.size() == 1
                      ? QStringLiteral("message %1").arg(s.messages.first().messageId)
                      : QStringLiteral("%1 messages").arg(s.messages.size()));
    if (!s.sessions.isEmpty())
        parts << (s.sessions.size() == 1
                      ? QStringLiteral("session %1").arg(s.sessions.firstKey())
                      : QStringLiteral("sessions %1")
                            .arg(QStringList(s.sessions.keys()).join(QStringLiteral(", "))));
    return QStringLiteral("Expect %1: %2").arg(s.entity, parts.join(QStringLiteral(", ")));
}

QString describeCreate(const CreateStep& s) {
    switch (s.kind) {
    case EntityKind::Queue:
        return QStringLiteral("Create queue %1").arg(s.queue.name);
    case EntityKind::Topic:
        return QStringLiteral("Create topic %1").arg(s.topic.name);
    case EntityKind::Subscription:
        return QStringLiteral("Create subscription %1").arg(s.subscription.path());
    }
    return {};
}

QString describeAction(const StepAction& action) {
    if (const auto* s = std::get_if<SendStep>(&action))
        return describeSend(*s);
    if (const auto* s = std::get_if<ReceiveStep>(&action))
        return describeReceive(*s);
    if (const auto* s = std::get_if<ReceiveDeferredStep>(&action))
        return QStringLiteral("Receive deferred %1 from %2")
            .arg(messageRef(s->messageId, s->sequenceNumber), s->from);
    if (const auto* s = std::get_if<SettleStep>(&action))
        return withReason(
            QStringLiteral("%1: %2 %3").arg(s->receiver, settlementText(s->action), s->messageId),
            s->reason);
    if (const auto* s = std::get_if<CancelScheduledStep>(&action))
        return QStringLiteral("Cancel scheduled %1 in %2")
            .arg(messageRef(s->messageId, s->sequenceNumber), s->entity);
    if (const auto* s = std::get_if<CreateStep>(&action))
        return describeCreate(*s);
    if (const auto* s = std::get_if<UpdateStep>(&action))
        return QStringLiteral("Update %1: %2")
            .arg(s->entity, s->properties.keys().join(QStringLiteral(", ")));
    if (const auto* s = std::get_if<DeleteStep>(&action))
        return QStringLiteral("Delete %1").arg(s->entity);
    if (const auto* s = std::get_if<AddRuleStep>(&action))
        return QStringLiteral("Add rule %1 to %2").arg(s->rule.name, s->entity);
    if (const auto* s = std::get_if<RemoveRuleStep>(&action))
        return QStringLiteral("Remove rule %1 from %2").arg(s->name, s->entity);
    if (const auto* s = std::get_if<PeekStep>(&action))
        return QStringLiteral("Peek %1 from %2").arg(s->count).arg(s->from);
    if (const auto* s = std::get_if<AdvanceClockStep>(&action))
        return QStringLiteral("Jump the clock ahead %1").arg(shortDuration(s->by));
    if (std::holds_alternative<RestartStep>(action))
        return QStringLiteral("Restart the engine (as after a crash)");
    if (const auto* s = std::get_if<ExpectStep>(&action))
        return describeExpect(*s);
    if (const auto* s = std::get_if<AcceptSessionStep>(&action))
        return s->sessionId ? QStringLiteral("%1 accepts session %2 of %3")
                                  .arg(s->receiver, *s->sessionId, s->from)
                            : QStringLiteral("%1 accepts the next available session of %2")
                                  .arg(s->receiver, s->from);
    if (const auto* s = std::get_if<ReleaseSessionStep>(&action))
        return QStringLiteral("%1 releases its session of %2").arg(s->receiver, s->from);
    if (const auto* s = std::get_if<SessionStateStep>(&action))
        return s->state
                   ? QStringLiteral("%1 sets its session state on %2: %3")
                         .arg(s->receiver, s->from, *s->state)
                   : QStringLiteral("%1 removes its session state on %2").arg(s->receiver, s->from);
    return {};
}

} // namespace

QString scenarioClockText(Millis offset) {
    const qint64 totalSeconds = std::max<Millis>(offset, 0) / 1000;
    const qint64 hours = totalSeconds / 3600;
    const qint64 minutes = totalSeconds / 60 % 60;
    const qint64 seconds = totalSeconds % 60;
    const QString mmss =
        QStringLiteral("%1:%2")
            .arg(hours > 0 ? QStringLiteral("%1").arg(minutes, 2, 10, QLatin1Char('0'))
                           : QString::number(minutes))
            .arg(seconds, 2, 10, QLatin1Char('0'));
    return hours > 0 ? QStringLiteral("%1:%2").arg(hours).arg(mmss) : mmss;
}

QString describeScenarioStep(const ScenarioStep& step) {
    QString text = describeAction(step.action);
    if (step.expectError)
        text += QStringLiteral(" (expects %1)").arg(errorCodeName(*step.expectError));
    return text;
}

QString scenarioStepKind(const ScenarioStep& step) {
    return stepName(step.action);
}

} // namespace hourglass::ui
