#include "demo/PresentationStops.h"

#include <QCoreApplication>

namespace hourglass::ui::presentation {

namespace {
using Kind = NamespaceTreeModel::NodeKind;

QString tr(const char* text) {
    return QCoreApplication::translate("hourglass::ui::PresentationView", text);
}
} // namespace

std::optional<Stop> stepFrom(const QList<EntityInfo>& entities, const QString& from, int delta) {
    QList<Stop> stops;
    for (const EntityInfo& e : entities) {
        if (e.kind != EntityKind::Topic)
            stops.append({e.namespaceName + QLatin1Char(':') + e.path,
                          e.kind == EntityKind::Queue ? Kind::Queue : Kind::Subscription});
    }
    if (stops.isEmpty())
        return std::nullopt;
    const qsizetype count = stops.size();
    for (qsizetype i = 0; i < count; ++i) {
        if (stops[i].path == from)
            return stops[((i + delta) % count + count) % count];
    }
    // From a namespace or topic (or an entity gone meanwhile): forward to the topic's first
    // subscription, else the first stop; backward to the last.
    if (delta < 0)
        return stops.last();
    const QString subscriptions = from + QStringLiteral("/Subscriptions/");
    for (const Stop& stop : std::as_const(stops)) {
        if (stop.path.startsWith(subscriptions))
            return stop;
    }
    return stops.first();
}

std::pair<QString, QString> splitQualified(const QString& qualified) {
    const qsizetype colon = qualified.indexOf(QLatin1Char(':'));
    if (colon < 0)
        return {qualified, {}};
    return {qualified.left(colon), qualified.mid(colon + 1)};
}

QString displayName(const QString& entityPath) {
    return QString(entityPath).replace(QStringLiteral("/Subscriptions/"), QStringLiteral(" › "));
}

QString kindText(Kind kind) {
    switch (kind) {
    case Kind::Namespace:
        return tr("Namespace");
    case Kind::Queue:
        return tr("Queue");
    case Kind::Topic:
        return tr("Topic");
    case Kind::Subscription:
        return tr("Subscription");
    case Kind::DeadLetterQueue:
        return tr("Dead-letter queue");
    }
    return {};
}

} // namespace hourglass::ui::presentation
