#pragma once
// The sessions of one entity that requires sessions (S1-S6) as a table: per session its
// receivable, deferred, scheduled and locked messages, the receiver holding its lock, the lock's
// countdown (on the engine's clock) and its state's size and when it was last set.
//
// Loading. Everything is read through BrokerClient, never on the GUI thread: the entity (does
// it require sessions, its LockDuration for the bar), the number of sessions
// (Broker::sessionPages) and up to kMaxSessions of them (Broker::listSessions, in session id
// order). An entity rarely has more sessions than a screenful of operators can read, and the
// table sorts and filters in a proxy, which needs the rows in hand; past kMaxSessions the model
// says how many it left out (total() > rowCount()). Engine changes naming the entity
// (sessionsChanged, counts, messages added or removed, updated, deleted) re-read it, coalesced
// (CoalescedRefresh). A snapshot is applied row by row (dataChanged, inserts, removals, never
// a reset), so that a selection survives a refresh. Replies for an earlier path are dropped.
//
// The Session lock cell is a Countdown (MessageListModel::CountdownRole) computed in data()
// from the engine's clock, so a view that repaints it (CountdownTicker) sees it run.
//
// Threads: GUI thread only.

#include "common/CoalescedRefresh.h"
#include "hourglass/Broker.h"

#include <QAbstractTableModel>
#include <QList>

namespace hourglass::ui {

class BrokerClient;

class SessionListModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        SessionIdColumn,
        ActiveColumn,
        DeferredColumn,
        ScheduledColumn,
        LockedColumn,
        HolderColumn,
        SessionLockColumn, // countdown
        StateColumn,
        StateSetColumn,
        ColumnCount
    };
    // Raw values for sorting are under Qt::UserRole; the countdown is under
    // MessageListModel::CountdownRole, as every countdown cell of the explorer.
    enum Role {
        SessionIdRole = Qt::UserRole + 20,
        FilterTextRole, // what the filter box matches: the session id and the holder
    };

    // What the entity shown is, once read.
    enum class Availability { Unknown, NoEntity, NotSessionful, Sessionful };

    static constexpr int kMaxSessions = 5000;

    // Lists up to `maxSessions` sessions (the table's kMaxSessions; the demo tools' session
    // line counts more).
    explicit SessionListModel(BrokerClient& client, QObject* parent = nullptr,
                              int maxSessions = kMaxSessions);

    // Switches to another entity ("ns:queue", "ns:topic/Subscriptions/s"); empty shows nothing.
    void setPath(const QString& qualifiedPath);
    QString path() const { return m_path; }
    Availability availability() const { return m_availability; }
    // How many sessions the entity has (may exceed rowCount(), see kMaxSessions).
    qint64 total() const { return m_total; }
    int maxSessions() const { return m_maxSessions; }
    Millis lockDuration() const { return m_lockDuration; }
    QString lastError() const { return m_lastError; }
    // The session of a row (no state bytes: Broker::session reads those).
    const SessionInfo& sessionAt(int row) const { return m_sessions.at(row); }
    int rowOf(const QString& sessionId) const;

    // Re-reads the entity's sessions (coalesced with one already running).
    void refresh();
    // Repaints the Session lock cells of rows first..last (CountdownTicker drives this).
    void refreshCountdowns(int firstRow, int lastRow);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

signals:
    // A snapshot was applied: availability(), total() and lastError() may have changed.
    void refreshed();

private:
    struct Snapshot;
    void onChanged(const ChangeBatch& batch);
    void applySnapshot(Snapshot snapshot);
    void applySessions(QList<SessionInfo> sessions);
    QVariant display(const SessionInfo& session, int column) const;
    QVariant raw(const SessionInfo& session, int column) const;

    BrokerClient& m_client;
    const int m_maxSessions;
    QString m_path;
    quint64 m_generation = 0; // bumped when the path changes: drops older replies
    Availability m_availability = Availability::Unknown;
    qint64 m_total = 0;
    Millis m_lockDuration = 0;
    QString m_lastError;
    QList<SessionInfo> m_sessions; // in session id order
    CoalescedRefresh m_refresh;
};

} // namespace hourglass::ui
