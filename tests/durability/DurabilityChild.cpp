// The child program of the durability test: it opens a Broker on a database the test prepared and
// works on the queue until it is killed (kill -9), printing one line per acknowledged operation
// (ChildProtocol.h). The test compares those lines with what the reopened database holds (D1, D2).

#include "ChildProtocol.h"
#include "hourglass/Broker.h"

#include <QCommandLineParser>
#include <QCoreApplication>

#include <cstdio>
#include <mutex>
#include <thread>
#include <vector>

#include <climits>
#include <csignal>
#include <sys/prctl.h>
#include <unistd.h>

using namespace hourglass;
using namespace hourglass::durability;

namespace {

// A safety net only: the test kills the child long before it gets there.
constexpr qint64 kMaxOperations = 1000000;

const QString kQueuePath = QString::fromLatin1(kQueue);
const QString kReceiverName = QString::fromLatin1(kReceiver);

std::mutex g_outputMutex;

// Writes acknowledgement lines with one write(2) straight to the pipe: no stdio buffer can hold
// an acknowledgement back, and a block under PIPE_BUF reaches the reader whole or not at all.
void acknowledge(const QByteArray& lines) {
    if (lines.size() > PIPE_BUF) {
        std::fprintf(stderr, "acknowledgement block of %lld bytes exceeds PIPE_BUF\n",
                     static_cast<long long>(lines.size()));
        std::_Exit(4);
    }
    std::lock_guard lock(g_outputMutex);
    if (::write(STDOUT_FILENO, lines.constData(), size_t(lines.size())) != lines.size())
        std::_Exit(5); // the test is gone or the pipe broke: nothing left to report to
}

[[noreturn]] void fail(const char* what, const Error& error) {
    std::fprintf(stderr, "%s failed: %s\n", what, qPrintable(error.toString()));
    std::fflush(stderr);
    std::_Exit(3);
}

OutgoingMessage messageFor(const QString& messageId, qint64 ordinal) {
    OutgoingMessage message;
    message.messageId = messageId;
    message.body = bodyFor(messageId);
    message.applicationProperties.insert(QStringLiteral("n"), ordinal);
    return message;
}

QString messageIdFor(const QString& prefix, qint64 ordinal) {
    return QStringLiteral("%1-%2").arg(prefix).arg(ordinal, 6, 10, QLatin1Char('0'));
}

void sendOneAtATime(Broker& broker, const QString& prefix) {
    for (qint64 i = 0; i < kMaxOperations; ++i) {
        const QString id = messageIdFor(prefix, i);
        const auto sent = broker.send(kQueuePath, messageFor(id, i));
        if (!sent)
            fail("send", sent.error());
        acknowledge(formatAck('S', id, sent->sequenceNumber));
    }
}

void sendBatches(Broker& broker, const QString& prefix, int batchSize) {
    for (qint64 first = 0; first < kMaxOperations; first += batchSize) {
        QList<OutgoingMessage> batch;
        QStringList ids;
        for (qint64 i = first; i < first + batchSize; ++i) {
            ids.append(messageIdFor(prefix, i));
            batch.append(messageFor(ids.last(), i));
        }
        const auto sent = broker.sendBatch(kQueuePath, batch);
        if (!sent)
            fail("sendBatch", sent.error());
        if (sent->size() != batch.size()) {
            std::fprintf(stderr, "sendBatch returned %lld results for %lld messages\n",
                         static_cast<long long>(sent->size()),
                         static_cast<long long>(batch.size()));
            std::_Exit(3);
        }
        QByteArray lines;
        for (qsizetype i = 0; i < ids.size(); ++i)
            lines.append(formatAck('S', ids[i], sent->at(i).sequenceNumber));
        acknowledge(lines);
    }
}

void sendFromThreads(Broker& broker, const QString& prefix, int threadCount) {
    std::vector<std::thread> threads;
    for (int t = 0; t < threadCount; ++t)
        threads.emplace_back([&broker, threadPrefix = QStringLiteral("%1-t%2").arg(prefix).arg(t)] {
            sendOneAtATime(broker, threadPrefix);
        });
    for (auto& thread : threads)
        thread.join();
}

QList<MessageView> receiveOrFail(Broker& broker, ReceiveMode mode, int maxCount) {
    ReceiveOptions options;
    options.mode = mode;
    options.maxCount = maxCount;
    options.receiver = kReceiverName;
    auto received = broker.receive(kQueuePath, options);
    if (!received)
        fail("receive", received.error());
    return std::move(received).value();
}

// Each mode below ends when the queue has nothing left to hand out.
void completeAll(Broker& broker, int batchSize) {
    for (;;) {
        const auto messages = receiveOrFail(broker, ReceiveMode::PeekLock, batchSize);
        if (messages.isEmpty())
            return;
        for (const auto& message : messages) {
            const auto completed = broker.complete(LockRef::of(message));
            if (!completed)
                fail("complete", completed.error());
            acknowledge(formatAck('C', message.messageId, message.sequenceNumber));
        }
    }
}

void receiveAndDeleteAll(Broker& broker, int batchSize) {
    for (;;) {
        const auto messages = receiveOrFail(broker, ReceiveMode::ReceiveAndDelete, batchSize);
        if (messages.isEmpty())
            return;
        QByteArray lines;
        for (const auto& message : messages)
            lines.append(formatAck('D', message.messageId, message.sequenceNumber));
        acknowledge(lines);
    }
}

// What a receiver does with each message it locked: keep the lock until it dies, or abandon it
// so that the next receive hands it out again.
enum class AfterLock { Hold, Abandon };

// The 'L' lines go out after the receive returned and before any abandon: a kill between them
// leaves deliveries that only the broker's own stored count remembers (D2).
void lockAll(Broker& broker, int batchSize, AfterLock after) {
    for (;;) {
        const auto messages = receiveOrFail(broker, ReceiveMode::PeekLock, batchSize);
        if (messages.isEmpty())
            return;
        QByteArray lines;
        for (const auto& message : messages)
            lines.append(
                formatAck('L', message.messageId, message.sequenceNumber, message.lockToken));
        acknowledge(lines);
        if (after == AfterLock::Hold)
            continue;
        for (const auto& message : messages) {
            const auto abandoned = broker.abandon(LockRef::of(message));
            if (!abandoned)
                fail("abandon", abandoned.error());
        }
    }
}

// S4: states written by a session holder. The sessions were unlocked by the crash (S5), so each
// round accepts them again.
void writeSessionStates(Broker& broker, qint64 first) {
    QList<SessionRef> sessions;
    for (int i = 0; i < kSessionCount; ++i) {
        const auto accepted = broker.acceptSession(kQueuePath, {kReceiverName, sessionName(i)});
        if (!accepted)
            fail("acceptSession", accepted.error());
        sessions.append(SessionRef::of(*accepted));
    }
    for (qint64 n = first; n < first + kMaxOperations; ++n) {
        const auto set = broker.setSessionState(sessions[int(n % kSessionCount)], stateFor(n));
        if (!set)
            fail("setSessionState", set.error());
        acknowledge(formatAck('T', sessionName(int(n)), n));
    }
}

} // namespace

int main(int argc, char* argv[]) {
    // If the test dies first, the child must not go on writing into its database forever.
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    QCoreApplication app(argc, argv);

    QCommandLineParser parser;
    parser.addPositionalArgument(QStringLiteral("mode"), QStringLiteral("what to do until killed"));
    parser.addOption(
        {QString::fromLatin1(kOptDatabase), QStringLiteral("database"), QStringLiteral("path")});
    parser.addOption({QString::fromLatin1(kOptDurability), QStringLiteral("power|process"),
                      QStringLiteral("level"), QStringLiteral("power")});
    parser.addOption({QString::fromLatin1(kOptClockStart), QStringLiteral("virtual clock start"),
                      QStringLiteral("ms")});
    parser.addOption({QString::fromLatin1(kOptPrefix), QStringLiteral("message id prefix"),
                      QStringLiteral("prefix"), QStringLiteral("m")});
    parser.addOption({QString::fromLatin1(kOptBatch), QStringLiteral("messages per call"),
                      QStringLiteral("n"), QStringLiteral("1")});
    parser.addOption({QString::fromLatin1(kOptThreads), QStringLiteral("sending threads"),
                      QStringLiteral("n"), QStringLiteral("4")});
    parser.addOption({QString::fromLatin1(kOptFirst), QStringLiteral("first state number"),
                      QStringLiteral("n"), QStringLiteral("0")});
    parser.process(app);

    const QStringList positional = parser.positionalArguments();
    const QString mode = positional.value(0);
    const QString durability = parser.value(QString::fromLatin1(kOptDurability));
    const int batch = parser.value(QString::fromLatin1(kOptBatch)).toInt();
    const int threads = parser.value(QString::fromLatin1(kOptThreads)).toInt();
    if (positional.size() != 1 || batch < 1 || threads < 1 ||
        (durability != QLatin1String("power") && durability != QLatin1String("process"))) {
        std::fprintf(stderr, "bad command line\n");
        return 2;
    }

    BrokerOptions options;
    options.databasePath = parser.value(QString::fromLatin1(kOptDatabase));
    options.durability =
        durability == QLatin1String("power") ? Durability::PowerSafe : Durability::ProcessCrashSafe;
    if (parser.isSet(QString::fromLatin1(kOptClockStart)))
        options.clock = std::make_shared<VirtualClock>(
            parser.value(QString::fromLatin1(kOptClockStart)).toLongLong());
    auto opened = Broker::open(options);
    if (!opened)
        fail("Broker::open", opened.error());
    Broker& broker = *opened.value();
    const QString prefix = parser.value(QString::fromLatin1(kOptPrefix));

    if (mode == QLatin1String(kModeSend))
        sendOneAtATime(broker, prefix);
    else if (mode == QLatin1String(kModeSendBatch))
        sendBatches(broker, prefix, batch);
    else if (mode == QLatin1String(kModeSendThreads))
        sendFromThreads(broker, prefix, threads);
    else if (mode == QLatin1String(kModeComplete))
        completeAll(broker, batch);
    else if (mode == QLatin1String(kModeReceiveDelete))
        receiveAndDeleteAll(broker, batch);
    else if (mode == QLatin1String(kModeLock))
        lockAll(broker, batch, AfterLock::Hold);
    else if (mode == QLatin1String(kModePoison))
        lockAll(broker, batch, AfterLock::Abandon);
    else if (mode == QLatin1String(kModeSessionState))
        writeSessionStates(broker, parser.value(QString::fromLatin1(kOptFirst)).toLongLong());
    else {
        std::fprintf(stderr, "unknown mode %s\n", qPrintable(mode));
        return 2;
    }
    return 0;
}
