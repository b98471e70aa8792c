#pragma once
// Who may make a request: the shared access signature in its Authorization header, verified with
// the namespaces' keys (the key that verifies it names the namespace), then taken as a scope.
// Clients sign different audiences (`sr`): the JavaScript administration client the full request
// URL in lower case, query included; the Python one the namespace root with its port; the AMQP
// clients `sb://host:port/entity`. So the signature is checked over the token's own `sr`, and
// then `sr` must cover the request: its host is the request's host (without regard to case),
// scheme and port are ignored, and its path is a prefix of the request's path, segment by segment
// and without regard to case.

#include "hourglass/admin/AdminApi.h"

#include <QString>
#include <QStringList>

#include <optional>

namespace hourglass::admin {

struct Authorization {
    std::optional<QString> namespaceName; // set when the request may go on
    QString refusal;                      // why not (401)
};

// `segments`: the request's decoded path segments; `host`: AdminRequest::host.
Authorization authorize(const QByteArray& authorizationHeader, const QString& host,
                        const QStringList& segments, const amqp::NamespaceKeyRing& keys,
                        qint64 nowSeconds);

// "Host:port", "[::1]:5671" -> "host", "::1" (lower case).
QString hostWithoutPort(const QString& host);

} // namespace hourglass::admin
