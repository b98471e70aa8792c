#pragma once
// The system's proxy for the remote client's HTTP-shaped traffic: AMQP over WebSockets and the
// administration API. Qt asks the system per address (on Linux: http_proxy, https_proxy and
// no_proxy, or the desktop's settings, through libproxy), rather than the whole process being
// switched over with QNetworkProxyFactory::setUseSystemConfiguration: a library should not change
// how every other socket in the window connects. Plain AMQP (5671, 5672) goes direct, as the
// Azure SDKs do: HTTP proxies tunnel HTTPS's port, and WebSockets are the way through them.

#include <QNetworkProxy>
#include <QNetworkProxyFactory>
#include <QUrl>

namespace hourglass::remote {

// The proxy to reach `url` through, or NoProxy. A WebSocket address is asked as the HTTP address
// it upgrades from (wss as https, ws as http), so that https_proxy covers wss as browsers and the
// SDKs read it.
QNetworkProxy systemProxyFor(const QUrl& url);

// For a QNetworkAccessManager of our own (setProxyFactory): every request asks the system.
class SystemProxyFactory final : public QNetworkProxyFactory {
public:
    QList<QNetworkProxy> queryProxy(const QNetworkProxyQuery& query) override;
};

} // namespace hourglass::remote
