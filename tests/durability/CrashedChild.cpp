#include "CrashedChild.h"

#include <QProcess>

#include <csignal>
#include <sys/types.h>

namespace hourglass::durability {

namespace {

// Generous: a line normally arrives within milliseconds; only a hung child waits this long.
constexpr int kLineTimeoutMs = 60000;

// Takes every complete line out of `buffer` into `acks`; false (and `failure`) on a bad line.
bool takeLines(QByteArray& buffer, QList<AckLine>& acks, QString& failure) {
    for (qsizetype end = buffer.indexOf('\n'); end >= 0; end = buffer.indexOf('\n')) {
        const QByteArray line = buffer.left(end);
        buffer.remove(0, end + 1);
        const auto ack = parseAck(line);
        if (!ack) {
            failure =
                QStringLiteral("malformed line from the child: %1").arg(QString::fromUtf8(line));
            return false;
        }
        acks.append(*ack);
    }
    return true;
}

} // namespace

CrashedChild CrashedChild::run(const QString& program, const QStringList& arguments,
                               int killAfterLines) {
    CrashedChild result;
    QProcess process;
    process.setProcessChannelMode(QProcess::SeparateChannels);
    process.start(program, arguments);
    if (!process.waitForStarted(kLineTimeoutMs)) {
        result.failure = QStringLiteral("cannot start %1: %2").arg(program, process.errorString());
        return result;
    }

    QByteArray pending; // a partial line waits here for its end
    while (result.acks.size() < killAfterLines && result.failure.isEmpty()) {
        if (process.bytesAvailable() == 0 && !process.waitForReadyRead(kLineTimeoutMs)) {
            result.failure =
                process.state() == QProcess::NotRunning
                    ? QStringLiteral("the child exited after %1 of %2 lines")
                          .arg(result.acks.size())
                          .arg(killAfterLines)
                    : QStringLiteral("no line from the child for %1 ms").arg(kLineTimeoutMs);
            break;
        }
        pending.append(process.readAllStandardOutput());
        takeLines(pending, result.acks, result.failure);
    }

    if (process.state() != QProcess::NotRunning) {
        // The crash under test: no chance for the child to flush, close or checkpoint anything.
        ::kill(static_cast<pid_t>(process.processId()), SIGKILL);
    }
    process.waitForFinished(kLineTimeoutMs);
    result.killedBySignal = process.exitStatus() == QProcess::CrashExit && result.failure.isEmpty();
    // Lines the child wrote before it died but that we had not read yet count too. A trailing
    // partial line (none is expected: each block is one atomic write) was never acknowledged.
    pending.append(process.readAllStandardOutput());
    if (result.failure.isEmpty())
        takeLines(pending, result.acks, result.failure);
    result.childStderr = QString::fromUtf8(process.readAllStandardError());
    return result;
}

} // namespace hourglass::durability
