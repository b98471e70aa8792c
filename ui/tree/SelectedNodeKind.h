#pragma once
// The tree row kind of what NamespaceTreePanel::entitySelected reports (an entity's kind, or its
// dead-letter queue): one mapping for every tree the window shows.

#include "hourglass/EntityProperties.h"
#include "tree/NamespaceTreeModel.h"

namespace hourglass::ui {

inline NamespaceTreeModel::NodeKind selectedNodeKind(EntityKind kind, bool deadLetter) {
    using NodeKind = NamespaceTreeModel::NodeKind;
    if (deadLetter)
        return NodeKind::DeadLetterQueue;
    if (kind == EntityKind::Topic)
        return NodeKind::Topic;
    if (kind == EntityKind::Subscription)
        return NodeKind::Subscription;
    return NodeKind::Queue;
}

} // namespace hourglass::ui
