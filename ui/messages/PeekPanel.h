#pragma once
// Peek (L12): browse the messages of a queue, a subscription or a dead-letter
// queue from the start or from a sequence number, N at a time, without side effects: no lock,
// no count or delivery-count change (a peek does count as activity, A2). Each message shows its
// state (Active, Deferred, Scheduled, Locked, or Expired when past its expiry but not yet swept,
// T5) with live countdowns on the engine's clock. The page does not re-peek by itself when the
// entity changes (that would be activity the user did not ask for): the title says the page is
// out of date, and Peek reads it again.
//
// Object names for tests: "peekTitle", "peekFrom", "peekCount", "peekGo", "peekFirst",
// "peekNext", "peekList", "peekEmpty".

#include "common/CurrentMessage.h"
#include "hourglass/ChangeFeed.h"
#include "hourglass/Status.h"
#include "tree/EntityPanel.h"
#include "tree/NamespaceTreeModel.h"

#include <QWidget>

#include <optional>

class QAction;
class QLabel;
class QSortFilterProxyModel;
class QSpinBox;
class QStackedWidget;
class QTableView;

namespace hourglass::ui {

class BrokerClient;
class ColumnLayout;
class MessageTransferActions;
class MessageViewModel;

class PeekPanel : public EntityPanel {
    Q_OBJECT
public:
    using NodeKind = NamespaceTreeModel::NodeKind;
    static constexpr int kDefaultCount = 50;

    explicit PeekPanel(BrokerClient& client, QWidget* parent = nullptr);

    // A queue, subscription or dead-letter queue peeks from its start; anything else (and an
    // empty path) shows the empty state.
    void setEntity(const QString& qualifiedPath, NodeKind kind) override;
    QString path() const { return m_path; }

    // Peeks N messages from the "from" box (0: from the start).
    void peek();
    void peekFirst();
    // The N messages after the last one shown.
    void peekNext();

    MessageViewModel* model() const { return m_model; }
    QSortFilterProxyModel* sortModel() const { return m_sort; }
    QTableView* view() const { return m_view; }
    QList<QAction*> actions() const { return m_actions; }
    // The message of the selected current row (common/CurrentMessage.h).
    std::optional<MessageRef> currentMessage() const override;
    qint64 selectedCount() const override;

private:
    void peekFrom(qint64 fromSequenceNumber);
    void onChanged(const ChangeBatch& batch);
    void updateState();

    BrokerClient& m_client;
    QString m_path;
    quint64 m_generation = 0; // bumped by every peek and setEntity: drops stale replies
    bool m_loaded = false;
    bool m_stale = false;
    QString m_error;

    MessageViewModel* m_model;
    QSortFilterProxyModel* m_sort;
    QLabel* m_title;
    QSpinBox* m_from;
    QSpinBox* m_count;
    QStackedWidget* m_stack;
    QTableView* m_view;
    ColumnLayout* m_columns = nullptr;
    MessageTransferActions* m_transfer = nullptr;
    QLabel* m_empty;
    QList<QAction*> m_actions;
};

} // namespace hourglass::ui
