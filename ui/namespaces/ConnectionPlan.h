#pragma once
// What opening a namespace will do, in one line for the Connect dialog: "AMQP over TLS to
// contoso.servicebus.windows.net:5671, administration over HTTPS on 443", or "Plain AMQP to
// localhost:5672, administration over HTTP on 5672". The ports follow the connection string's
// rules (hourglass/remote/ConnectionString.h); a second, administration-only string (Microsoft's
// emulator serves administration on 5300) moves administration there; WebSockets carry AMQP over
// HTTPS's port (443 unless the string names one), through the system's proxy.

#include "hourglass/remote/ConnectionString.h"

#include <QString>

#include <optional>

namespace hourglass::ui {

// The port AMQP over WebSockets uses for `connection`.
int webSocketPort(const remote::ConnectionString& connection);

QString connectionPlanText(const remote::ConnectionString& connection,
                           const std::optional<remote::ConnectionString>& admin, bool webSockets);

} // namespace hourglass::ui
