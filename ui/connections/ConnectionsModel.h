#pragma once
// The Connections view's tree: each AMQP connection (peer, container id, since, key, locks held),
// its links (address, who sends, settle mode, credit, in flight, messages through) and the locks
// each receiver link holds (sequence number, entity, time left). Fed with the endpoint's
// snapshots; rows are updated in place by id, name and token, so expansion and selection stay
// while the snapshot changes under them.
//
// Order: connections by id (the order they came in), links as they appeared (a new one below
// the others), locks by sequence number (the order the entity delivered them). A row that
// appears arrives whole: a new connection with its links and locks is one row insertion, a new
// lock of a known link is inserted under that link.

#include "hourglass/amqp/EndpointSnapshot.h"

#include <QAbstractItemModel>

#include <functional>
#include <memory>

namespace hourglass::ui {

struct ConnectionsNode; // one row and its children (ConnectionsModel.cpp)

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
    using Node = ConnectionsNode;
    // Makes `parent`'s children the rows of `wanted`, in that order: rows gone are removed,
    // rows kept are moved into place and refreshed, new rows are inserted whole.
    template <typename Item>
    void syncChildren(Node& parent, const QList<Item>& wanted, const QModelIndex& parentIndex);
    template <typename Item> void refresh(Node& node, const Item& item);
    QModelIndex indexOf(const Node* node, int column) const;
    void refreshCountdowns(const Node& node, const QModelIndex& nodeIndex);

    std::function<Instant()> m_now;
    std::unique_ptr<Node> m_root;
};

} // namespace hourglass::ui
