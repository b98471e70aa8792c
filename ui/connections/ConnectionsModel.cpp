#include "ConnectionsModel.h"

#include "common/DurationText.h"

#include <QDateTime>
#include <QLocale>

namespace hourglass::ui {

struct ConnectionsModel::Node {
    Kind kind = Kind::Connection;
    Node* parent = nullptr;
    QString key; // connection id, link name or lock token: what rows are matched by
    quint64 connectionId = 0;
    amqp::WireConnection connection;
    amqp::WireLink link;
    amqp::WireLock lock;
    std::vector<std::unique_ptr<Node>> children;

    int row() const {
        if (!parent)
            return 0;
        for (size_t i = 0; i < parent->children.size(); ++i) {
            if (parent->children[i].get() == this)
                return int(i);
        }
        return 0;
    }
};

ConnectionsModel::ConnectionsModel(std::function<Instant()> now, QObject* parent)
    : QAbstractItemModel(parent)
    , m_now(std::move(now))
    , m_root(std::make_unique<Node>()) {}

ConnectionsModel::~ConnectionsModel() = default;

template <typename Item, typename KeyOf, typename Fill>
void ConnectionsModel::sync(Node& parent, const QList<Item>& items, KeyOf keyOf, Fill fill) {
    const QModelIndex parentIndex = &parent == m_root.get() ? QModelIndex() : indexOf(&parent, 0);
    // Rows that went away, from the bottom up.
    for (int row = int(parent.children.size()) - 1; row >= 0; --row) {
        const QString key = parent.children[size_t(row)]->key;
        const bool kept = std::any_of(items.begin(), items.end(),
                                      [&](const Item& item) { return keyOf(item) == key; });
        if (kept)
            continue;
        beginRemoveRows(parentIndex, row, row);
        parent.children.erase(parent.children.begin() + row);
        endRemoveRows();
    }
    // Rows that stay are refreshed in place; new ones are appended.
    for (const Item& item : items) {
        const QString key = keyOf(item);
        auto found = std::find_if(parent.children.begin(), parent.children.end(),
                                  [&](const auto& child) { return child->key == key; });
        if (found != parent.children.end()) {
            fill(**found, item);
            emit dataChanged(indexOf(found->get(), 0), indexOf(found->get(), ColumnCount - 1));
            continue;
        }
        auto node = std::make_unique<Node>();
        node->parent = &parent;
        node->key = key;
        const int row = int(parent.children.size());
        beginInsertRows(parentIndex, row, row);
        parent.children.push_back(std::move(node));
        fill(*parent.children.back(), item);
        endInsertRows();
    }
}

void ConnectionsModel::setSnapshot(const QList<amqp::WireConnection>& connections) {
    sync(
        *m_root, connections, [](const amqp::WireConnection& c) { return QString::number(c.id); },
        [this](Node& node, const amqp::WireConnection& connection) {
            node.kind = Kind::Connection;
            node.connectionId = connection.id;
            node.connection = connection;
            sync(
                node, connection.links, [](const amqp::WireLink& l) { return l.name; },
                [this, &connection](Node& linkNode, const amqp::WireLink& link) {
                    linkNode.kind = Kind::Link;
                    linkNode.connectionId = connection.id;
                    linkNode.link = link;
                    sync(
                        linkNode, link.locks,
                        [](const amqp::WireLock& k) { return k.token.toString(); },
                        [&connection](Node& lockNode, const amqp::WireLock& lock) {
                            lockNode.kind = Kind::Lock;
                            lockNode.connectionId = connection.id;
                            lockNode.lock = lock;
                        });
                });
        });
}

void ConnectionsModel::refreshCountdowns() {
    refreshCountdowns(*m_root);
}

void ConnectionsModel::refreshCountdowns(const Node& node) {
    for (const auto& child : node.children) {
        if (child->kind == Kind::Lock) {
            const QModelIndex cell = indexOf(child.get(), Locks);
            emit dataChanged(cell, cell, {Qt::DisplayRole});
        }
        refreshCountdowns(*child);
    }
}

ConnectionsModel::Kind ConnectionsModel::kind(const QModelIndex& index) const {
    return index.isValid() ? static_cast<const Node*>(index.internalPointer())->kind
                           : Kind::Connection;
}

QModelIndex ConnectionsModel::indexOf(const Node* node, int column) const {
    return createIndex(node->row(), column, const_cast<Node*>(node));
}

QModelIndex ConnectionsModel::index(int row, int column, const QModelIndex& parent) const {
    const Node* owner =
        parent.isValid() ? static_cast<const Node*>(parent.internalPointer()) : m_root.get();
    if (row < 0 || column < 0 || column >= ColumnCount || size_t(row) >= owner->children.size())
        return {};
    return createIndex(row, column, owner->children[size_t(row)].get());
}

QModelIndex ConnectionsModel::parent(const QModelIndex& index) const {
    if (!index.isValid())
        return {};
    const Node* node = static_cast<const Node*>(index.internalPointer());
    if (!node->parent || node->parent == m_root.get())
        return {};
    return indexOf(node->parent, 0);
}

int ConnectionsModel::rowCount(const QModelIndex& parent) const {
    if (parent.isValid() && parent.column() != 0)
        return 0;
    const Node* owner =
        parent.isValid() ? static_cast<const Node*>(parent.internalPointer()) : m_root.get();
    return int(owner->children.size());
}

int ConnectionsModel::columnCount(const QModelIndex&) const {
    return ColumnCount;
}

QVariant ConnectionsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Name:
        return tr("Connection / link / lock");
    case Role:
        return tr("Client / direction / entity");
    case Mode:
        return tr("Key / settle mode");
    case Credit:
        return tr("Credit");
    case InFlight:
        return tr("In flight");
    case Messages:
        return tr("Messages");
    case Locks:
        return tr("Locks / time left");
    default:
        return {};
    }
}

QVariant ConnectionsModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid())
        return {};
    const Node* node = static_cast<const Node*>(index.internalPointer());
    if (role == ConnectionIdRole)
        return QVariant::fromValue(node->connectionId);
    if (role == Qt::TextAlignmentRole && index.column() >= Credit)
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole && node->kind == Kind::Link)
        return tr("Lock holder: %1").arg(node->link.receiverName);
    if (role != Qt::DisplayRole)
        return {};
    switch (node->kind) {
    case Kind::Connection: {
        const amqp::WireConnection& c = node->connection;
        switch (index.column()) {
        case Name:
            return tr("#%1 %2 · since %3")
                .arg(c.id)
                .arg(c.peer, QLocale().toString(QDateTime::fromMSecsSinceEpoch(c.openedAtMs).time(),
                                                QLocale::ShortFormat));
        case Role:
            return c.containerId.isEmpty() ? tr("(not open yet)") : c.containerId;
        case Mode:
            return c.keyName.isEmpty() ? tr("no token yet") : c.keyName;
        case Messages: {
            quint64 total = 0;
            for (const amqp::WireLink& link : c.links)
                total += link.messages;
            return QString::number(total);
        }
        case Locks:
            return QString::number(c.locksHeld);
        default:
            return {};
        }
    }
    case Kind::Link: {
        const amqp::WireLink& l = node->link;
        const bool sends = l.direction == amqp::WireLink::Direction::ClientSends;
        switch (index.column()) {
        case Name:
            return l.address;
        case Role:
            return sends ? tr("client sends") : tr("client receives");
        case Mode:
            return l.settleMode;
        case Credit:
            return QString::number(l.credit);
        case InFlight:
            return QString::number(l.inFlight);
        case Messages:
            return QString::number(l.messages);
        case Locks:
            return sends || l.settleMode.isEmpty() ? QString() : QString::number(l.locks.size());
        default:
            return {};
        }
    }
    case Kind::Lock: {
        const amqp::WireLock& k = node->lock;
        switch (index.column()) {
        case Name:
            return tr("message %1").arg(k.sequenceNumber);
        case Role:
            return k.entityPath;
        case Locks:
            return shortDuration(k.lockedUntil - m_now());
        default:
            return {};
        }
    }
    }
    return {};
}

} // namespace hourglass::ui
