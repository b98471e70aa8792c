#pragma once
// The administration API of a namespace Hourglass does not host (Azure, Microsoft's emulator,
// another machine's `hourglass serve`): ATOM over HTTP(S), as ServiceBusAdministrationClient
// speaks it, with the engine's own types (Broker.h's EntityInfo, EntityProperties, EntityCounts,
// Rule.h's Rule) so that the window's panels read a remote namespace as they read the local one.
//
// Threads: every call blocks until its answer or the timeout (never longer), so call it from a
// worker thread, never the GUI's. The HTTP itself runs on a thread the client owns. Calls may
// come from several threads at once; destroy the client once every call has returned.
//
// Errors: 401 and 403 are Unauthorized (a Listen- or Send-only key gets them: the window still
// browses the entities the user names), 404 MessagingEntityNotFound, 409
// MessagingEntityAlreadyExists, 400 InvalidArgument, 503 ServiceBusy; no answer, a certificate
// that does not verify, the timeout, or an answer that is not the service's is
// ServiceCommunicationProblem. An error quotes at most a short prefix of what the server sent.

#include "hourglass/Broker.h"
#include "hourglass/Rule.h"
#include "hourglass/Status.h"
#include "hourglass/remote/ConnectionString.h"

#include <QList>
#include <QString>

#include <chrono>
#include <functional>
#include <memory>

namespace hourglass::remote {

// A Microsoft Entra ID access token for the namespace (scope
// https://servicebus.azure.net/.default), fresh enough for one request; called on the caller's
// thread before each request, so from several threads at once when calls overlap. (The AMQP
// client's TokenProvider gives a token per audience; HTTPS needs only the namespace's.)
using BearerTokenProvider = std::function<Result<QString>()>;

struct AdminClientOptions {
    // Where the API is: ConnectionString::adminBaseUrl() of the namespace's string, or of a
    // second, administration-only string (Microsoft's emulator serves it on port 5300).
    QString baseUrl;
    // The credential (key, or signature as given) and the namespace's host, which forwarding
    // addresses name (sb://<host>/<path>).
    ConnectionString connection;
    // When set, requests carry `Bearer <token>` from it instead of the string's credential.
    BearerTokenProvider tokenProvider;
    // PEM certificates trusted for HTTPS besides the system's (`hourglass serve --tls`'s CA).
    QString extraCaFile;
    std::chrono::milliseconds timeout{30'000};
    // Entries asked for per page of a list ($top); the service gives at most 100 or 1,000.
    int pageSize = 100;

    // The options for `connection` as it stands: its own base URL.
    static AdminClientOptions forConnection(const ConnectionString& connection);
};

class AdminClient {
public:
    explicit AdminClient(AdminClientOptions options);
    ~AdminClient();
    AdminClient(const AdminClient&) = delete;
    AdminClient& operator=(const AdminClient&) = delete;

    const AdminClientOptions& options() const;

    // $namespaceinfo: the namespace's name and tier.
    Result<NamespaceInfo> namespaceInfo();

    // Every queue, topic, subscription of `topicPath`, rule of `subscriptionPath`: each page the
    // service gives, following its `next` link to the end. Entities carry their runtime counts;
    // a listed subscription's rules are not read (entity() and rules() read them).
    Result<QList<EntityInfo>> queues();
    Result<QList<EntityInfo>> topics();
    Result<QList<EntityInfo>> subscriptions(const QString& topicPath);
    Result<QList<Rule>> rules(const QString& subscriptionPath);

    // One queue, topic or subscription ("t/Subscriptions/s") with its runtime counts, and a
    // subscription with its rules.
    Result<EntityInfo> entity(const QString& path);

    Result<EntityInfo> createQueue(const QString& path, const EntityProperties& properties);
    Result<EntityInfo> createTopic(const QString& path, const EntityProperties& properties);
    // `path` is "topic/Subscriptions/name". The first of `rules` is sent with the subscription
    // (in place of the service's $Default true rule), the others added after it; none: $Default.
    Result<EntityInfo> createSubscription(const QString& path, const EntityProperties& properties,
                                          const QList<Rule>& rules = {});
    // Replaces every property (If-Match: *). The entity's kind is read first: the description
    // sent must name it.
    Result<EntityInfo> updateEntity(const QString& path, const EntityProperties& properties);
    Result<void> deleteEntity(const QString& path);

    Result<void> addRule(const QString& subscriptionPath, const Rule& rule);
    // Replaces the rule `ruleName` (If-Match: *). A rule under another name is added before the
    // old one is removed: the API has no rename, so a failure between the two leaves both.
    Result<void> replaceRule(const QString& subscriptionPath, const QString& ruleName,
                             const Rule& rule);
    Result<void> removeRule(const QString& subscriptionPath, const QString& ruleName);

private:
    struct State;
    std::unique_ptr<State> m_state;
};

} // namespace hourglass::remote
