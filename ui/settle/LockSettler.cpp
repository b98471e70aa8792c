#include "settle/LockSettler.h"

#include "common/BrokerClient.h"
#include "common/BulkJob.h"
#include "common/BulkProgressBar.h"
#include "common/RemoteConfirm.h"
#include "settle/HeldLocks.h"
#include "settle/LockAutoRenewer.h"
#include "settle/LockBulkRun.h"
#include "settle/SettleDialog.h"

#include <utility>
#include <vector>

namespace hourglass::ui {

namespace {
QString verbOf(LockSettler::Settle kind) {
    switch (kind) {
    case LockSettler::Settle::Complete:
        return QObject::tr("Completed");
    case LockSettler::Settle::Abandon:
        return QObject::tr("Abandoned");
    case LockSettler::Settle::DeadLetter:
        return QObject::tr("Dead-lettered");
    case LockSettler::Settle::Defer:
        return QObject::tr("Deferred");
    }
    return {};
}

Result<void> apply(Broker& b, LockSettler::Settle kind, const LockRef& ref,
                   const QVariantMap& properties, const DeadLetterOptions& deadLetter) {
    switch (kind) {
    case LockSettler::Settle::Complete:
        return b.complete(ref);
    case LockSettler::Settle::Abandon:
        return b.abandon(ref, properties);
    case LockSettler::Settle::DeadLetter:
        return b.deadLetter(ref, deadLetter);
    case LockSettler::Settle::Defer:
        return b.defer(ref, properties);
    }
    return makeError(ErrorCode::InvalidArgument, QStringLiteral("unknown settlement"));
}
} // namespace

LockSettler::LockSettler(BrokerClient& client, HeldLocks& locks, BulkProgressBar& bar,
                         QObject* parent)
    : QObject(parent)
    , m_client(client)
    , m_locks(locks)
    , m_bar(bar) {}

void LockSettler::forget() {
    ++m_generation;
    // Deleting the run cancels its job and drops the chunk under way: its sequence numbers
    // belong to the entity the panel just left.
    delete m_bulk.data();
}

void LockSettler::run(Settle kind, const QList<qint64>& sequenceNumbers, QWidget* dialogParent) {
    const bool bulk = sequenceNumbers.size() > 1;
    if (kind == Settle::Complete)
        return bulk ? startBulk(kind, sequenceNumbers, {}) : settle(kind, sequenceNumbers, {}, {});
    const auto dialogKind = kind == Settle::Abandon ? SettleDialog::Kind::Abandon
                            : kind == Settle::Defer ? SettleDialog::Kind::Defer
                                                    : SettleDialog::Kind::DeadLetter;
    auto* dialog = new SettleDialog(dialogKind, int(sequenceNumbers.size()), dialogParent);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    // The dialog is the question: on a remote namespace it names it.
    dialog->showRemoteNamespace(remoteNamespaceLine(m_client));
    // Reading the dialog and typing a reason can outlast a short lock: the dialog's locks are
    // renewed while it is open, and no longer once it closes (the renewer is the dialog's).
    auto* keepAlive = new LockAutoRenewer(m_client, m_locks, dialog);
    keepAlive->restrictTo(sequenceNumbers);
    connect(keepAlive, &LockAutoRenewer::lockLost, dialog, &SettleDialog::showLockLost);
    connect(keepAlive, &LockAutoRenewer::renewFailed, dialog, [dialog](qint64, const Error& error) {
        if (error.code != ErrorCode::MessageLockLost) // lockLost says that one
            dialog->showRenewFailed(error);
    });
    connect(dialog, &QDialog::finished, keepAlive, &LockAutoRenewer::stop);
    dialog->showLocksKeptAlive();
    keepAlive->start(kInfinite);
    connect(dialog, &QDialog::accepted, this, [this, dialog, kind, sequenceNumbers, bulk] {
        const DeadLetterOptions deadLetter{dialog->reason(), dialog->description(),
                                           dialog->properties()};
        // A lock the dialog already said was lost would only fail again, as an alarm.
        QList<qint64> held = sequenceNumbers;
        const QSet<qint64> lost = dialog->lostLocks();
        held.removeIf([&lost](qint64 sequenceNumber) { return lost.contains(sequenceNumber); });
        if (held.isEmpty())
            return;
        if (kind == Settle::DeadLetter && bulk)
            startBulk(kind, held, deadLetter);
        else
            settle(kind, held, dialog->properties(), deadLetter);
    });
    dialog->open();
}

void LockSettler::settle(Settle kind, const QList<qint64>& sequenceNumbers,
                         const QVariantMap& properties, const DeadLetterOptions& deadLetter) {
    std::vector<std::pair<qint64, LockRef>> refs;
    for (qint64 sequenceNumber : sequenceNumbers)
        refs.emplace_back(sequenceNumber, m_locks.lockRef(sequenceNumber));
    using Outcomes = std::vector<std::pair<qint64, Result<void>>>;
    const quint64 generation = m_generation;
    m_client.call(
        this,
        [refs, kind, properties, deadLetter](Broker& b) {
            Outcomes out;
            for (const auto& [sequenceNumber, ref] : refs)
                out.emplace_back(sequenceNumber, apply(b, kind, ref, properties, deadLetter));
            return out;
        },
        [this, kind, generation](Outcomes outcomes) {
            if (generation != m_generation)
                return;
            QList<qint64> done;
            for (const auto& [sequenceNumber, outcome] : outcomes) {
                if (!outcome) {
                    m_locks.lockFailed(sequenceNumber, outcome.error());
                    emit failed(outcome.error());
                    continue;
                }
                m_locks.remove(sequenceNumber);
                done.append(sequenceNumber);
                if (kind == Settle::Defer)
                    emit deferred(sequenceNumber);
            }
            if (!done.isEmpty())
                emit result(tr("%1 %2.").arg(verbOf(kind), HeldLocks::numbersText(done)));
        });
}

void LockSettler::startBulk(Settle kind, const QList<qint64>& sequenceNumbers,
                            const DeadLetterOptions& deadLetter) {
    if (m_bulk && m_bulk->job()->running())
        return emit result(tr("A bulk settlement is still running."));
    if (m_bulk)
        m_bulk->deleteLater();
    const auto action =
        kind == Settle::Complete ? LockBulkRun::Action::Complete : LockBulkRun::Action::DeadLetter;
    m_bulk = new LockBulkRun(m_client, m_locks, action, sequenceNumbers, deadLetter, this);
    connect(m_bulk, &LockBulkRun::ended, this,
            [this, kind, total = sequenceNumbers.size()](int settled, int failures, bool cancelled,
                                                         const QString& firstError) {
                QString text = tr("%1: %2 of %3").arg(verbOf(kind)).arg(settled).arg(total);
                if (cancelled)
                    text += tr(" (cancelled)");
                if (failures > 0)
                    text += tr("; %1 failed, first: %2").arg(failures).arg(firstError);
                emit result(text + QLatin1Char('.'));
            });
    m_bar.track(m_bulk->job());
    m_bulk->start();
}

void LockSettler::renew(const QList<qint64>& sequenceNumbers) {
    const quint64 generation = m_generation;
    for (qint64 sequenceNumber : sequenceNumbers) {
        const LockRef ref = m_locks.lockRef(sequenceNumber);
        m_client.call(
            this, [ref](Broker& b) { return b.renewLock(ref); },
            [this, sequenceNumber, generation](Result<Instant> until) {
                if (generation != m_generation)
                    return;
                if (!until) {
                    m_locks.lockFailed(sequenceNumber, until.error());
                    return emit failed(until.error());
                }
                m_locks.setLockedUntil(sequenceNumber, *until);
                emit result(
                    tr("Renewed #%1 until %2.").arg(sequenceNumber).arg(formatInstant(*until)));
            });
    }
}

} // namespace hourglass::ui
