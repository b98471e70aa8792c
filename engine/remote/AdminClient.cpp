// The administration client's calls: a request per call (two for an update, which reads the
// kind first), lists followed page by page, HTTP statuses as the engine's error codes.

#include "hourglass/remote/AdminClient.h"

#include "AdminAuthorization.h"
#include "AdminTransport.h"

#include "hourglass/EntityPath.h"
#include "hourglass/admin/AtomCodec.h"

#include <QDateTime>
#include <QUrl>

namespace hourglass::remote {

namespace {
const QString kApiVersion = QStringLiteral("api-version=2021-05");
// More entities than any namespace holds (Azure: 10,000 per Standard namespace): a service that
// keeps offering pages past it is not one to follow.
constexpr int kMaxListed = 100'000;

Error problem(const QString& description) {
    return makeError(ErrorCode::ServiceCommunicationProblem, description);
}

// A path's segments percent-encoded, joined by '/'; `trailingSlash` for the lists that the SDKs
// ask for with one ("t/Subscriptions/").
QString encodedPath(const QString& path, bool trailingSlash = false) {
    QStringList segments;
    for (const QString& segment : path.split(u'/', Qt::SkipEmptyParts))
        segments.append(QString::fromLatin1(QUrl::toPercentEncoding(segment, "$")));
    QString joined = segments.join(u'/');
    if (trailingSlash)
        joined += u'/';
    return joined;
}

// The engine's code for an HTTP status that is not a success, with the service's detail.
Error statusError(const HttpAnswer& answer) {
    const QString detail = admin::readErrorDetail(answer.body).value_or(QString());
    const QString said = detail.isEmpty() ? QString() : QStringLiteral(": ") + detail;
    switch (answer.status) {
    case 401:
    case 403:
        return makeError(ErrorCode::Unauthorized,
                         QStringLiteral("The namespace refused the credentials (%1)%2")
                             .arg(answer.status)
                             .arg(said));
    case 404:
        return makeError(ErrorCode::MessagingEntityNotFound,
                         QStringLiteral("The namespace has no such entity%1").arg(said));
    case 409:
        return makeError(ErrorCode::MessagingEntityAlreadyExists,
                         QStringLiteral("The entity already exists%1").arg(said));
    case 400:
        return makeError(ErrorCode::InvalidArgument,
                         QStringLiteral("The namespace refused the request%1").arg(said));
    case 503:
        return makeError(ErrorCode::ServiceBusy,
                         QStringLiteral("The namespace is busy%1").arg(said));
    default:
        break;
    }
    return problem(QStringLiteral("The namespace answered with HTTP status %1%2")
                       .arg(answer.status)
                       .arg(said));
}

bool isSubscriptionPath(const QString& path) {
    return path.contains(QLatin1String("/Subscriptions/"), Qt::CaseInsensitive);
}
} // namespace

AdminClientOptions AdminClientOptions::forConnection(const ConnectionString& connection) {
    AdminClientOptions options;
    options.baseUrl = connection.adminBaseUrl();
    options.connection = connection;
    return options;
}

struct AdminClient::State {
    AdminClientOptions options;
    AdminTransport transport;

    explicit State(AdminClientOptions o)
        : options(std::move(o))
        , transport(options.extraCaFile, options.timeout) {
        if (!options.baseUrl.endsWith(u'/'))
            options.baseUrl += u'/';
    }

    QUrl url(const QString& encoded, const QString& query = {}) const {
        QString text = options.baseUrl + encoded + u'?';
        if (!query.isEmpty())
            text += query + u'&';
        return QUrl(text + kApiVersion, QUrl::StrictMode);
    }

    // One request; the answer when its status is a success, else the status's error.
    Result<QByteArray> call(const QByteArray& method, const QUrl& url, const QByteArray& body = {},
                            bool ifMatch = false) {
        if (!url.isValid())
            return makeError(ErrorCode::InvalidArgument,
                             QStringLiteral("The entity's path does not make an address."));
        const auto authorization = adminAuthorization(options, QDateTime::currentSecsSinceEpoch());
        if (!authorization)
            return authorization.error();
        HttpExchange request{method, url, {{"Authorization", *authorization}}, body};
        if (!body.isEmpty())
            request.headers.append(std::pair<QByteArray, QByteArray>(
                "Content-Type", "application/atom+xml;type=entry;charset=utf-8"));
        if (ifMatch)
            request.headers.append(std::pair<QByteArray, QByteArray>("If-Match", "*"));
        const auto answer = transport.exchange(request);
        if (!answer)
            return answer.error();
        if (answer->status < 200 || answer->status > 299)
            return statusError(*answer);
        return answer->body;
    }

    // Every page of a list: `read` turns a page's body into its items and the next `$skip`.
    template <typename Item, typename Read>
    Result<QList<Item>> list(const QString& encoded, Read read) {
        QList<Item> items;
        int skip = 0;
        while (true) {
            const QString query =
                QStringLiteral("$skip=%1&$top=%2").arg(skip).arg(options.pageSize);
            const auto body = call("GET", url(encoded, query));
            if (!body)
                return body.error();
            auto page = read(*body);
            if (!page)
                return page.error();
            const qsizetype got = page->first.size();
            items.append(std::move(page->first));
            if (!page->second)
                return items;
            // A next page must start past this one, and this one must have held something:
            // else the pages go round in a circle.
            if (got == 0 || *page->second <= skip || items.size() > kMaxListed)
                return problem(QStringLiteral("The namespace's pages of this list do not end."));
            skip = *page->second;
        }
    }

    Result<QList<EntityInfo>> entities(const QString& encoded) {
        return list<EntityInfo>(
            encoded,
            [](const QByteArray& body) -> Result<std::pair<QList<EntityInfo>, std::optional<int>>> {
                auto page = admin::readEntityFeed(body);
                if (!page)
                    return page.error();
                return std::pair{std::move(page->entities), page->nextSkip};
            });
    }

    Result<EntityInfo> put(const QString& path, const EntityInfo& entity, bool update) {
        const auto host = options.connection.host;
        const auto body =
            call("PUT", url(encodedPath(path)), admin::entityRequest(host, entity, update), update);
        if (!body)
            return body.error();
        return admin::readEntityReply(*body);
    }

    QString rulePath(const QString& subscriptionPath, const QString& ruleName) const {
        return encodedPath(subscriptionPath) + QStringLiteral("/Rules/") + encodedPath(ruleName);
    }
};

AdminClient::AdminClient(AdminClientOptions options)
    : m_state(std::make_unique<State>(std::move(options))) {}

AdminClient::~AdminClient() = default;

const AdminClientOptions& AdminClient::options() const {
    return m_state->options;
}

Result<NamespaceInfo> AdminClient::namespaceInfo() {
    const auto body = m_state->call("GET", m_state->url(QStringLiteral("$namespaceinfo")));
    if (!body)
        return body.error();
    return admin::readNamespaceReply(*body);
}

Result<QList<EntityInfo>> AdminClient::queues() {
    return m_state->entities(QStringLiteral("$Resources/Queues"));
}

Result<QList<EntityInfo>> AdminClient::topics() {
    return m_state->entities(QStringLiteral("$Resources/Topics"));
}

Result<QList<EntityInfo>> AdminClient::subscriptions(const QString& topicPath) {
    return m_state->entities(encodedPath(topicPath + QStringLiteral("/Subscriptions"), true));
}

Result<QList<Rule>> AdminClient::rules(const QString& subscriptionPath) {
    return m_state->list<Rule>(
        encodedPath(subscriptionPath + QStringLiteral("/Rules"), true),
        [](const QByteArray& body) -> Result<std::pair<QList<Rule>, std::optional<int>>> {
            auto page = admin::readRuleFeed(body);
            if (!page)
                return page.error();
            return std::pair{std::move(page->rules), page->nextSkip};
        });
}

Result<EntityInfo> AdminClient::entity(const QString& path) {
    const auto body = m_state->call("GET", m_state->url(encodedPath(path)));
    if (!body)
        return body.error();
    auto entity = admin::readEntityReply(*body);
    if (!entity || entity->kind != EntityKind::Subscription)
        return entity;
    auto rules = this->rules(entity->path);
    if (!rules)
        return rules.error();
    entity->rules = std::move(rules).value();
    return entity;
}

Result<EntityInfo> AdminClient::createQueue(const QString& path,
                                            const EntityProperties& properties) {
    EntityInfo entity;
    entity.kind = EntityKind::Queue;
    entity.properties = properties;
    return m_state->put(path, entity, false);
}

Result<EntityInfo> AdminClient::createTopic(const QString& path,
                                            const EntityProperties& properties) {
    EntityInfo entity;
    entity.kind = EntityKind::Topic;
    entity.properties = properties;
    return m_state->put(path, entity, false);
}

Result<EntityInfo> AdminClient::createSubscription(const QString& path,
                                                   const EntityProperties& properties,
                                                   const QList<Rule>& rules) {
    if (!isSubscriptionPath(path))
        return makeError(ErrorCode::InvalidArgument,
                         QStringLiteral("A subscription's path is topic/Subscriptions/name."));
    EntityInfo entity;
    entity.kind = EntityKind::Subscription;
    entity.properties = properties;
    entity.rules = rules.mid(0, 1);
    auto created = m_state->put(path, entity, false);
    if (!created)
        return created;
    for (qsizetype i = 1; i < rules.size(); ++i)
        if (auto added = addRule(created->path, rules.at(i)); !added)
            return added.error();
    auto all = this->rules(created->path);
    if (!all)
        return all.error();
    created->rules = std::move(all).value();
    return created;
}

Result<EntityInfo> AdminClient::updateEntity(const QString& path,
                                             const EntityProperties& properties) {
    auto current = entity(path);
    if (!current)
        return current;
    EntityInfo changed = *current;
    changed.properties = properties;
    changed.rules.clear(); // an update carries no rule
    auto updated = m_state->put(path, changed, true);
    if (updated)
        updated->rules = current->rules;
    return updated;
}

Result<void> AdminClient::deleteEntity(const QString& path) {
    const auto body = m_state->call("DELETE", m_state->url(encodedPath(path)));
    if (!body)
        return body.error();
    return {};
}

Result<void> AdminClient::addRule(const QString& subscriptionPath, const Rule& rule) {
    const auto body =
        m_state->call("PUT", m_state->url(m_state->rulePath(subscriptionPath, rule.name)),
                      admin::ruleRequest(rule));
    if (!body)
        return body.error();
    if (const auto read = admin::readRuleReply(*body); !read)
        return read.error();
    return {};
}

Result<void> AdminClient::replaceRule(const QString& subscriptionPath, const QString& ruleName,
                                      const Rule& rule) {
    if (rule.name.compare(ruleName, Qt::CaseInsensitive) != 0) {
        if (auto added = addRule(subscriptionPath, rule); !added)
            return added;
        return removeRule(subscriptionPath, ruleName);
    }
    const auto body =
        m_state->call("PUT", m_state->url(m_state->rulePath(subscriptionPath, ruleName)),
                      admin::ruleRequest(rule), true);
    if (!body)
        return body.error();
    if (const auto read = admin::readRuleReply(*body); !read)
        return read.error();
    return {};
}

Result<void> AdminClient::removeRule(const QString& subscriptionPath, const QString& ruleName) {
    const auto body =
        m_state->call("DELETE", m_state->url(m_state->rulePath(subscriptionPath, ruleName)));
    if (!body)
        return body.error();
    return {};
}

} // namespace hourglass::remote
