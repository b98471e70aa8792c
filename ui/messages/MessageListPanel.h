#pragma once
// The explorer's message list for one path: a title naming the path and its count, a filter bar,
// the table of messages with live countdowns (CountdownDelegate, driven by one CountdownTicker),
// a strip for bulk actions, and an empty state when the path holds nothing.
//
// Two modes share the one table view:
//  - unfiltered: the windowed MessageListModel, in sequence order only (sorting a million rows
//    would mean reading them all; the header's tooltip says so);
//  - filtered: a MessageSearch scans the path in the background and the matches (at most its cap)
//    fill a MessageViewModel behind a QSortFilterProxyModel on Qt::UserRole, so every column
//    sorts. Clearing the filter returns to the windowed list.
// The actions (MessageListActions: cancel scheduled, delete, export, copy id) work in both.
//
// Object names for tests: "messageListTitle", "messageList", "messageListEmpty",
// "messageFilter", "searchBodies", "filterStatus", "messageFilterClear" (and the bulk strip's
// "bulkProgress", "bulkCancel"; the delete confirmation "confirmDeleteMessages").

#include "common/CurrentMessage.h"
#include "hourglass/Status.h"
#include "messages/MessageFilterBar.h"
#include "messages/MessageMatcher.h"
#include "messages/MessageSelection.h"
#include "tree/EntityPanel.h"

#include <QList>
#include <QSet>
#include <QWidget>

#include <functional>
#include <optional>

class QAction;
class QLabel;
class QSortFilterProxyModel;
class QStackedWidget;
class QTableView;

namespace hourglass::ui {

class BrokerClient;
class BulkProgressBar;
class ColumnLayout;
class CountdownTicker;
class MessageListActions;
class MessageListModel;
class MessageSearch;
class MessageTransferActions;
class MessageViewModel;
class SelectionPrefetch;

class MessageListPanel : public EntityPanel {
    Q_OBJECT
public:
    explicit MessageListPanel(BrokerClient& client, QWidget* parent = nullptr);

    // Shows the messages of a path ("ns:queue", ".../$deadletterqueue"); empty shows nothing. An
    // active filter searches the new path.
    void setPath(const QString& qualifiedPath);
    QString path() const;
    // The tree's selection (EntityPanel): its path, and Purge… offered but for a topic.
    void setEntity(const QString& qualifiedPath, NodeKind kind) override;
    // Puts `text` in the filter box and applies it at once (the Sessions view's "Show
    // messages" asks for "SessionId=<id>").
    void setFilterText(const QString& text);

    MessageListModel* model() const { return m_model; }
    QTableView* view() const { return m_view; }
    ColumnLayout* columnLayout() const { return m_columns; }
    CountdownTicker* ticker() const { return m_ticker; }
    // The filtered mode's pieces.
    MessageSearch* search() const { return m_search; }
    MessageViewModel* matches() const { return m_matches; }
    QSortFilterProxyModel* sortedMatches() const { return m_sorted; }
    bool isFiltered() const;
    BulkProgressBar* bulkProgressBar() const { return m_bulkBar; }
    MessageListActions* listActions() const { return m_actions; }
    SelectionPrefetch* selectionPrefetch() const { return m_prefetch; }

    // Cancel scheduled, Delete, Export, Copy message id and Find, with their shortcuts (for the
    // main window's menus; they are also on the panel and the table's context menu).
    QList<QAction*> actions() const;
    // Exports the selected messages into `directory` in the background (the Export action asks
    // for the directory first).
    void exportSelectedTo(const QString& directory);

    // A selected row whose message is in hand (every row in the filtered mode; the loaded ones in
    // the windowed list).
    using SelectedRow = SelectedMessage;
    QList<SelectedRow> selectedRows() const;
    // The message of the selected current row, when it is loaded (common/CurrentMessage.h).
    std::optional<MessageRef> currentMessage() const override;
    // How many rows are selected, loaded or not.
    qint64 selectedRowCount() const;
    qint64 selectedCount() const override { return selectedRowCount(); }
    // The sequence numbers of every selected row, in row order. Rows of the windowed list that
    // are not loaded are read in the background; done(...) then runs on the GUI thread (unless
    // `context` is gone). When everything is in hand it runs before this returns.
    void resolveSelection(QObject* context, std::function<void(Result<QList<qint64>>)> done) const;

private:
    void applyFilter(MessageFilterBar::Apply apply);
    void startSearch();
    void showMode(bool filtered);
    void updateUnavailableColumns();
    void connectSelection();
    // Starts reading the selection's rows that are not loaded, for a drag.
    void prefetchSelection();
    void onCountdownsDue(int firstRow, int lastRow);
    void removeMatches(const QList<qint64>& sequenceNumbers);
    void updateFilterStatus();
    void updateHeader();

    BrokerClient& m_client;
    MessageListModel* m_model;
    MessageViewModel* m_matches;
    QSortFilterProxyModel* m_sorted;
    MessageSearch* m_search;
    QLabel* m_title;
    MessageFilterBar* m_filterBar;
    BulkProgressBar* m_bulkBar;
    QStackedWidget* m_stack;
    QTableView* m_view;
    ColumnLayout* m_columns = nullptr;
    std::optional<QSet<int>> m_unavailable; // the columns last made unavailable
    QLabel* m_empty;
    QWidget* m_emptyPage; // m_empty and the hint about moving messages
    CountdownTicker* m_ticker;
    MessageListActions* m_actions;
    MessageTransferActions* m_transfer = nullptr;
    QAction* m_findAction;
    SelectionPrefetch* m_prefetch = nullptr;
    // What watchCurrentRow connected for the model shown; redone when the model changes.
    QList<QMetaObject::Connection> m_currentRowWatch;
    // The filter the table shows (empty: the windowed list).
    MessageMatcher m_applied;
    // How many messages the finished search read (-1 while none finished): when the path's
    // count moves away from it, the matches may be out of date and the status says so.
    qint64 m_searchedTotal = -1;
    bool m_stale = false;
    QString m_failure; // the search's error, shown in the status
};

} // namespace hourglass::ui
