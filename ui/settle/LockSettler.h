#pragma once
// The settlements of a Lock panel, off the GUI thread: complete, abandon, dead-letter and defer
// of chosen held locks (one broker call for the lot), a bulk complete or dead-letter as a
// background job with progress (LockBulkRun, shown in a BulkProgressBar), and renew. Results go
// to HeldLocks (settled rows leave, MessageLockLost marks a lock lost) and out as signals.
//
// Threads: GUI thread only.

#include "hourglass/Broker.h"
#include "settle/LockBulkRun.h"

#include <QObject>
#include <QPointer>

class QWidget;

namespace hourglass::ui {

class BrokerClient;
class BulkProgressBar;
class HeldLocks;

class LockSettler : public QObject {
    Q_OBJECT
public:
    enum class Settle { Complete, Abandon, DeadLetter, Defer };

    LockSettler(BrokerClient& client, HeldLocks& locks, BulkProgressBar& bar,
                QObject* parent = nullptr);

    // What a Settle button does with the chosen locks: a complete goes at once; abandon, defer
    // and dead-letter first ask for their details in a SettleDialog opened over `dialogParent`,
    // which keeps their locks alive while it is open (a LockAutoRenewer of its own) and says so.
    // Several locks complete or dead-letter as a bulk job.
    void run(Settle kind, const QList<qint64>& sequenceNumbers, QWidget* dialogParent);
    // `properties` serve abandon and defer; `deadLetter` serves dead-letter.
    void settle(Settle kind, const QList<qint64>& sequenceNumbers, const QVariantMap& properties,
                const DeadLetterOptions& deadLetter);
    // Complete or DeadLetter only; refused while another bulk job runs.
    void startBulk(Settle kind, const QList<qint64>& sequenceNumbers,
                   const DeadLetterOptions& deadLetter);
    void renew(const QList<qint64>& sequenceNumbers);
    // Drops the replies of calls already under way (the panel switched entity).
    void forget();
    LockBulkRun* bulk() const { return m_bulk; }

signals:
    void result(const QString& text);
    void failed(const hourglass::Error& error);
    void deferred(qint64 sequenceNumber);

private:
    BrokerClient& m_client;
    HeldLocks& m_locks;
    BulkProgressBar& m_bar;
    quint64 m_generation = 0;
    QPointer<LockBulkRun> m_bulk;
};

} // namespace hourglass::ui
