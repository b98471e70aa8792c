#pragma once
// The explorer's namespace tree: namespaces, then their queues and topics, then each topic's
// subscriptions; every queue and subscription has one child row for its dead-letter queue.
// Columns are the entity's counts and, for an entity that auto-deletes on idle, the time left.
//
// Loading. The model reads the engine only through BrokerClient (never on the GUI thread): once on
// construction and again after every change batch. Each snapshot is applied incrementally
// (dataChanged, row inserts and removals, never a reset), so that the view's selection and
// expansion survive a refresh. A refresh asked for while one is in flight is coalesced into one
// more after it.
//
// Threads: GUI thread only.

#include "common/BrokerClient.h"
#include "common/CoalescedRefresh.h"

#include <QAbstractItemModel>
#include <QStringList>
#include <QTimer>

#include <memory>
#include <optional>
#include <vector>

namespace hourglass::ui {

class NamespaceTreeModel : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Column {
        NameColumn,
        ActiveColumn,
        ScheduledColumn,
        DeferredColumn,
        LockedColumn,
        DeadLetteredColumn,
        DeletesInColumn,
        ColumnCount
    };

    enum Role {
        // The qualified path a Broker call accepts: "ns:path", "ns:path/$deadletterqueue", or the
        // bare namespace name for a namespace row.
        PathRole = Qt::UserRole + 1,
        // The row's NodeKind, as an int.
        KindRole,
        // For entity and dead-letter rows, the hourglass::EntityKind (as an int) of the entity
        // owning the row; invalid for namespace rows.
        EntityKindRole,
    };

    enum class NodeKind { Namespace, Queue, Topic, Subscription, DeadLetterQueue };
    // One row of the tree (defined in the .cpp; opaque to users of the model).
    struct Node;

    explicit NamespaceTreeModel(BrokerClient& client, QObject* parent = nullptr);
    ~NamespaceTreeModel() override;

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    // Drops (NamespaceTreeDrop.cpp): queue, topic and subscription rows take dragged messages
    // (MessageDrag.h; moved or copied by the drop action, resubmitted when they come from the
    // row's own dead-letter queue) and queues and topics take local files. The broker work runs
    // through BrokerClient: dropMimeData starts it and returns; dropFinished or dropFailed
    // reports it.
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    Qt::DropActions supportedDropActions() const override;
    QStringList mimeTypes() const override;
    bool canDropMimeData(const QMimeData* data, Qt::DropAction action, int row, int column,
                         const QModelIndex& parent) const override;
    bool dropMimeData(const QMimeData* data, Qt::DropAction action, int row, int column,
                      const QModelIndex& parent) override;
    // Why `data` cannot be dropped onto the row `target` (what is known to fail before any
    // broker call: a disabled target, a dead-letter queue, the messages' own entity, a file too
    // large); nothing when it can.
    std::optional<Error> dropRefusal(const QMimeData* data, Qt::DropAction action,
                                     const QModelIndex& target) const;

    // Asks the engine for a fresh snapshot (coalesced with one in flight).
    void refresh();
    // True once the first snapshot has been applied.
    bool isLoaded() const { return m_loaded; }

signals:
    // After each snapshot has been applied.
    void refreshed();
    // A drop's broker work succeeded ("Moved 3 messages to 'orders'.") or failed.
    void dropFinished(const QString& text);
    void dropFailed(const hourglass::Error& error);

private:
    Node* nodeOf(const QModelIndex& index) const;
    // The entity an entity or dead-letter row shows; null for a namespace row or no row.
    const EntityInfo* entityAt(const QModelIndex& index) const;
    QModelIndex dropTarget(int row, int column, const QModelIndex& parent) const;
    QModelIndex indexOf(Node* node, int column) const;
    // Makes the rows match `wanted`, the tree a snapshot describes (built on a worker).
    void apply(std::unique_ptr<Node> wanted);
    void sync(Node* have, Node& want, const QModelIndex& haveIndex);
    void tickCountdowns();
    void tickCountdowns(Node* node, bool& anyCountdown);

    QVariant display(const Node& node, int column) const;
    QVariant raw(const Node& node, int column) const;
    QString toolTip(const Node& node) const;

    BrokerClient& m_client;
    std::unique_ptr<Node> m_root;
    QTimer m_countdownTimer; // refreshes the "Deletes in" column while any entity counts down
    bool m_loaded = false;
    CoalescedRefresh m_refresh; // one snapshot read at a time, one more queued
};

} // namespace hourglass::ui
