#pragma once
// The Connections view's tree: each AMQP connection (peer, container id, since, key, locks held),
// its links (address, who sends, settle mode, credit, in flight, messages through) and the locks
// each receiver link holds (sequence number, entity, time left). Fed with the endpoint's
// snapshots; rows are updated in place by id, name and token, so expansion and selection stay
// while the snapshot changes under them.

#include "EndpointSnapshot.h"

#include <QAbstractItemModel>

#include <functional>
#include <memory>
#include <vector>

namespace hourglass::ui {

class ConnectionsModel : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Column { Name, Role, Mode, Credit, InFlight, Messages, Locks, ColumnCount };
    enum class Kind { Connection, Link, Lock };
    static constexpr int ConnectionIdRole = Qt::UserRole + 1; // on every row: its connection

    // `now` reads the broker's clock, for the locks' time left.
    explicit ConnectionsModel(std::function<Instant()> now, QObject* parent = nullptr);
    ~ConnectionsModel() override;

    void setSnapshot(const QList<amqp::WireConnection>& connections);
    // The time-left column changed for every lock row (a tick).
    void refreshCountdowns();
    Kind kind(const QModelIndex& index) const;

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& index) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    struct Node;
    template <typename Item, typename KeyOf, typename Fill>
    void sync(Node& parent, const QList<Item>& items, KeyOf keyOf, Fill fill);
    QModelIndex indexOf(const Node* node, int column) const;
    void refreshCountdowns(const Node& node);

    std::function<Instant()> m_now;
    std::unique_ptr<Node> m_root;
};

} // namespace hourglass::ui
