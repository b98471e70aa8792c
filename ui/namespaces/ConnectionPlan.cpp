#include "namespaces/ConnectionPlan.h"

#include <QCoreApplication>

namespace hourglass::ui {

namespace {

constexpr int kHttpsPort = 443;

QString hostText(const QString& host) {
    return host.contains(QLatin1Char(':')) ? QStringLiteral("[%1]").arg(host) : host;
}

QString tr(const char* text) {
    return QCoreApplication::translate("ConnectionPlan", text);
}

} // namespace

int webSocketPort(const remote::ConnectionString& connection) {
    return connection.port != 0 ? connection.port : kHttpsPort;
}

QString connectionPlanText(const remote::ConnectionString& connection,
                           const std::optional<remote::ConnectionString>& admin, bool webSockets) {
    const QString host = hostText(connection.host);
    QString amqp;
    if (webSockets)
        amqp = tr("AMQP over WebSockets to %1:%2 through the system proxy")
                   .arg(host)
                   .arg(webSocketPort(connection));
    else if (connection.usesTls())
        amqp = tr("AMQP over TLS to %1:%2").arg(host).arg(connection.amqpPort());
    else
        amqp = tr("Plain AMQP to %1:%2").arg(host).arg(connection.amqpPort());

    const remote::ConnectionString& adminConnection = admin ? *admin : connection;
    const QString scheme =
        adminConnection.usesTls() ? QStringLiteral("HTTPS") : QStringLiteral("HTTP");
    // The port alone when administration is on the same host; the host too when it is not.
    const QString where = adminConnection.host.compare(connection.host, Qt::CaseInsensitive) == 0
                              ? QString::number(adminConnection.adminPort())
                              : QStringLiteral("%1:%2")
                                    .arg(hostText(adminConnection.host))
                                    .arg(adminConnection.adminPort());
    return tr("%1, administration over %2 on %3").arg(amqp, scheme, where);
}

} // namespace hourglass::ui
