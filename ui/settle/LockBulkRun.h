#pragma once
// One bulk settlement of held locks (complete or dead-letter of a multi-selection) as a BulkJob:
// chunks of up to kChunkSize locks, one broker call each (completeBatch for completes: one disk
// sync per chunk). Each lock settles on its own, so a lock lost in the middle of a chunk does
// not stop the job: it is recorded and, once its chunk is back, marked lost in HeldLocks while
// the settled ones leave the list. Cancel stops between chunks; what was settled stays settled.
//
// Threads: GUI thread; the steps run on the client's workers and share only the failure log.

#include "hourglass/Broker.h"

#include <QHash>
#include <QObject>

#include <memory>

namespace hourglass::ui {

class BrokerClient;
class BulkJob;
class HeldLocks;

class LockBulkRun : public QObject {
    Q_OBJECT
public:
    enum class Action { Complete, DeadLetter };
    static constexpr int kChunkSize = 100;

    // `options` is used for DeadLetter only.
    LockBulkRun(BrokerClient& client, HeldLocks& locks, Action action,
                const QList<qint64>& sequenceNumbers, const DeadLetterOptions& options,
                QObject* parent = nullptr);
    ~LockBulkRun() override;

    BulkJob* job() const { return m_job; }
    void start();

signals:
    // The run is over. `error` is set when the job itself failed.
    void ended(int settled, int failed, bool cancelled, const QString& firstError);

private:
    struct FailureLog;
    void applyUpTo(int done);

    HeldLocks& m_locks;
    QList<qint64> m_items;
    std::shared_ptr<FailureLog> m_failures;
    BulkJob* m_job;
    int m_applied = 0;
    int m_settled = 0;
    int m_failed = 0;
    QString m_firstError;
};

} // namespace hourglass::ui
