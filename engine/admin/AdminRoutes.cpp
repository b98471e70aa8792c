#include "AdminRoutes.h"

#include "AdminErrors.h"

#include "hourglass/EntityPath.h"

#include <QUrl>
#include <QUrlQuery>

#include <algorithm>
#include <limits>

namespace hourglass::admin {

namespace {
// The service's bounds (E2): a queue or topic path of 260 characters, names of 50.
constexpr qsizetype kMaxEntityPath = 260;
constexpr qsizetype kMaxName = 50;
constexpr qsizetype kMaxTarget = 4096;

bool isNameCharacter(QChar c) {
    return (c >= u'a' && c <= u'z') || (c >= u'A' && c <= u'Z') || (c >= u'0' && c <= u'9') ||
           c == u'.' || c == u'-' || c == u'_';
}

RouteResult refused(const QString& why) {
    return {std::nullopt, why};
}

// Checks one decoded segment of an entity's name; a rule's name may also have '$' ($Default).
QString segmentProblem(const QString& segment, bool dollar = false) {
    if (segment.isEmpty())
        return QStringLiteral("The path has an empty segment.");
    if (segment == u'.' || segment == QLatin1String(".."))
        return QStringLiteral("The path has a '.' or '..' segment.");
    for (const QChar c : segment) {
        if (c.category() == QChar::Other_Control)
            return QStringLiteral("The path contains a control character.");
        if (!isNameCharacter(c) && !(dollar && c == u'$'))
            return QStringLiteral("The name '%1' contains '%2'; only letters, digits, '.', '-' "
                                  "and '_' are allowed.")
                .arg(quoted(segment), quoted(QString(c)));
    }
    return {};
}

QString nameProblem(const QString& name, const char* what) {
    if (name.size() > kMaxName)
        return QStringLiteral("The %1 name '%2' is longer than %3 characters.")
            .arg(QLatin1String(what), quoted(name))
            .arg(kMaxName);
    return segmentProblem(name, QLatin1String(what) == QLatin1String("rule"));
}

bool same(const QString& a, const char* b) {
    return a.compare(QLatin1String(b), Qt::CaseInsensitive) == 0;
}

// $skip and $top; the other parameters (api-version, enrich) change nothing here. Names are
// compared decoded: the JavaScript client 7.10 sends `%24top` for `$top`.
QString readPaging(const QByteArray& query, Route& route) {
    const QList<QPair<QString, QString>> items =
        QUrlQuery(QString::fromUtf8(query)).queryItems(QUrl::FullyDecoded);
    const auto number = [&items](const char* name, int& into, int low, int high) -> bool {
        const QString key = QLatin1String(name);
        const auto item = std::find_if(items.begin(), items.end(),
                                       [&key](const auto& pair) { return pair.first == key; });
        if (item == items.end())
            return true;
        bool ok = false;
        const int value = item->second.toInt(&ok);
        if (!ok || value < low || value > high)
            return false;
        into = value;
        return true;
    };
    if (!number("$skip", route.skip, 0, std::numeric_limits<int>::max()))
        return QStringLiteral("$skip must be a whole number of 0 or more.");
    if (!number("$top", route.top, 1, kMaxPageSize))
        return QStringLiteral("$top must be a whole number from 1 to %1.").arg(kMaxPageSize);
    return {};
}

RouteResult entityRoute(Route route, const QStringList& segments) {
    const qsizetype at = [&segments] {
        for (qsizetype i = 1; i < segments.size(); ++i)
            if (same(segments.at(i), "Subscriptions"))
                return i;
        return qsizetype(-1);
    }();
    const QStringList entity = at < 0 ? segments : segments.mid(0, at);
    for (const QString& segment : entity)
        if (const QString problem = segmentProblem(segment); !problem.isEmpty())
            return refused(problem);
    route.entityPath = entity.join(u'/');
    if (route.entityPath.size() > kMaxEntityPath)
        return refused(QStringLiteral("The path '%1' is longer than %2 characters.")
                           .arg(quoted(route.entityPath))
                           .arg(kMaxEntityPath));
    if (at < 0) {
        route.kind = RouteKind::Entity;
        return {route, {}};
    }
    const QStringList rest = segments.mid(at + 1);
    if (rest.isEmpty()) {
        route.kind = RouteKind::Subscriptions;
        return {route, {}};
    }
    route.subscriptionName = rest.at(0);
    if (const QString problem = nameProblem(route.subscriptionName, "subscription");
        !problem.isEmpty())
        return refused(problem);
    if (rest.size() == 1) {
        route.kind = RouteKind::Subscription;
        return {route, {}};
    }
    if (!same(rest.at(1), "Rules") || rest.size() > 3)
        return refused(QStringLiteral("A subscription's path goes on only with Rules/<name>."));
    if (rest.size() == 2) {
        route.kind = RouteKind::Rules;
        return {route, {}};
    }
    route.ruleName = rest.at(2);
    if (const QString problem = nameProblem(route.ruleName, "rule"); !problem.isEmpty())
        return refused(problem);
    route.kind = RouteKind::Rule;
    return {route, {}};
}
} // namespace

bool Route::isList() const {
    return kind == RouteKind::Queues || kind == RouteKind::Topics ||
           kind == RouteKind::Subscriptions || kind == RouteKind::Rules;
}

QString Route::enginePath() const {
    if (kind == RouteKind::Entity)
        return entityPath;
    if (kind == RouteKind::Subscriptions)
        return entityPath;
    return entityPath + u'/' + kSubscriptionsSegment + u'/' + subscriptionName;
}

QByteArray targetPath(const QByteArray& target) {
    const qsizetype query = target.indexOf('?');
    return query < 0 ? target : target.left(query);
}

RouteResult parseRoute(const QByteArray& target) {
    if (target.size() > kMaxTarget)
        return refused(
            QStringLiteral("The request target is longer than %1 bytes.").arg(kMaxTarget));
    const QByteArray rawPath = targetPath(target);
    const QByteArray query = target.mid(rawPath.size() + 1);
    if (!rawPath.startsWith('/'))
        return refused(QStringLiteral("The request target must start with '/'."));
    // An encoded separator would make one segment look like two once decoded (or two like one).
    const QByteArray lower = rawPath.toLower();
    if (lower.contains("%2f") || lower.contains("%5c") || rawPath.contains('\\'))
        return refused(QStringLiteral("The path contains an encoded '/' or a '\\'."));
    QString path = QUrl::fromPercentEncoding(rawPath.mid(1));
    for (const QChar c : path)
        if (c.category() == QChar::Other_Control)
            return refused(QStringLiteral("The path contains a control character."));
    // A trailing slash names a list (".../Subscriptions/") as it does without one.
    if (path.endsWith(u'/'))
        path.chop(1);
    Route route;
    route.segments = path.split(u'/');
    if (const QString problem = readPaging(query, route); !problem.isEmpty())
        return refused(problem);
    const QStringList& segments = route.segments;
    if (path.isEmpty())
        return refused(QStringLiteral("The request names no entity."));
    if (segments.size() == 1 && same(segments.at(0), "$namespaceinfo")) {
        route.kind = RouteKind::NamespaceInfo;
        return {route, {}};
    }
    if (segments.size() == 2 && same(segments.at(0), "$Resources")) {
        if (same(segments.at(1), "Queues"))
            route.kind = RouteKind::Queues;
        else if (same(segments.at(1), "Topics"))
            route.kind = RouteKind::Topics;
        else
            return refused(QStringLiteral("Only $Resources/Queues and $Resources/Topics are "
                                          "listed."));
        return {route, {}};
    }
    return entityRoute(route, segments);
}

} // namespace hourglass::admin
