#pragma once
// One broker (namespace "test", Standard, on a paused VirtualClock), its keys, and an AdminApi
// over them; requests signed and shaped as the JavaScript SDK 7.9.5 sends them.

#include "AdminRoutes.h"
#include "XmlTree.h"

#include "TestBroker.h"

#include "hourglass/admin/AdminApi.h"
#include "hourglass/amqp/NamespaceKeys.h"

#include <QString>

namespace hourglass::testing {

inline const QString kAdminHost = QStringLiteral("localhost:5671");

class AdminFixture {
public:
    AdminFixture();

    Broker& broker() { return m_broker.broker(); }
    TestBroker& testBroker() { return m_broker; }
    amqp::NamespaceKeyRing& keys() { return m_keys; }

    // A request as the JavaScript administration client sends it: https://localhost:5671,
    // `?api-version=2021-05` appended to `target` (unless it has a query), signed with the
    // default namespace's key over the full request URL in lower case.
    admin::AdminRequest request(const QByteArray& method, const QByteArray& target,
                                const QByteArray& body = {}) const;
    admin::AdminResponse call(const admin::AdminRequest& request) const;
    admin::AdminResponse get(const QByteArray& target) const;
    admin::AdminResponse put(const QByteArray& target, const QByteArray& body,
                             bool update = false) const;
    admin::AdminResponse remove(const QByteArray& target) const;

    // The token header value for `audience` with `key`, valid for an hour (or until `expiresAt`).
    static QByteArray token(const QString& audience, const amqp::SasKey& key, qint64 expiresAt = 0);

private:
    TestBroker m_broker;
    amqp::NamespaceKeyRing m_keys;
    std::unique_ptr<admin::AdminApi> m_api;
};

// The JavaScript SDK's request body: an Atom entry around `description` (a QueueDescription,
// TopicDescription, SubscriptionDescription or RuleDescription element name) holding `inner`.
QByteArray atomEntry(const QString& description, const QString& inner);

// A reply's body as a tree (empty when it does not parse).
std::optional<admin::XmlElement> parsedBody(const admin::AdminResponse& response);
// An entry's description (entry/content/*), or null.
const admin::XmlElement* descriptionOf(const admin::XmlElement& entry);
// The text of `element`'s child `name`; "<missing>" when there is none.
QString childText(const admin::XmlElement* element, const QString& name);
// The entries of a feed.
QList<admin::XmlElement> entriesOf(const admin::XmlElement& feed);
// The href of the feed's own link with `rel` ("self", "next"), or empty; how many it has.
QString linkOf(const QByteArray& feed, const QString& rel);
int linkCount(const QByteArray& feed);
// The text of <Error><Detail> (empty when the body is not an error).
QString errorDetail(const admin::AdminResponse& response);

} // namespace hourglass::testing
