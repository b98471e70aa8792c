#include "tree/NamespaceTreeModel.h"

#include "common/DurationText.h"
#include "hourglass/EntityPath.h"
#include "tree/EntityIcons.h"

#include <QBrush>
#include <QColor>
#include <QFont>
#include <QGuiApplication>
#include <QHash>
#include <QPalette>
#include <QSet>

#include <algorithm>

namespace hourglass::ui {

namespace {
// The countdown column moves once a second; a finer tick would only repaint the same text.
constexpr int kCountdownMs = 1000;
const QColor kBadgeText(0xc6, 0x28, 0x28);
const QColor kBadgeTextOnDark(0xff, 0x8a, 0x80);

// The badge's red, readable on the theme's base colour.
QColor badgeText() {
    return QGuiApplication::palette().color(QPalette::Base).lightness() < 128 ? kBadgeTextOnDark
                                                                              : kBadgeText;
}
// Translucent, so that the badge reads on the light and the dark theme alike.
const QColor kBadgeBackground(0xe5, 0x39, 0x35, 0x38);
} // namespace

// One row. Namespace rows carry `ns`; entity and dead-letter rows carry `info` (a dead-letter row
// holds a copy of its owner's, whose counts.deadLettered is the number it shows).
struct NamespaceTreeModel::Node {
    NodeKind kind = NodeKind::Namespace;
    QString key; // the qualified path: unique across the tree
    QString name;
    NamespaceInfo ns;
    EntityInfo info;
    Node* parent = nullptr;
    std::vector<std::unique_ptr<Node>> children;
    mutable std::size_t rowHint = 0; // where row() found this node last

    // Asked for every parent() of a child row: a view or the filter's proxy asks it of each row
    // it walks, so a search among a thousand siblings each time would make walking the tree
    // quadratic. The row found last is tried first; rows change only when siblings come or go.
    int row() const {
        const auto& siblings = parent->children;
        if (rowHint < siblings.size() && siblings[rowHint].get() == this)
            return int(rowHint);
        for (std::size_t i = 0; i < siblings.size(); ++i) {
            if (siblings[i].get() == this) {
                rowHint = i;
                return int(i);
            }
        }
        return -1;
    }

    Node* add(std::unique_ptr<Node> child) {
        child->parent = this;
        children.push_back(std::move(child));
        return children.back().get();
    }

    bool isEntity() const {
        return kind != NodeKind::Namespace && kind != NodeKind::DeadLetterQueue;
    }

    bool sameData(const Node& other) const {
        return name == other.name && ns.tier == other.ns.tier && info.kind == other.info.kind &&
               info.counts == other.info.counts && info.autoDeleteAt == other.info.autoDeleteAt &&
               info.properties == other.info.properties && info.updatedAt == other.info.updatedAt &&
               info.rules == other.info.rules;
    }
};

namespace {

using Node = NamespaceTreeModel::Node;
using NodeKind = NamespaceTreeModel::NodeKind;

std::unique_ptr<Node> entityNode(const EntityInfo& info) {
    auto node = std::make_unique<Node>();
    node->kind = info.kind == EntityKind::Queue   ? NodeKind::Queue
                 : info.kind == EntityKind::Topic ? NodeKind::Topic
                                                  : NodeKind::Subscription;
    const EntityPath path = EntityPath::of(info.namespaceName, info.path);
    node->key = path.toString();
    node->name = info.name;
    node->info = info;
    if (info.kind != EntityKind::Topic) {
        auto deadLetter = std::make_unique<Node>();
        deadLetter->kind = NodeKind::DeadLetterQueue;
        deadLetter->key = path.deadLetterQueue().toString();
        deadLetter->name = kDeadLetterQueueName;
        deadLetter->info = info;
        node->add(std::move(deadLetter));
    }
    return node;
}

// Path order, ignoring case first, so that the order of rows never depends on the engine's.
void sortByPath(std::vector<std::unique_ptr<Node>>& nodes) {
    std::stable_sort(nodes.begin(), nodes.end(), [](const auto& a, const auto& b) {
        const int folded = QString::compare(a->info.path, b->info.path, Qt::CaseInsensitive);
        return folded != 0 ? folded < 0 : a->info.path < b->info.path;
    });
}

// The tree the snapshot describes, in display order.
std::unique_ptr<Node> buildTree(const QList<NamespaceInfo>& namespaces,
                                const QList<EntityInfo>& entities) {
    auto root = std::make_unique<Node>();
    QHash<QString, Node*> namespaceNodes;
    for (const NamespaceInfo& ns : namespaces) {
        auto node = std::make_unique<Node>();
        node->kind = NodeKind::Namespace;
        node->key = ns.name;
        node->name = ns.name;
        node->ns = ns;
        namespaceNodes.insert(ns.name, root->add(std::move(node)));
    }
    // Topics before their subscriptions, whatever order the engine lists them in.
    QHash<QString, Node*> topicNodes;
    for (const EntityInfo& info : entities) {
        Node* parent = namespaceNodes.value(info.namespaceName);
        if (info.kind == EntityKind::Subscription || !parent)
            continue;
        Node* node = parent->add(entityNode(info));
        if (info.kind == EntityKind::Topic)
            topicNodes.insert(node->key, node);
    }
    for (const EntityInfo& info : entities) {
        if (info.kind != EntityKind::Subscription)
            continue;
        if (Node* topic = topicNodes.value(info.namespaceName + QLatin1Char(':') + info.topicPath))
            topic->add(entityNode(info));
    }
    for (auto& ns : root->children) {
        sortByPath(ns->children);
        for (auto& entity : ns->children)
            if (entity->kind == NodeKind::Topic)
                sortByPath(entity->children);
    }
    return root;
}

IconKind iconKind(const Node& node) {
    switch (node.kind) {
    case NodeKind::Namespace:
        return IconKind::Namespace;
    case NodeKind::Queue:
        return IconKind::Queue;
    case NodeKind::Topic:
        return IconKind::Topic;
    case NodeKind::Subscription:
        return IconKind::Subscription;
    case NodeKind::DeadLetterQueue:
        break;
    }
    return node.info.counts.deadLettered > 0 ? IconKind::DeadLetterQueue
                                             : IconKind::DeadLetterQueueEmpty;
}

QString autoDeleteText(const EntityInfo& info) {
    return NamespaceTreeModel::tr("\nAuto-delete on idle %1: deleted at %2 unless used")
        .arg(formatIsoDuration(info.properties.autoDeleteOnIdle), formatInstant(info.autoDeleteAt));
}

} // namespace

NamespaceTreeModel::NamespaceTreeModel(BrokerClient& client, QObject* parent)
    : QAbstractItemModel(parent)
    , m_client(client)
    , m_root(std::make_unique<Node>()) {
    m_countdownTimer.setInterval(kCountdownMs);
    connect(&m_countdownTimer, &QTimer::timeout, this,
            qOverload<>(&NamespaceTreeModel::tickCountdowns));
    // Every batch may change counts, entities or namespaces; the feed already coalesces them.
    connect(&m_client, &BrokerClient::changed, this, &NamespaceTreeModel::refresh);
    refresh();
}

NamespaceTreeModel::~NamespaceTreeModel() = default;

void NamespaceTreeModel::refresh() {
    if (!m_refresh.start())
        return;
    m_client.call(
        this,
        // The tree the snapshot describes is made on the worker too: for a thousand entities it
        // takes milliseconds, which the GUI thread keeps for the rows that change.
        [](Broker& b) { return buildTree(b.namespaces(), b.entities()); },
        [this](std::unique_ptr<Node> wanted) {
            apply(std::move(wanted));
            m_refresh.finish();
            if (m_refresh.takeQueued())
                refresh();
        });
}

void NamespaceTreeModel::apply(std::unique_ptr<Node> wanted) {
    sync(m_root.get(), *wanted, {});
    m_loaded = true;
    tickCountdowns();
    emit refreshed();
}

// Makes have's children match want's: removals first, then inserts and updates in order. Rows
// keep their relative order between snapshots (keys are paths, which never change), so what
// survives the removals is a subsequence of want's children.
void NamespaceTreeModel::sync(Node* have, Node& want, const QModelIndex& haveIndex) {
    QSet<QString> wantedKeys;
    for (const auto& child : want.children)
        wantedKeys.insert(child->key);
    for (int row = int(have->children.size()) - 1; row >= 0; --row) {
        if (wantedKeys.contains(have->children[row]->key))
            continue;
        beginRemoveRows(haveIndex, row, row);
        have->children.erase(have->children.begin() + row);
        endRemoveRows();
    }
    QSet<QString> haveKeys;
    for (const auto& child : have->children)
        haveKeys.insert(child->key);
    for (int row = 0; row < int(want.children.size()); ++row) {
        std::unique_ptr<Node>& wanted = want.children[row];
        // Only a namespace deleted and created again can move; its old row goes.
        while (row < int(have->children.size()) && have->children[row]->key != wanted->key &&
               haveKeys.contains(wanted->key)) {
            haveKeys.remove(have->children[row]->key);
            beginRemoveRows(haveIndex, row, row);
            have->children.erase(have->children.begin() + row);
            endRemoveRows();
        }
        if (row < int(have->children.size()) && have->children[row]->key == wanted->key) {
            Node* existing = have->children[row].get();
            if (!existing->sameData(*wanted)) {
                existing->name = wanted->name;
                existing->ns = wanted->ns;
                existing->info = wanted->info;
                emit dataChanged(index(row, 0, haveIndex), index(row, ColumnCount - 1, haveIndex));
            }
            sync(existing, *wanted, index(row, 0, haveIndex));
            continue;
        }
        // New rows side by side go in as one insertion: a view and the filter's proxy handle
        // each insertion whole, so the first listing of 1,000 entities row by row kept the GUI
        // thread busy for longer than a frame.
        int last = row;
        while (last + 1 < int(want.children.size()) &&
               !haveKeys.contains(want.children[last + 1]->key))
            ++last;
        beginInsertRows(haveIndex, row, last);
        for (int at = row; at <= last; ++at) {
            want.children[at]->parent = have;
            have->children.insert(have->children.begin() + at, std::move(want.children[at]));
        }
        endInsertRows();
        row = last;
    }
}

void NamespaceTreeModel::tickCountdowns() {
    bool anyCountdown = false;
    tickCountdowns(m_root.get(), anyCountdown);
    // The timer runs only while something counts down.
    if (anyCountdown && !m_countdownTimer.isActive())
        m_countdownTimer.start();
    else if (!anyCountdown)
        m_countdownTimer.stop();
}

void NamespaceTreeModel::tickCountdowns(Node* node, bool& anyCountdown) {
    for (const auto& child : node->children) {
        if (child->isEntity() && child->info.autoDeleteAt != kNever) {
            anyCountdown = true;
            const QModelIndex cell = indexOf(child.get(), DeletesInColumn);
            emit dataChanged(cell, cell, {Qt::DisplayRole, Qt::UserRole, Qt::ToolTipRole});
        }
        tickCountdowns(child.get(), anyCountdown);
    }
}

NamespaceTreeModel::Node* NamespaceTreeModel::nodeOf(const QModelIndex& index) const {
    return index.isValid() ? static_cast<Node*>(index.internalPointer()) : m_root.get();
}

const EntityInfo* NamespaceTreeModel::entityAt(const QModelIndex& index) const {
    const Node* node = index.isValid() ? nodeOf(index) : nullptr;
    return node && node->kind != NodeKind::Namespace ? &node->info : nullptr;
}

QModelIndex NamespaceTreeModel::indexOf(Node* node, int column) const {
    if (node == m_root.get())
        return {};
    return createIndex(node->row(), column, node);
}

QModelIndex NamespaceTreeModel::index(int row, int column, const QModelIndex& parent) const {
    if (!hasIndex(row, column, parent))
        return {};
    return createIndex(row, column, nodeOf(parent)->children[row].get());
}

QModelIndex NamespaceTreeModel::parent(const QModelIndex& child) const {
    if (!child.isValid())
        return {};
    return indexOf(nodeOf(child)->parent, 0);
}

int NamespaceTreeModel::rowCount(const QModelIndex& parent) const {
    if (parent.column() > 0)
        return 0;
    return int(nodeOf(parent)->children.size());
}

int NamespaceTreeModel::columnCount(const QModelIndex&) const {
    return ColumnCount;
}

QVariant NamespaceTreeModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn:
        return tr("Name");
    case ActiveColumn:
        return tr("Active");
    case ScheduledColumn:
        return tr("Scheduled");
    case DeferredColumn:
        return tr("Deferred");
    case LockedColumn:
        return tr("Locked");
    case DeadLetteredColumn:
        return tr("Dead-lettered");
    case DeletesInColumn:
        return tr("Deletes in");
    default:
        return {};
    }
}

QVariant NamespaceTreeModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const Node& node = *nodeOf(index);
    const int column = index.column();
    const bool deadLetter = node.kind == NodeKind::DeadLetterQueue;
    const qint64 deadLettered = node.info.counts.deadLettered;
    switch (role) {
    case Qt::DisplayRole:
        return display(node, column);
    case Qt::UserRole:
        return raw(node, column);
    case Qt::ToolTipRole:
        return toolTip(node);
    case Qt::DecorationRole:
        if (column == NameColumn)
            return EntityIcons::icon(iconKind(node));
        return {};
    case Qt::TextAlignmentRole:
        if (column != NameColumn)
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case Qt::FontRole:
        // The badge: a dead-letter queue with messages stands out.
        if (deadLetter && deadLettered > 0 && column == NameColumn) {
            QFont bold;
            bold.setBold(true);
            return bold;
        }
        return {};
    case Qt::ForegroundRole:
        if (deadLettered > 0 && node.kind != NodeKind::Namespace &&
            (column == DeadLetteredColumn || (deadLetter && column == NameColumn)))
            return QBrush(badgeText());
        return {};
    case Qt::BackgroundRole:
        if (deadLettered > 0 && node.isEntity() && column == DeadLetteredColumn)
            return QBrush(kBadgeBackground);
        return {};
    case PathRole:
        return node.key;
    case KindRole:
        return int(node.kind);
    case EntityKindRole:
        if (node.kind == NodeKind::Namespace)
            return {};
        return int(node.info.kind);
    default:
        return {};
    }
}

QVariant NamespaceTreeModel::raw(const Node& node, int column) const {
    if (column == NameColumn)
        return node.name;
    if (node.kind == NodeKind::Namespace)
        return {};
    const EntityCounts& counts = node.info.counts;
    if (!node.info.countsKnown && column != DeletesInColumn)
        return {};
    if (node.kind == NodeKind::DeadLetterQueue)
        return column == DeadLetteredColumn ? QVariant(counts.deadLettered) : QVariant();
    // A topic holds no messages (its subscriptions do): zeros there would only be noise.
    if (node.kind == NodeKind::Topic && column != DeletesInColumn)
        return {};
    switch (column) {
    case ActiveColumn:
        return counts.active;
    case ScheduledColumn:
        return counts.scheduled;
    case DeferredColumn:
        return counts.deferred;
    case LockedColumn:
        return counts.locked;
    case DeadLetteredColumn:
        return counts.deadLettered;
    case DeletesInColumn:
        if (node.info.autoDeleteAt == kNever)
            return {};
        return std::max<qint64>(0, node.info.autoDeleteAt - m_client.clock().now());
    default:
        return {};
    }
}

namespace {

bool isCountColumn(int column) {
    using Model = NamespaceTreeModel;
    return column == Model::ActiveColumn || column == Model::ScheduledColumn ||
           column == Model::DeferredColumn || column == Model::LockedColumn ||
           column == Model::DeadLetteredColumn;
}

} // namespace

QVariant NamespaceTreeModel::display(const Node& node, int column) const {
    if (column == NameColumn && node.kind == NodeKind::DeadLetterQueue &&
        node.info.counts.deadLettered > 0)
        return QStringLiteral("%1 (%2)").arg(node.name).arg(node.info.counts.deadLettered);
    // An entity that requires sessions says so, at a glance.
    const QString sessions =
        node.isEntity() && node.kind != NodeKind::Topic && node.info.properties.requiresSession
            ? tr(" · sessions")
            : QString();
    // How many rules decide what a subscription gets, at a glance.
    if (column == NameColumn && node.kind == NodeKind::Subscription) {
        const auto rules = node.info.rules.size();
        return (rules == 1 ? tr("%1 · 1 rule").arg(node.name)
                           : tr("%1 · %2 rules").arg(node.name).arg(rules)) +
               sessions;
    }
    if (column == NameColumn && !sessions.isEmpty())
        return node.name + sessions;
    // Counts the namespace would not give (a key without the Manage right): a dash, not a 0.
    if (!node.info.countsKnown && isCountColumn(column) &&
        (node.kind == NodeKind::Queue || node.kind == NodeKind::Subscription ||
         (node.kind == NodeKind::DeadLetterQueue && column == DeadLetteredColumn)))
        return QStringLiteral("—");
    const QVariant value = raw(node, column);
    if (column == DeletesInColumn && value.isValid())
        return shortDuration(value.toLongLong());
    return value.isValid() ? value.toString() : QVariant();
}

QString NamespaceTreeModel::toolTip(const Node& node) const {
    if (node.kind == NodeKind::Namespace) {
        return tr("Namespace %1 (%2 tier): %n entities", nullptr, int(node.children.size()))
            .arg(node.name, tierName(node.ns.tier));
    }
    const EntityCounts& counts = node.info.counts;
    if (!node.info.countsKnown && node.kind != NodeKind::Topic)
        return tr("%1 %2\nCounts unknown: this key cannot read the namespace's counts (that "
                  "needs the Manage right); peek to see its messages")
            .arg(node.kind == NodeKind::DeadLetterQueue ? tr("Dead-letter queue of")
                                                        : entityKindName(node.info.kind),
                 node.kind == NodeKind::DeadLetterQueue ? node.parent->key : node.key);
    if (node.kind == NodeKind::DeadLetterQueue)
        return tr("Dead-letter queue of %1: %n message(s)", nullptr, int(counts.deadLettered))
            .arg(node.parent->key);
    if (node.kind == NodeKind::Topic) {
        QString text = tr("Topic %1: its %n subscription(s) hold its messages", nullptr,
                          int(node.children.size()))
                           .arg(node.key);
        if (node.info.autoDeleteAt != kNever)
            text += autoDeleteText(node.info);
        return text;
    }
    QString text = tr("%1 %2\nActive %3, scheduled %4, deferred %5, locked %6, dead-lettered %7")
                       .arg(entityKindName(node.info.kind), node.key)
                       .arg(counts.active)
                       .arg(counts.scheduled)
                       .arg(counts.deferred)
                       .arg(counts.locked)
                       .arg(counts.deadLettered);
    if (node.kind == NodeKind::Subscription) {
        QStringList names;
        for (const Rule& rule : node.info.rules)
            names << rule.name;
        text += QLatin1Char('\n') + tr("Rules: %1").arg(names.join(QStringLiteral(", ")));
    }
    if (node.info.properties.requiresSession)
        text += QLatin1Char('\n') +
                tr("Requires sessions: its messages go out through session locks, one session "
                   "at a time, in order (the Sessions tab lists them)");
    if (node.info.autoDeleteAt != kNever)
        text += autoDeleteText(node.info);
    return text;
}

} // namespace hourglass::ui
