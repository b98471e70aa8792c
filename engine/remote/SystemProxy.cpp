#include "SystemProxy.h"

namespace hourglass::remote {

namespace {
// The first proxy the system offers that can carry a connection of ours (an HTTP CONNECT tunnel
// or SOCKS5); NoProxy when it names none, or says to go direct.
QNetworkProxy firstUsable(const QList<QNetworkProxy>& offered) {
    for (const QNetworkProxy& proxy : offered) {
        if (proxy.type() == QNetworkProxy::NoProxy || proxy.type() == QNetworkProxy::DefaultProxy)
            return QNetworkProxy(QNetworkProxy::NoProxy);
        if (proxy.capabilities() & QNetworkProxy::TunnelingCapability)
            return proxy;
    }
    return QNetworkProxy(QNetworkProxy::NoProxy);
}
} // namespace

QNetworkProxy systemProxyFor(const QUrl& url) {
    QUrl asked = url;
    if (url.scheme() == QLatin1String("wss"))
        asked.setScheme(QStringLiteral("https"));
    else if (url.scheme() == QLatin1String("ws"))
        asked.setScheme(QStringLiteral("http"));
    return firstUsable(QNetworkProxyFactory::systemProxyForQuery(QNetworkProxyQuery(asked)));
}

QList<QNetworkProxy> SystemProxyFactory::queryProxy(const QNetworkProxyQuery& query) {
    return QNetworkProxyFactory::systemProxyForQuery(query);
}

} // namespace hourglass::remote
