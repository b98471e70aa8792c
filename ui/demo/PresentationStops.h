#pragma once
// Where presentation mode goes on Left/Right: the namespace's queues and subscriptions in the
// tree's order (topics keep no messages, so they are passed over), wrapping around at both ends.
// Pure functions over Broker::entities, so the view reads the list off the GUI thread and only
// picks here. Also the names the presentation header shows for a qualified path.

#include "hourglass/Broker.h"
#include "tree/NamespaceTreeModel.h"

#include <QList>
#include <QString>

#include <optional>
#include <utility>

namespace hourglass::ui::presentation {

struct Stop {
    QString path; // "ns:path"
    NamespaceTreeModel::NodeKind kind = NamespaceTreeModel::NodeKind::Queue;
};

// The stop `delta` steps from `from` ("ns:q"; a namespace or topic starts before its first
// queue or subscription, so Right goes to its first one). Nothing when there is no stop.
std::optional<Stop> stepFrom(const QList<EntityInfo>& entities, const QString& from, int delta);

// "ns:path" -> {"ns", "path"}; a bare name is a namespace: {"ns", ""}.
std::pair<QString, QString> splitQualified(const QString& qualified);
// "events/Subscriptions/audit" reads "events › audit" on a projector.
QString displayName(const QString& entityPath);
// "Queue", "Subscription", "Dead-letter queue", ...
QString kindText(NamespaceTreeModel::NodeKind kind);

} // namespace hourglass::ui::presentation
