#pragma once
// A TCP relay that stands in for the network between a client and a served namespace: every
// connection made to its port is carried on to the target's, byte for byte, until the test cuts
// them all (both ends reset at once, as a dropped network or a peer that went away looks to each
// side). While it is down, a connection is taken and reset at once, as a host that is gone
// answers; attempts() counts the connections it took meanwhile, so that a test can see how often
// a client tried. It runs on a thread of its own, so that it carries bytes whatever the test's
// thread does (a window closing waits there for calls in flight).

#include <QHostAddress>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QTcpServer>
#include <QTcpSocket>
#include <QThread>

#include <atomic>
#include <memory>

namespace hourglass::testing {

class CuttableRelay {
public:
    explicit CuttableRelay(quint16 targetPort) {
        m_thread.start();
        m_context.moveToThread(&m_thread);
        onThread([this, targetPort] { m_relay = std::make_unique<Relay>(targetPort, m_attempts); });
    }
    ~CuttableRelay() {
        onThread([this] { m_relay.reset(); });
        m_thread.quit();
        m_thread.wait();
    }
    CuttableRelay(const CuttableRelay&) = delete;
    CuttableRelay& operator=(const CuttableRelay&) = delete;

    quint16 port() const { return m_relay->port; }
    // Resets every connection it carries, both ends.
    void cut() {
        onThread([this] { m_relay->cut(); });
    }
    // Down: new connections are reset as they come (and counted). Up: carried again.
    void setDown(bool down) {
        m_attempts = 0;
        onThread([this, down] { m_relay->down = down; });
    }
    // Connections taken while down.
    int attempts() const { return m_attempts.load(); }

private:
    class Relay : public QObject {
    public:
        Relay(quint16 target, std::atomic<int>& attempts)
            : m_target(target)
            , m_attempts(attempts) {
            connect(&m_server, &QTcpServer::newConnection, this, [this] {
                while (QTcpSocket* client = m_server.nextPendingConnection())
                    accept(client);
            });
            m_server.listen(QHostAddress::LocalHost);
            port = m_server.serverPort();
        }

        void cut() {
            const QList<QPointer<QTcpSocket>> sockets = std::exchange(m_sockets, {});
            for (const QPointer<QTcpSocket>& socket : sockets)
                if (socket)
                    socket->abort();
        }

        quint16 port = 0;
        bool down = false;

    private:
        void accept(QTcpSocket* client) {
            client->setParent(this);
            if (down) {
                ++m_attempts;
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
        std::atomic<int>& m_attempts;
        QList<QPointer<QTcpSocket>> m_sockets;
    };

    template <typename F> void onThread(F&& work) {
        QMetaObject::invokeMethod(&m_context, std::forward<F>(work), Qt::BlockingQueuedConnection);
    }

    QThread m_thread;
    QObject m_context; // lives on m_thread
    std::atomic<int> m_attempts{0};
    std::unique_ptr<Relay> m_relay;
};

} // namespace hourglass::testing
