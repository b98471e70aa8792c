#pragma once
// The messages of one path (a queue, a subscription, or "<entity>/$deadletterqueue") as a
// windowed table: a million messages must scroll smoothly, so the GUI holds only the page index
// (Broker::sequenceIndex: the total and the first sequence number of every page) and at most
// kMaxLoadedPages pages of rows. A row whose page is not loaded shows a placeholder and asks the
// engine for that page in the background; the page's rows update when it arrives.
//
// Engine changes naming this path (BrokerClient::changed) re-read the index and the loaded pages
// in one background call; changes arriving meanwhile are coalesced into one more refresh. Every
// reply carries the generation it was asked under: replies for another path or an older index
// are dropped.
//
// A namespace without that index (a remote one: BrokerCapabilities::hostsDatabase false) is
// read the only way it can be, through peek: the list pages forward from the lowest sequence
// number. The first page comes with the refresh; the next one, from the last row's sequence
// number on, when the view scrolls near the end (canFetchMore/fetchMore), and the row count grows
// as pages arrive. One page is read ahead: once a page is in, the one after it is read in the
// background, so that the next fetchMore appends it at once rather than wait for the wire (a
// remote peek is a round trip); a refresh or another path drops it. Every page read stays in hand
// (rows are never evicted: the list holds what the user scrolled through). total() is what the
// path's counts say it holds (or the rows read, once the end was reached). A refresh re-reads as
// many rows as were read, from the start, so the view keeps its place.
//
// Countdown cells (Time to live, Lock) are computed in data() from the engine's clock, so a view
// that repaints them (CountdownTicker) sees them run without asking the engine.
//
// Threads: GUI thread only.

#include "common/CoalescedRefresh.h"
#include "hourglass/Broker.h"

#include <QAbstractTableModel>
#include <QHash>
#include <QList>
#include <QSet>

#include <optional>

namespace hourglass::ui {

class BrokerClient;

class MessageListModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        SequenceNumberColumn,
        MessageIdColumn,
        SubjectColumn,
        StateColumn,
        TimeToLiveColumn, // countdown; early, so that it is on screen in a narrow window
        ExpiresAtColumn,
        EnqueuedColumn,
        DeliveryCountColumn,
        LockHolderColumn,
        LockColumn,      // countdown
        SessionIdColumn, // shown for entities that require sessions (S1)
        ColumnCount
    };
    enum Role {
        // Raw values for sorting are under Qt::UserRole; these serve the countdown delegate.
        ExpiresAtRole = Qt::UserRole + 1, // Instant (kNever when it never expires)
        LockedUntilRole,                  // Instant (0 when not locked)
        CountdownRole,                    // Countdown for the two countdown columns
    };
    // A row's state as the State column names it (its raw value under Qt::UserRole).
    enum class RowState { Active, Scheduled, Deferred, Locked, Expired };

    static constexpr int kPageSize = 200;
    static constexpr int kMaxLoadedPages = 20;

    explicit MessageListModel(BrokerClient& client, QObject* parent = nullptr);

    // Switches to another path ("ns:queue", "ns:topic/Subscriptions/s", ".../$deadletterqueue");
    // an empty path shows nothing.
    void setPath(const QString& qualifiedPath);
    QString path() const { return m_path; }
    // How many messages the path holds, per the last index read.
    qint64 total() const { return m_total; }
    // True once the index of the current path has been read at least once.
    bool isIndexLoaded() const { return m_indexLoaded; }
    // The engine's error when the last index read failed (entity deleted, ...), else empty.
    QString lastError() const { return m_lastError; }
    // Whether the list pages forward through peek (a namespace without a sequence index).
    bool pagesForward() const { return m_forward; }
    // Whether the path's entity requires sessions (S1), per the last index read.
    bool requiresSession() const { return m_requiresSession; }
    int loadedPageCount() const { return int(m_pages.size()); }
    // Whether a row's page is in the window (unlike data(), asks for nothing).
    bool isRowLoaded(int row) const { return m_pages.contains(row / kPageSize); }
    // The row of each message of the loaded pages, by sequence number (asks for nothing).
    QHash<qint64, int> loadedRows() const;
    // Re-reads the index and the loaded pages (coalesced with one already running).
    void refresh();
    // Repaints the countdown columns of rows first..last (CountdownTicker drives this).
    void refreshCountdowns(int firstRow, int lastRow);

    // Forward paging only: the page after the rows read is in hand (read ahead), so that the next
    // fetchMore appends it at once.
    bool isNextPageReadAhead() const { return m_ahead.page >= 0 && m_ahead.rows.has_value(); }
    // Forward paging only: another page may follow the rows read.
    bool canFetchMore(const QModelIndex& parent = {}) const override;
    void fetchMore(const QModelIndex& parent = {}) override;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

signals:
    // The index was (re)read: total(), isIndexLoaded(), requiresSession() and lastError() may
    // have changed.
    void indexRefreshed();
    // A refresh is about to change which message some rows hold (messages left or arrived
    // before them): rows before `firstRow` keep their messages, rows from it on may hold others
    // or go. A view that keeps a selection by row reads the messages of its rows now, while they
    // are in hand...
    void rowsAboutToShift(int firstRow);
    // ...and picks them again where they are now (loadedRows()) once the refresh is applied.
    void rowsShifted(int firstRow);

private:
    struct Snapshot;
    void onChanged(const ChangeBatch& batch);
    void applySnapshot(Snapshot snapshot);
    // The first row whose message the snapshot may change (rowCount() when none): where the
    // page anchors first differ, narrowed by comparing the pages loaded before and after.
    int firstShiftedRow(const Snapshot& snapshot) const;
    void applyPage(int page, QList<MessageView> rows);
    // Forward paging: appends the page read from `from` on (a reply to fetchMore), when it still
    // follows the last row.
    void appendPage(int page, qint64 from, Result<QList<MessageView>> rows);
    // Forward paging: where the page after the rows read starts.
    qint64 nextForwardSequenceNumber() const;
    // Forward paging: reads the page after the rows read in the background (readAhead below).
    void startReadAhead();
    // How many rows a snapshot makes: its total, or the rows it read when paging forward.
    int rowsOf(const Snapshot& snapshot) const;
    // The row's message, or null when its page is not loaded (and then asks for the page).
    const MessageView* messageAt(int row) const;
    void requestPage(int page) const;
    void touchPage(int page) const;

    BrokerClient& m_client;
    QString m_path;
    quint64 m_pathGeneration = 0; // bumped when the path changes: drops refresh replies
    quint64 m_generation = 0;     // bumped when the path or the index changes: drops page replies
    bool m_indexLoaded = false;
    qint64 m_total = 0;
    QList<qint64> m_anchors;
    Millis m_lockDuration = 0;
    bool m_requiresSession = false;
    bool m_forward = false; // pages forward through peek (no sequence index)
    bool m_more = false;    // forward: the last page read was full, another may follow
    int m_forwardRows = 0;  // forward: the rows read, all in m_pages
    QString m_lastError;
    CoalescedRefresh m_refresh; // one index read at a time, one more queued
    // The window: loaded pages, their use order (most recent last), and pages asked for. Mutable
    // because data() loads pages on demand.
    // Forward paging: the page after the rows read, asked for before the view asks (page -1:
    // none); `rows` once it came. Bound to the generation it was asked under.
    struct ReadAhead {
        int page = -1;
        qint64 from = 0;
        std::optional<Result<QList<MessageView>>> rows;
    };
    ReadAhead m_ahead;
    mutable QHash<int, QList<MessageView>> m_pages;
    mutable QList<int> m_pageUse;
    mutable QSet<int> m_pageRequests;
};

} // namespace hourglass::ui
