#pragma once
// A TCP relay on the test's thread that stands in for the network between a client and a served
// namespace: every connection made to its port is carried on to the target's, byte for byte,
// until the test cuts them all (both ends reset at once, as a dropped network or a peer that
// went away looks to each side). While it is down, a connection is taken and reset at once, as
// a host that is gone answers; `attempts` counts the connections it took meanwhile, so that a
// test can see how often a client tried. Its clients run on workers (WorkerCall.h) or on their
// own threads: it needs this thread's event loop.

#include <QHostAddress>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QTcpServer>
#include <QTcpSocket>

namespace hourglass::testing {

class CuttableRelay : public QObject {
public:
    explicit CuttableRelay(quint16 targetPort)
        : m_target(targetPort) {
        connect(&m_server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket* client = m_server.nextPendingConnection())
                accept(client);
        });
        m_server.listen(QHostAddress::LocalHost);
    }

    quint16 port() const { return m_server.serverPort(); }

    // Resets every connection it carries, both ends.
    void cut() {
        const QList<QPointer<QTcpSocket>> sockets = std::exchange(m_sockets, {});
        for (const QPointer<QTcpSocket>& socket : sockets)
            if (socket)
                socket->abort();
    }
    // Down: new connections are reset as they come (and counted). Up: carried again.
    void setDown(bool down) {
        m_down = down;
        attempts = 0;
    }

    // Connections taken while down.
    int attempts = 0;

private:
    void accept(QTcpSocket* client) {
        client->setParent(this);
        if (m_down) {
            ++attempts;
            client->abort();
            client->deleteLater();
            return;
        }
        auto* server = new QTcpSocket(client);
        m_sockets.append(client);
        m_sockets.append(server);
        QPointer<QTcpSocket> to(server);
        QPointer<QTcpSocket> from(client);
        connect(server, &QTcpSocket::connected, this,
                [client, server] { server->write(client->readAll()); });
        connect(client, &QTcpSocket::readyRead, this, [client, to] {
            if (to && to->state() == QAbstractSocket::ConnectedState)
                to->write(client->readAll());
        });
        connect(server, &QTcpSocket::readyRead, this, [server, from] {
            if (from)
                from->write(server->readAll());
        });
        auto closeBoth = [from, to] {
            if (from)
                from->disconnectFromHost();
            if (to)
                to->disconnectFromHost();
        };
        connect(server, &QTcpSocket::disconnected, this, closeBoth);
        connect(server, &QTcpSocket::errorOccurred, this, closeBoth);
        connect(client, &QTcpSocket::disconnected, this, closeBoth);
        server->connectToHost(QHostAddress::LocalHost, m_target);
    }

    QTcpServer m_server;
    quint16 m_target;
    bool m_down = false;
    QList<QPointer<QTcpSocket>> m_sockets;
};

} // namespace hourglass::testing
