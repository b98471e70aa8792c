#include "AdminFixture.h"

#include <QDateTime>
#include <QUrl>
#include <QXmlStreamReader>

namespace hourglass::testing {

AdminFixture::AdminFixture()
    : m_keys(amqp::wellKnownEmulatorKey()) {
    const auto refreshed = m_keys.refresh(m_broker.broker());
    if (!refreshed)
        qFatal("refresh failed: %s", qPrintable(refreshed.error().toString()));
    m_api = std::make_unique<admin::AdminApi>(m_broker.broker(), m_keys);
}

QByteArray AdminFixture::token(const QString& audience, const amqp::SasKey& key, qint64 expiresAt) {
    if (expiresAt == 0)
        expiresAt = QDateTime::currentSecsSinceEpoch() + 3600;
    return amqp::makeSasToken(audience, key, expiresAt).toUtf8();
}

admin::AdminRequest AdminFixture::request(const QByteArray& method, const QByteArray& target,
                                          const QByteArray& body) const {
    admin::AdminRequest request;
    request.method = method;
    request.target = target.contains('?') ? target : target + "?api-version=2021-05";
    request.host = kAdminHost;
    request.secure = true;
    request.body = body;
    const QString url = QStringLiteral("https://") + kAdminHost + QString::fromUtf8(request.target);
    request.headers.append(
        qMakePair(QByteArray("authorization"), token(url.toLower(), amqp::wellKnownEmulatorKey())));
    if (!body.isEmpty()) {
        request.headers.append(
            qMakePair(QByteArray("content-type"), QByteArray("application/atom+xml")));
        request.headers.append(
            qMakePair(QByteArray("content-length"), QByteArray::number(body.size())));
    }
    return request;
}

admin::AdminResponse AdminFixture::call(const admin::AdminRequest& request) const {
    return m_api->handle(request);
}

admin::AdminResponse AdminFixture::get(const QByteArray& target) const {
    return call(request("GET", target));
}

admin::AdminResponse AdminFixture::put(const QByteArray& target, const QByteArray& body,
                                       bool update) const {
    admin::AdminRequest r = request("PUT", target, body);
    if (update)
        r.headers.append(qMakePair(QByteArray("If-Match"), QByteArray("*")));
    return call(r);
}

admin::AdminResponse AdminFixture::remove(const QByteArray& target) const {
    return call(request("DELETE", target));
}

QByteArray atomEntry(const QString& description, const QString& inner) {
    return QStringLiteral(
               "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>"
               "<entry xmlns=\"http://www.w3.org/2005/Atom\">"
               "<updated>2026-01-01T00:00:00.000Z</updated>"
               "<content type=\"application/xml\">"
               "<%1 xmlns=\"http://schemas.microsoft.com/netservices/2010/10/servicebus/connect\" "
               "xmlns:i=\"http://www.w3.org/2001/XMLSchema-instance\">%2</%1>"
               "</content></entry>")
        .arg(description, inner)
        .toUtf8();
}

std::optional<admin::XmlElement> parsedBody(const admin::AdminResponse& response) {
    return admin::parseXml(response.body).root;
}

const admin::XmlElement* descriptionOf(const admin::XmlElement& entry) {
    const admin::XmlElement* content = entry.child(QStringLiteral("content"));
    if (!content || content->children.isEmpty())
        return nullptr;
    return &content->children.first();
}

QString childText(const admin::XmlElement* element, const QString& name) {
    if (!element)
        return QStringLiteral("<missing>");
    const admin::XmlElement* child = element->child(name);
    return child ? child->text : QStringLiteral("<missing>");
}

QList<admin::XmlElement> entriesOf(const admin::XmlElement& feed) {
    QList<admin::XmlElement> entries;
    for (const admin::XmlElement& child : feed.children)
        if (child.name == QLatin1String("entry"))
            entries.append(child);
    return entries;
}

QString linkOf(const QByteArray& feed, const QString& rel) {
    // The feed's own links are its children at depth 2 (an entry's links are deeper).
    QXmlStreamReader reader(feed);
    int depth = 0;
    while (!reader.atEnd()) {
        const auto token = reader.readNext();
        if (token == QXmlStreamReader::StartElement) {
            ++depth;
            if (depth == 2 && reader.name() == QLatin1String("link") &&
                reader.attributes().value(QStringLiteral("rel")) == rel)
                return reader.attributes().value(QStringLiteral("href")).toString();
        } else if (token == QXmlStreamReader::EndElement) {
            --depth;
        }
    }
    return {};
}

int linkCount(const QByteArray& feed) {
    QXmlStreamReader reader(feed);
    int depth = 0;
    int links = 0;
    while (!reader.atEnd()) {
        const auto token = reader.readNext();
        if (token == QXmlStreamReader::StartElement) {
            ++depth;
            if (depth == 2 && reader.name() == QLatin1String("link"))
                ++links;
        } else if (token == QXmlStreamReader::EndElement) {
            --depth;
        }
    }
    return links;
}

QString errorDetail(const admin::AdminResponse& response) {
    const auto root = parsedBody(response);
    if (!root || root->name != QLatin1String("Error"))
        return {};
    return childText(&*root, QStringLiteral("Detail"));
}

} // namespace hourglass::testing
