#include "ConnectionsModel.h"

#include "common/DurationText.h"

#include <QDateTime>
#include <QLocale>
#include <QSet>

#include <algorithm>
#include <tuple>
#include <variant>

namespace hourglass::ui {

namespace {

// What one row shows, apart from its children: compared with the next snapshot's so that only
// rows whose text changed are repainted.
struct ConnectionRow {
    quint64 id = 0;
    QString peer;
    QString containerId;
    qint64 openedAtMs = 0;
    QString keyName;
    QStringList namespaces; // the namespaces its tokens were for
    int locksHeld = 0;
    quint64 messages = 0; // through all its links
    bool operator==(const ConnectionRow&) const = default;
};

struct LinkRow {
    QString address;
    amqp::WireLink::Direction direction = amqp::WireLink::Direction::ClientSends;
    QString settleMode;
    int credit = 0;
    int inFlight = 0;
    quint64 messages = 0;
    QString receiverName;
    qsizetype locks = 0;
    bool operator==(const LinkRow&) const = default;
};

struct LockRow {
    QString entityPath;
    qint64 sequenceNumber = 0;
    Instant lockedUntil = 0;
    bool operator==(const LockRow&) const = default;
};

ConnectionRow rowOf(const amqp::WireConnection& c) {
    quint64 messages = 0;
    for (const amqp::WireLink& link : c.links)
        messages += link.messages;
    return {c.id,      c.peer,       c.containerId, c.openedAtMs,
            c.keyName, c.namespaces, c.locksHeld,   messages};
}

LinkRow rowOf(const amqp::WireLink& l) {
    return {l.address,  l.direction, l.settleMode,   l.credit,
            l.inFlight, l.messages,  l.receiverName, l.locks.size()};
}

LockRow rowOf(const amqp::WireLock& k) {
    return {k.entityPath, k.sequenceNumber, k.lockedUntil};
}

// What rows are matched by from one snapshot to the next. A sender and a receiver may share a
// link name on one connection: the direction is part of a link's key.
QString keyOf(const amqp::WireConnection& c) {
    return QString::number(c.id);
}

QString keyOf(const amqp::WireLink& l) {
    const bool sends = l.direction == amqp::WireLink::Direction::ClientSends;
    return (sends ? QStringLiteral("in:") : QStringLiteral("out:")) + l.name;
}

QString keyOf(const amqp::WireLock& k) {
    return k.token.toString(QUuid::WithoutBraces);
}

QList<amqp::WireConnection> byId(QList<amqp::WireConnection> connections) {
    std::sort(connections.begin(), connections.end(),
              [](const auto& a, const auto& b) { return a.id < b.id; });
    return connections;
}

// The order the entity handed the messages out. The endpoint keeps its locks in a hash: the
// snapshot lists them in no particular order.
QList<amqp::WireLock> bySequenceNumber(QList<amqp::WireLock> locks) {
    std::sort(locks.begin(), locks.end(), [](const auto& a, const auto& b) {
        return std::tie(a.sequenceNumber, a.entityPath) < std::tie(b.sequenceNumber, b.entityPath);
    });
    return locks;
}

} // namespace

struct ConnectionsNode {
    ConnectionsNode* parent = nullptr;
    QString key;
    quint64 connectionId = 0;
    // In the order of ConnectionsModel::Kind.
    std::variant<ConnectionRow, LinkRow, LockRow> row;
    std::vector<std::unique_ptr<ConnectionsNode>> children;

    ConnectionsModel::Kind kind() const { return ConnectionsModel::Kind(row.index()); }
    int rowInParent() const {
        const auto& siblings = parent->children;
        const auto at = std::find_if(siblings.begin(), siblings.end(),
                                     [this](const auto& sibling) { return sibling.get() == this; });
        return int(at - siblings.begin());
    }
};

namespace {

using Node = ConnectionsNode;

std::unique_ptr<Node> makeNode(Node* parent, QString key, quint64 connectionId) {
    auto node = std::make_unique<Node>();
    node->parent = parent;
    node->key = std::move(key);
    node->connectionId = connectionId;
    return node;
}

// A row that nobody has seen yet, with its children: built without any signal, then inserted
// into the model in one piece.
std::unique_ptr<Node> build(Node* parent, const amqp::WireLock& lock, quint64 connectionId) {
    auto node = makeNode(parent, keyOf(lock), connectionId);
    node->row = rowOf(lock);
    return node;
}

std::unique_ptr<Node> build(Node* parent, const amqp::WireLink& link, quint64 connectionId) {
    auto node = makeNode(parent, keyOf(link), connectionId);
    node->row = rowOf(link);
    for (const amqp::WireLock& lock : bySequenceNumber(link.locks))
        node->children.push_back(build(node.get(), lock, connectionId));
    return node;
}

std::unique_ptr<Node> build(Node* parent, const amqp::WireConnection& connection, quint64) {
    auto node = makeNode(parent, keyOf(connection), connection.id);
    node->row = rowOf(connection);
    for (const amqp::WireLink& link : connection.links)
        node->children.push_back(build(node.get(), link, connection.id));
    return node;
}

// Links already shown keep their place, so the row under the mouse does not jump; new ones go
// below them (the endpoint lists links in no stable order).
QList<amqp::WireLink> inShownOrder(const Node& connection, const QList<amqp::WireLink>& links) {
    QList<amqp::WireLink> ordered;
    ordered.reserve(links.size());
    QSet<QString> shown;
    for (const auto& child : connection.children) {
        const auto it = std::find_if(links.begin(), links.end(), [&](const amqp::WireLink& link) {
            return keyOf(link) == child->key;
        });
        if (it != links.end()) {
            ordered.append(*it);
            shown.insert(child->key);
        }
    }
    for (const amqp::WireLink& link : links) {
        if (!shown.contains(keyOf(link)))
            ordered.append(link);
    }
    return ordered;
}

} // namespace

ConnectionsModel::ConnectionsModel(std::function<Instant()> now, QObject* parent)
    : QAbstractItemModel(parent)
    , m_now(std::move(now))
    , m_root(std::make_unique<Node>()) {}

ConnectionsModel::~ConnectionsModel() = default;

void ConnectionsModel::setSnapshot(const QList<amqp::WireConnection>& connections) {
    syncChildren(*m_root, byId(connections), QModelIndex());
}

template <typename Item>
void ConnectionsModel::syncChildren(Node& parent, const QList<Item>& wanted,
                                    const QModelIndex& parentIndex) {
    auto& children = parent.children;
    QSet<QString> keys;
    for (const Item& item : wanted)
        keys.insert(keyOf(item));
    // Rows gone, from the bottom up so that the rows still to look at keep their numbers.
    for (int row = int(children.size()) - 1; row >= 0; --row) {
        if (keys.contains(children[size_t(row)]->key))
            continue;
        beginRemoveRows(parentIndex, row, row);
        children.erase(children.begin() + row);
        endRemoveRows();
    }
    // Row by row, what is at `row` becomes wanted[row].
    for (int row = 0; row < wanted.size(); ++row) {
        const Item& item = wanted[row];
        const QString key = keyOf(item);
        const auto at = std::find_if(children.begin() + row, children.end(),
                                     [&](const auto& child) { return child->key == key; });
        if (at == children.end()) {
            auto node = build(&parent, item, parent.connectionId);
            beginInsertRows(parentIndex, row, row);
            children.insert(children.begin() + row, std::move(node));
            endInsertRows();
            continue;
        }
        if (const int from = int(at - children.begin()); from != row) {
            beginMoveRows(parentIndex, from, from, parentIndex, row);
            std::rotate(children.begin() + row, at, at + 1);
            endMoveRows();
        }
        refresh(*children[size_t(row)], item);
    }
}

template <typename Item> void ConnectionsModel::refresh(Node& node, const Item& item) {
    auto row = rowOf(item); // ConnectionRow, LinkRow or LockRow: what this node holds
    if (std::get<decltype(row)>(node.row) != row) {
        node.row = std::move(row);
        emit dataChanged(indexOf(&node, 0), indexOf(&node, ColumnCount - 1));
    }
    if constexpr (std::is_same_v<Item, amqp::WireConnection>)
        syncChildren(node, inShownOrder(node, item.links), indexOf(&node, 0));
    else if constexpr (std::is_same_v<Item, amqp::WireLink>)
        syncChildren(node, bySequenceNumber(item.locks), indexOf(&node, 0));
}

void ConnectionsModel::refreshCountdowns() {
    refreshCountdowns(*m_root, QModelIndex());
}

void ConnectionsModel::refreshCountdowns(const Node& node, const QModelIndex& nodeIndex) {
    // Locks are the only children of links: one signal per link covers its time-left column.
    if (node.kind() == Kind::Link && nodeIndex.isValid()) {
        if (!node.children.empty())
            emit dataChanged(index(0, Locks, nodeIndex),
                             index(int(node.children.size()) - 1, Locks, nodeIndex),
                             {Qt::DisplayRole});
        return;
    }
    for (size_t row = 0; row < node.children.size(); ++row)
        refreshCountdowns(*node.children[row], index(int(row), 0, nodeIndex));
}

ConnectionsModel::Kind ConnectionsModel::kind(const QModelIndex& index) const {
    return index.isValid() ? static_cast<const Node*>(index.internalPointer())->kind()
                           : Kind::Connection;
}

QModelIndex ConnectionsModel::indexOf(const Node* node, int column) const {
    return createIndex(node->rowInParent(), column, const_cast<Node*>(node));
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

namespace {

// What each column means on each kind of row: one column serves connections, links and locks.
QVariant headerToolTip(int section) {
    switch (section) {
    case ConnectionsModel::Name:
        return ConnectionsModel::tr("A connection (its number, the application's address, when it "
                                    "opened), its links (by address) and the locks a receiving "
                                    "link holds (by sequence number)");
    case ConnectionsModel::Role:
        return ConnectionsModel::tr("The application's container id; whether the application "
                                    "sends or receives on a link; the entity of a lock");
    case ConnectionsModel::Mode:
        return ConnectionsModel::tr("The key its token was signed with; how a receiving link "
                                    "settles (peek-lock or receive-and-delete)");
    case ConnectionsModel::Credit:
        return ConnectionsModel::tr("How many more messages the link may carry now");
    case ConnectionsModel::InFlight:
        return ConnectionsModel::tr("Deliveries not settled yet");
    case ConnectionsModel::Messages:
        return ConnectionsModel::tr("Messages through the link since it opened");
    case ConnectionsModel::Locks:
        return ConnectionsModel::tr("Locks held by the connection or the link; for a lock, the "
                                    "time left on the broker's clock");
    default:
        return {};
    }
}

} // namespace

QVariant ConnectionsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::TextAlignmentRole && section >= Credit)
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole)
        return headerToolTip(section);
    if (role != Qt::DisplayRole)
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

namespace {

QString sinceText(qint64 openedAtMs) {
    return QLocale().toString(QDateTime::fromMSecsSinceEpoch(openedAtMs).time(),
                              QLocale::ShortFormat);
}

QVariant connectionText(const ConnectionRow& c, int column) {
    switch (column) {
    case ConnectionsModel::Name:
        if (!c.namespaces.isEmpty())
            return ConnectionsModel::tr("#%1 %2 · since %3 · namespace %4")
                .arg(c.id)
                .arg(c.peer, sinceText(c.openedAtMs), c.namespaces.join(QStringLiteral(", ")));
        return ConnectionsModel::tr("#%1 %2 · since %3")
            .arg(c.id)
            .arg(c.peer, sinceText(c.openedAtMs));
    case ConnectionsModel::Role:
        return c.containerId.isEmpty() ? ConnectionsModel::tr("(not open yet)") : c.containerId;
    case ConnectionsModel::Mode:
        return c.keyName.isEmpty() ? ConnectionsModel::tr("no token yet") : c.keyName;
    case ConnectionsModel::Messages:
        return QString::number(c.messages);
    case ConnectionsModel::Locks:
        return QString::number(c.locksHeld);
    default:
        return {};
    }
}

QVariant linkText(const LinkRow& l, int column) {
    const bool sends = l.direction == amqp::WireLink::Direction::ClientSends;
    switch (column) {
    case ConnectionsModel::Name:
        return l.address;
    case ConnectionsModel::Role:
        return sends ? ConnectionsModel::tr("client sends")
                     : ConnectionsModel::tr("client receives");
    case ConnectionsModel::Mode:
        return l.settleMode;
    case ConnectionsModel::Credit:
        return QString::number(l.credit);
    case ConnectionsModel::InFlight:
        return QString::number(l.inFlight);
    case ConnectionsModel::Messages:
        return QString::number(l.messages);
    case ConnectionsModel::Locks:
        // Only a peek-lock receiver of an entity holds locks; elsewhere a 0 would mislead.
        return sends || l.settleMode.isEmpty() ? QString() : QString::number(l.locks);
    default:
        return {};
    }
}

QVariant lockText(const LockRow& k, int column, Instant now) {
    switch (column) {
    case ConnectionsModel::Name:
        return ConnectionsModel::tr("message %1").arg(k.sequenceNumber);
    case ConnectionsModel::Role:
        return k.entityPath;
    case ConnectionsModel::Locks:
        return shortDuration(k.lockedUntil - now);
    default:
        return {};
    }
}

QVariant toolTip(const Node& node) {
    if (const auto* c = std::get_if<ConnectionRow>(&node.row))
        return ConnectionsModel::tr("Connection %1 from %2, open since %3")
            .arg(c->id)
            .arg(c->peer, QLocale().toString(QDateTime::fromMSecsSinceEpoch(c->openedAtMs),
                                             QLocale::LongFormat));
    const auto* l = std::get_if<LinkRow>(&node.row);
    if (l && l->direction == amqp::WireLink::Direction::ClientReceives &&
        !l->receiverName.isEmpty())
        return ConnectionsModel::tr("Lock holder: %1").arg(l->receiverName);
    return {};
}

} // namespace

QVariant ConnectionsModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid())
        return {};
    const Node* node = static_cast<const Node*>(index.internalPointer());
    switch (role) {
    case ConnectionIdRole:
        return QVariant::fromValue(node->connectionId);
    case Qt::TextAlignmentRole:
        return index.column() >= Credit ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
    case Qt::ToolTipRole:
        return toolTip(*node);
    case Qt::DisplayRole:
        break;
    default:
        return {};
    }
    if (const auto* c = std::get_if<ConnectionRow>(&node->row))
        return connectionText(*c, index.column());
    if (const auto* l = std::get_if<LinkRow>(&node->row))
        return linkText(*l, index.column());
    return lockText(std::get<LockRow>(node->row), index.column(), m_now());
}

} // namespace hourglass::ui
