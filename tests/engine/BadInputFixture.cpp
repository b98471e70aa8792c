#include "BadInputFixture.h"

#include "EngineChecks.h"

#include <QTest>

namespace hourglass::testing {

void BadInputFixture::populate(TestBroker& tb) {
    EntityProperties p;
    p.lockDuration = seconds(30);
    if (!tb->createQueue(kQueue, p) || !tb->createTopic(kTopic, {}) ||
        !tb->createSubscription(kSub, p))
        QFAIL("could not create the entities");
    for (int i = 0; i < 4; ++i) {
        if (!tb->send(kQueue, TestBroker::message(QStringLiteral("q%1").arg(i))) ||
            !tb->send(kTopic, TestBroker::message(QStringLiteral("t%1").arg(i))))
            QFAIL("could not send");
    }
    if (!tb->schedule(kQueue, TestBroker::message(QStringLiteral("later")), kTestStart + hours(1)))
        QFAIL("could not schedule");
    for (const QString& path : {kQueue, kSub}) {
        const auto got = tb->receive(path, peekLock(QStringLiteral("holder"), 3));
        if (!got || got->size() != 3)
            QFAIL("could not receive");
        if (!tb->deadLetter(LockRef::of(got->at(0)),
                            {QStringLiteral("r"), QStringLiteral("d"), {}}) ||
            !tb->defer(LockRef::of(got->at(1))))
            QFAIL("could not settle");
        // got->at(2) stays locked.
    }
}

Result<void> BadInputFixture::runOperation(Broker& b, const QString& op, const QString& path) {
    const OutgoingMessage m = TestBroker::message(QStringLiteral("x"));
    LockRef lock;
    lock.entityPath = path;
    lock.lockToken = QUuid::createUuid();
    lock.receiver = QStringLiteral("holder");
    if (op == QLatin1String("createQueue"))
        return asVoid(b.createQueue(path, {}));
    if (op == QLatin1String("createTopic"))
        return asVoid(b.createTopic(path, {}));
    if (op == QLatin1String("createSubscription"))
        return asVoid(b.createSubscription(path, {}));
    if (op == QLatin1String("updateEntity"))
        return asVoid(b.updateEntity(path, {}));
    if (op == QLatin1String("deleteEntity"))
        return b.deleteEntity(path);
    if (op == QLatin1String("entity"))
        return asVoid(b.entity(path));
    if (op == QLatin1String("addRule")) {
        Rule rule;
        rule.name = QStringLiteral("extra");
        rule.filterType = FilterType::False;
        return b.addRule(path, rule);
    }
    if (op == QLatin1String("removeRule"))
        return b.removeRule(path, QStringLiteral("$Default"));
    if (op == QLatin1String("send"))
        return asVoid(b.send(path, m));
    if (op == QLatin1String("sendBatch"))
        return asVoid(b.sendBatch(path, {m, m}));
    if (op == QLatin1String("schedule"))
        return asVoid(b.schedule(path, m, kTestStart + hours(2)));
    if (op == QLatin1String("cancelScheduled"))
        return b.cancelScheduled(path, 1);
    if (op == QLatin1String("receive"))
        return asVoid(b.receive(path, peekLock(QStringLiteral("r"))));
    if (op == QLatin1String("receiveDeferred"))
        return asVoid(b.receiveDeferred(path, 1, QStringLiteral("r")));
    if (op == QLatin1String("peek"))
        return asVoid(b.peek(path, 0, 10));
    if (op == QLatin1String("complete"))
        return b.complete(lock);
    if (op == QLatin1String("abandon"))
        return b.abandon(lock);
    if (op == QLatin1String("deadLetter"))
        return b.deadLetter(lock);
    if (op == QLatin1String("defer"))
        return b.defer(lock);
    if (op == QLatin1String("renewLock"))
        return asVoid(b.renewLock(lock));
    if (op == QLatin1String("listMessages"))
        return asVoid(b.listMessages(path, 0, 10));
    if (op == QLatin1String("message"))
        return asVoid(b.message(path, 1));
    if (op == QLatin1String("counts"))
        return asVoid(b.counts(path));
    if (op == QLatin1String("deadLetterReasons"))
        return asVoid(b.deadLetterReasons(path));
    return makeError(ErrorCode::GeneralError, QStringLiteral("test bug: unknown operation ") + op);
}

EntityProperties BadInputFixture::withStatus(EntityStatus status) {
    EntityProperties p;
    p.lockDuration = seconds(30);
    p.status = status;
    return p;
}

void BadInputFixture::applyBound(EntityProperties& p, const QString& name, qint64 value) {
    if (name == QLatin1String("DefaultMessageTimeToLive"))
        p.defaultMessageTimeToLive = value;
    else if (name == QLatin1String("LockDuration"))
        p.lockDuration = value;
    else if (name == QLatin1String("MaxDeliveryCount"))
        p.maxDeliveryCount = int(value);
    else if (name == QLatin1String("AutoDeleteOnIdle"))
        p.autoDeleteOnIdle = value;
    else if (name == QLatin1String("DuplicateDetectionHistoryTimeWindow")) {
        p.requiresDuplicateDetection = true;
        p.duplicateDetectionHistoryTimeWindow = value;
    } else if (name == QLatin1String("RequiresSession"))
        p.requiresSession = value != 0;
    else
        qFatal("test bug: unknown property %s", qPrintable(name));
}

} // namespace hourglass::testing
