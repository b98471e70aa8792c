// D1 and S4 under kill -9: a session holder writes session states (and sets some to null) and is
// killed at a random point. After each restart every session's state is the last one the child
// saw acknowledged for it, or the one write that may have been under way at the kill, whole;
// and no session is locked any more (S5).

#include "DurabilityCrashTest.h"

#include "ResultText.h"
#include "TestBroker.h"

#include <QTemporaryDir>
#include <QTest>

using namespace hourglass;
using namespace hourglass::durability;

namespace {

// The state a session may hold after the kill: what its last acknowledged write left, or what
// the write under way (at most one: the child writes one at a time) would leave.
struct Expected {
    bool written = false;            // an acknowledged write to the session
    std::optional<QByteArray> state; // what it left
    std::optional<qint64> inFlight;  // the write that may have been under way
};

QString describeState(const std::optional<QByteArray>& state) {
    if (!state)
        return QStringLiteral("null");
    return QStringLiteral("'%1...' (%2 bytes)")
        .arg(QString::fromLatin1(state->left(24)))
        .arg(state->size());
}

} // namespace

void DurabilityCrashTest::durability_D1_sessionStatesSurviveKill_data() {
    QTest::addColumn<Durability>("durability");
    QTest::newRow("power") << Durability::PowerSafe;
    QTest::newRow("process") << Durability::ProcessCrashSafe;
}

void DurabilityCrashTest::durability_D1_sessionStatesSurviveKill() {
    QFETCH(Durability, durability);

    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString db = dir.filePath(QStringLiteral("broker.db"));
    // One paused instant for child and test: no session lock runs out on its own.
    const Instant start = testing::kTestStart;
    EntityProperties properties = queueProperties();
    properties.requiresSession = true;
    {
        auto broker = open(db, durability, start);
        QVERIFY(broker);
        createQueue(*broker, properties);
        if (QTest::currentTestFailed())
            return;
    }

    QHash<QString, std::optional<QByteArray>> acknowledged; // session -> its last acked state
    qint64 next = 0;                                        // the first n the next round writes
    for (int round = 0; round < kRounds; ++round) {
        const int killAt = randomKillPoint(1, 300);
        const CrashedChild child =
            runChild({QString::fromLatin1(kModeSessionState), QStringLiteral("--db"), db,
                      QStringLiteral("--durability"), durabilityArgument(durability),
                      QStringLiteral("--clock-start"), QString::number(start),
                      QStringLiteral("--first"), QString::number(next)},
                     killAt);
        QVERIFY2(child.failure.isEmpty(), qPrintable(child.failure + "\n" + child.childStderr));
        QVERIFY2(child.killedBySignal,
                 qPrintable("the child was not killed mid-run: " + child.childStderr));
        for (const AckLine& ack : child.acks) {
            QCOMPARE(ack.kind, 'T');
            QCOMPARE(ack.sequenceNumber, next); // one write at a time, in order
            QCOMPARE(ack.messageId, sessionName(int(next)));
            acknowledged.insert(ack.messageId, stateFor(next));
            ++next;
        }
        // The write after the last acknowledged one may have been stored before the kill.
        const qint64 inFlight = next;
        ++next;

        auto broker = open(db, durability, start);
        QVERIFY(broker);
        checkEntity(*broker, properties);
        QStringList problems;
        for (int i = 0; i < kSessionCount; ++i) {
            const QString id = sessionName(i);
            const auto info = broker->session(kQueuePath, id);
            QVERIFY2(info.ok(), errorText(info).constData());
            const std::optional<QByteArray> stored =
                info->hasState ? std::optional<QByteArray>(info->state) : std::nullopt;
            const std::optional<QByteArray> before = acknowledged.value(id);
            const bool mayBeInFlight = sessionName(int(inFlight)) == id;
            if (stored != before && !(mayBeInFlight && stored == stateFor(inFlight)))
                problems << QStringLiteral("session %1 holds %2; acknowledged: %3%4")
                                .arg(id, describeState(stored), describeState(before))
                                .arg(mayBeInFlight ? QStringLiteral(", or in flight: %1")
                                                         .arg(describeState(stateFor(inFlight)))
                                                   : QString());
            if (info->hasState && info->stateSize != info->state.size())
                problems << QStringLiteral("session %1: size %2 for %3 bytes")
                                .arg(id)
                                .arg(info->stateSize)
                                .arg(info->state.size());
            if (!info->lockedBy.isEmpty())
                problems << QStringLiteral("session %1 is still locked by %2 (S5)")
                                .arg(id, info->lockedBy);
            // What the restart shows is what the session's next holder reads.
            const auto accepted = broker->acceptSession(kQueuePath, {QStringLiteral("test"), id});
            QVERIFY2(accepted.ok(), errorText(accepted).constData());
            const auto read = broker->sessionState(SessionRef::of(*accepted));
            QVERIFY2(read.ok(), errorText(read).constData());
            if (*read != stored)
                problems << QStringLiteral("session %1: the holder reads %2, the explorer %3")
                                .arg(id, describeState(*read), describeState(stored));
            acknowledged.insert(id, stored); // the in-flight write, when it made it, counts now
        }
        QVERIFY2(problems.isEmpty(),
                 qPrintable(QStringLiteral("after kill -9 at line %1 of round %2:\n  %3")
                                .arg(killAt)
                                .arg(round)
                                .arg(problems.join(QStringLiteral("\n  ")))));
    }
}
