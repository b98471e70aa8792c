#pragma once
// What the durability test and its child program (DurabilityChild.cpp) agree on: the command
// line, the shape of a message the child sends, and the acknowledgement lines it prints.
//
// The child prints one line per acknowledged operation, only after the engine returned success:
//   "S <messageId> <sequenceNumber>"            a send (send or sendBatch) is durable
//   "C <messageId> <sequenceNumber>"            a peek-lock completion is durable
//   "D <messageId> <sequenceNumber>"            a receive-and-delete handed the message out
//   "L <messageId> <sequenceNumber> <lockToken>" a peek-lock receive locked the message
//   "T <sessionId> <n>"                          the session's state is now stateFor(n) (S4)
// Every line ends with '\n'. Lines that belong to one engine call are written with one write()
// of less than PIPE_BUF bytes, so the test sees either all of them or none.

#include <QByteArray>
#include <QList>
#include <QString>
#include <QUuid>

#include <optional>

namespace hourglass::durability {

inline constexpr char kQueue[] = "durable";
// The child's receiver name: the test presents it with the child's lock tokens after the crash.
inline constexpr char kReceiver[] = "child";

// Child modes (first positional argument).
inline constexpr char kModeSend[] = "send";                    // send(), one at a time
inline constexpr char kModeSendBatch[] = "send-batch";         // sendBatch() of --batch messages
inline constexpr char kModeSendThreads[] = "send-threads";     // --threads threads calling send()
inline constexpr char kModeComplete[] = "complete";            // receive --batch, complete each
inline constexpr char kModeReceiveDelete[] = "receive-delete"; // receive-and-delete --batch
inline constexpr char kModeLock[] = "lock";                    // receive --batch, never settle
// A receiver stuck on poison messages: receive --batch, print the 'L' lines, abandon each (so it
// comes back until MaxDeliveryCount dead-letters it). Ends when the queue is empty.
inline constexpr char kModePoison[] = "poison";
// A session holder writing states (S4): accepts the sessions kSessions names on a queue that
// requires sessions, then sets state n = 0, 1, 2... on session n % kSessionCount, printing a
// 'T' line after each. Runs until killed.
inline constexpr char kModeSessionState[] = "session-state";
inline constexpr int kSessionCount = 3;
inline QString sessionName(int n) {
    return QStringLiteral("s%1").arg(n % kSessionCount);
}

// The state set by the n-th write: none for every fifth (a state set to null, S4), otherwise
// "state-<n>|" repeated to a size that changes with n (up to 7.5 KB), so that a torn, stale
// or swapped state shows.
inline std::optional<QByteArray> stateFor(qint64 n) {
    if (n % 5 == 4)
        return std::nullopt;
    const QByteArray unit = "state-" + QByteArray::number(n) + '|';
    QByteArray state;
    const qint64 size = 1 + (n % 4) * 2500;
    while (state.size() < size)
        state.append(unit);
    state.truncate(size);
    return state;
}

// Options (QCommandLineParser names).
inline constexpr char kOptDatabase[] = "db";
inline constexpr char kOptDurability[] = "durability";  // "power" or "process"
inline constexpr char kOptClockStart[] = "clock-start"; // paused VirtualClock; else SystemClock
inline constexpr char kOptPrefix[] = "prefix";          // message id prefix, unique per round
inline constexpr char kOptBatch[] = "batch";
inline constexpr char kOptThreads[] = "threads";
inline constexpr char kOptFirst[] = "first"; // session-state: the first n to write

inline constexpr int kBodySize = 1024;

// The body of the message with this id: the id repeated to 1 KB, so that a torn or swapped
// body is caught when the test reads it back.
inline QByteArray bodyFor(const QString& messageId) {
    const QByteArray unit = messageId.toUtf8() + '|';
    QByteArray body;
    body.reserve(kBodySize);
    while (body.size() < kBodySize)
        body.append(unit);
    body.truncate(kBodySize);
    return body;
}

struct AckLine {
    char kind = 0; // 'S', 'C', 'D', 'L' or 'T' (messageId is then the session id)
    QString messageId;
    qint64 sequenceNumber = 0;
    QUuid lockToken; // 'L' only
};

inline QByteArray formatAck(char kind, const QString& messageId, qint64 sequenceNumber,
                            const QUuid& lockToken = {}) {
    QByteArray line;
    line.append(kind).append(' ').append(messageId.toUtf8()).append(' ');
    line.append(QByteArray::number(sequenceNumber));
    if (kind == 'L')
        line.append(' ').append(lockToken.toByteArray(QUuid::WithoutBraces));
    line.append('\n');
    return line;
}

// Parses one line without its '\n'; nullopt when it is not a well-formed acknowledgement.
inline std::optional<AckLine> parseAck(const QByteArray& line) {
    const QList<QByteArray> parts = line.split(' ');
    if (parts.size() < 3 || parts[0].size() != 1)
        return std::nullopt;
    AckLine ack;
    ack.kind = parts[0][0];
    ack.messageId = QString::fromUtf8(parts[1]);
    bool ok = false;
    ack.sequenceNumber = parts[2].toLongLong(&ok);
    if (!ok)
        return std::nullopt;
    if (ack.kind == 'L') {
        if (parts.size() != 4)
            return std::nullopt;
        ack.lockToken = QUuid::fromString(QString::fromLatin1(parts[3]));
        if (ack.lockToken.isNull())
            return std::nullopt;
    } else if (parts.size() != 3 || QByteArrayLiteral("SCDT").indexOf(ack.kind) < 0) {
        return std::nullopt;
    }
    return ack;
}

} // namespace hourglass::durability
