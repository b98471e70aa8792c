#include "settle/LockBulkRun.h"

#include "common/BulkJob.h"
#include "settle/HeldLocks.h"

#include <mutex>

namespace hourglass::ui {

// Written by the worker running a chunk, read on the GUI thread once that chunk reported back.
struct LockBulkRun::FailureLog {
    std::mutex mutex;
    QHash<qint64, Error> errors; // guarded by mutex

    void record(qint64 sequenceNumber, const Error& error) {
        std::lock_guard lock(mutex);
        errors.insert(sequenceNumber, error);
    }
    std::optional<Error> find(qint64 sequenceNumber) {
        std::lock_guard lock(mutex);
        const auto found = errors.constFind(sequenceNumber);
        return found == errors.cend() ? std::nullopt : std::optional<Error>(*found);
    }
};

namespace {
QString titleOf(LockBulkRun::Action action, qsizetype count) {
    return action == LockBulkRun::Action::Complete
               ? QObject::tr("Completing %1 locks").arg(count)
               : QObject::tr("Dead-lettering %1 locks").arg(count);
}
} // namespace

LockBulkRun::LockBulkRun(BrokerClient& client, HeldLocks& locks, Action action,
                         const QList<qint64>& sequenceNumbers, const DeadLetterOptions& options,
                         QObject* parent)
    : QObject(parent)
    , m_locks(locks)
    , m_items(sequenceNumbers)
    , m_failures(std::make_shared<FailureLog>()) {
    // The refs are copied now: the steps never touch the GUI's model.
    QHash<qint64, LockRef> refs;
    for (qint64 sequenceNumber : sequenceNumbers)
        refs.insert(sequenceNumber, locks.lockRef(sequenceNumber));
    BulkJob::Step step = [refs, action, options,
                          failures = m_failures](Broker& broker, const QList<qint64>& chunk) {
        if (action == Action::Complete) {
            QList<LockRef> batch;
            for (qint64 sequenceNumber : chunk)
                batch.append(refs.value(sequenceNumber));
            const QList<Result<void>> results = broker.completeBatch(batch);
            for (int i = 0; i < chunk.size() && i < results.size(); ++i)
                if (!results.at(i))
                    failures->record(chunk.at(i), results.at(i).error());
        } else {
            for (qint64 sequenceNumber : chunk) {
                const Result<void> result = broker.deadLetter(refs.value(sequenceNumber), options);
                if (!result)
                    failures->record(sequenceNumber, result.error());
            }
        }
        return Result<void>();
    };
    m_job = new BulkJob(client, titleOf(action, sequenceNumbers.size()), m_items, std::move(step),
                        kChunkSize, this);
    connect(m_job, &BulkJob::progress, this, [this](int done, int) { applyUpTo(done); });
    connect(m_job, &BulkJob::finished, this, [this](int done, int, bool cancelled) {
        applyUpTo(done);
        emit ended(m_settled, m_failed, cancelled, m_firstError);
    });
    connect(m_job, &BulkJob::failed, this, [this](const Error& error, int done, int) {
        applyUpTo(done);
        if (m_firstError.isEmpty())
            m_firstError = error.toString();
        emit ended(m_settled, m_failed, false, m_firstError);
    });
}

LockBulkRun::~LockBulkRun() {
    if (m_job->running())
        m_job->cancel();
}

void LockBulkRun::start() {
    m_job->start();
}

void LockBulkRun::applyUpTo(int done) {
    done = std::min(done, int(m_items.size()));
    for (; m_applied < done; ++m_applied) {
        const qint64 sequenceNumber = m_items.at(m_applied);
        if (const auto error = m_failures->find(sequenceNumber)) {
            ++m_failed;
            if (m_firstError.isEmpty())
                m_firstError = error->toString();
            m_locks.lockFailed(sequenceNumber, *error);
        } else {
            ++m_settled;
            m_locks.remove(sequenceNumber);
        }
    }
}

} // namespace hourglass::ui
