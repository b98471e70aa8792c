#pragma once
// The messages a Lock panel's receivers took, with the lock bookkeeping a receiver keeps: per
// message the qualified path it came from, the receiver that holds it, the lock token and
// LockedUntilUtc (in the MessageView), and whether the lock is still held. A lock is lost when
// the engine refuses a settlement or renew with MessageLockLost, or when its LockedUntilUtc has
// passed on the engine's clock (L9), or when its entity is deleted; a lost lock stays listed,
// greyed, until the user clears it.
// Messages taken in receive-and-delete mode are listed as "Received" (no lock) so the user sees
// what they took.
//
// A QIdentityProxyModel over a MessageViewModel: the columns, roles and countdowns are the
// shared ones; this layer only overrides the State, Lock holder and Lock cells of its rows.
//
// Threads: GUI thread only.

#include "hourglass/Broker.h"

#include <QHash>
#include <QIdentityProxyModel>

namespace hourglass::ui {

class BrokerClient;
class MessageViewModel;

class HeldLocks : public QIdentityProxyModel {
    Q_OBJECT
public:
    enum class Status { Held, Lost, Received };

    explicit HeldLocks(BrokerClient& client, QObject* parent = nullptr);

    // "#1, #2, #3" for a status line; past a few numbers, "#1, #2, … #250 (250 messages)".
    static QString numbersText(const QList<qint64>& sequenceNumbers);

    MessageViewModel* messages() const { return m_messages; }
    // The span of a full lock bar (the entity's LockDuration), also what auto-renew measures.
    void setLockDuration(Millis lockDuration);
    Millis lockDuration() const { return m_lockDuration; }

    // Lists messages `receiver` took from `qualifiedPath`: held under lock in peek-lock mode,
    // "Received" in receive-and-delete mode. A message already listed is replaced.
    void add(const QString& qualifiedPath, const QString& receiver, ReceiveMode mode,
             const QList<MessageView>& taken);
    void clear();
    // Drops a settled message.
    void remove(qint64 sequenceNumber);
    // Drops the lost locks and received messages; returns how many rows went.
    int clearFinished();

    qint64 sequenceNumberAt(int row) const;
    int rowOf(qint64 sequenceNumber) const;
    bool contains(qint64 sequenceNumber) const { return m_entries.contains(sequenceNumber); }
    // The status now: a held lock whose LockedUntilUtc passed on the engine clock reads Lost.
    Status status(qint64 sequenceNumber) const;
    QString receiverOf(qint64 sequenceNumber) const;
    // What settles the message: its qualified path (so another namespace resolves), its token
    // and its own receiver.
    LockRef lockRef(qint64 sequenceNumber) const;
    Instant lockedUntil(qint64 sequenceNumber) const;
    // The locks still held, in row order.
    QList<qint64> held() const;

    // A renew succeeded: the new LockedUntilUtc.
    void setLockedUntil(qint64 sequenceNumber, Instant lockedUntil);
    // A settlement or renew failed: MessageLockLost or SessionLockLost marks the lock lost
    // (other errors leave it).
    void lockFailed(qint64 sequenceNumber, const Error& error);
    // S5: `receiver`'s session on `qualifiedPath` was released or lost: the message locks it
    // held there are lost with it, for `reason`. Returns how many were held.
    int loseLocksOf(const QString& qualifiedPath, const QString& receiver, const QString& reason);
    // The connection broke at `brokeAtMs` (system time): the locks taken before then are lost,
    // for `reason`. Returns how many were held.
    int loseTakenBefore(qint64 brokeAtMs, const QString& reason);
    // Marks the held locks whose LockedUntilUtc passed on the engine clock as lost (the panel's
    // countdown tick calls it) and repaints their rows.
    void sweep();

    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;

private:
    struct Entry {
        QString path;
        QString receiver;
        Status status = Status::Held;
        QString lostReason;
        qint64 takenAt = 0; // system time
    };
    void markLost(qint64 sequenceNumber, const QString& reason);
    // An entity that went away took its locks with it.
    void onChanged(const ChangeBatch& batch);
    void repaintRow(qint64 sequenceNumber);

    BrokerClient& m_client;
    MessageViewModel* m_messages;
    QHash<qint64, Entry> m_entries;
    Millis m_lockDuration = 0;
};

} // namespace hourglass::ui
