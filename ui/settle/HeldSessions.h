#pragma once
// The session locks the Receive & settle tab's receivers hold on the entity shown (S2): one row
// per receiver, with the session, its LockedUntilUtc as a live countdown (the CountdownDelegate
// reads MessageListModel::CountdownRole, as the message locks' column does) and whether it is
// still held. A receiver holds at most one session of an entity at a time (as a session
// receiver of the SDKs does); its Receive takes that session's messages.
//
// A session lock is lost when its LockedUntilUtc passes on the engine's clock (sweep()), when
// the engine refuses a call with SessionLockLost, or when it is released; `lost` then names the
// receiver so that its message locks are marked lost too (S5). A lost session stays listed,
// greyed, until the receiver accepts another or the list is cleared.
//
// Threads: GUI thread only.

#include "hourglass/Broker.h"

#include <QAbstractTableModel>
#include <QList>

#include <optional>

namespace hourglass::ui {

class BrokerClient;

class HeldSessions : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { ReceiverColumn, SessionColumn, SessionLockColumn, ColumnCount };

    explicit HeldSessions(BrokerClient& client, QObject* parent = nullptr);

    // The span of a full bar (the entity's LockDuration).
    void setLockDuration(Millis lockDuration) { m_lockDuration = lockDuration; }
    // A session granted to a receiver (replaces that receiver's row).
    void add(const AcceptedSession& session);
    void clear();
    // Drops the receiver's row (its session was released).
    void remove(const QString& receiver);

    // The session `receiver` holds now, if any (a lost one is none).
    std::optional<SessionRef> heldBy(const QString& receiver) const;
    // The receiver's session, held or lost.
    std::optional<QString> sessionOf(const QString& receiver) const;
    bool isLost(const QString& receiver) const;
    QString receiverAt(int row) const { return m_rows.at(row).session.receiver; }
    int rowOf(const QString& receiver) const;
    Instant lockedUntil(const QString& receiver) const;

    // A renew succeeded.
    void setLockedUntil(const QString& receiver, Instant lockedUntil);
    // The engine refused a call with SessionLockLost, or the lock is known to be gone.
    void markLost(const QString& receiver, const QString& reason);
    // The connection broke at `brokeAtMs` (system time): the sessions taken before then are
    // lost, for `reason` (each `lost`).
    void loseTakenBefore(qint64 brokeAtMs, const QString& reason);
    // Marks the sessions whose LockedUntilUtc passed as lost (the panel's countdown tick).
    void sweep();
    // Repaints the countdown cells.
    void refreshCountdowns();

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

signals:
    // The receiver's session lock was lost (ran out, refused, or released by the engine).
    void lost(const QString& receiver, const QString& reason);

private:
    struct Row {
        AcceptedSession session;
        bool lost = false;
        QString lostReason;
        qint64 takenAt = 0; // system time
    };

    BrokerClient& m_client;
    QList<Row> m_rows;
    Millis m_lockDuration = 0;
};

} // namespace hourglass::ui
