#pragma once
// A small HTTP proxy on the test's thread, as the system's https_proxy or http_proxy names one: it
// takes `CONNECT host:port HTTP/1.1`, connects on, answers 200 and then carries bytes both ways
// until either side closes. It keeps the targets it was asked for, so that a test can say its
// client went through it. Anything but CONNECT is answered 405; `refuse` answers every CONNECT
// 403 (a proxy that forbids the address). Its clients run on workers (WorkerCall.h): it needs
// this thread's event loop.

#include <QHostAddress>
#include <QObject>
#include <QPointer>
#include <QStringList>
#include <QTcpServer>
#include <QTcpSocket>

namespace hourglass::testing {

class ConnectProxy : public QObject {
public:
    explicit ConnectProxy(bool refuse = false)
        : m_refuse(refuse) {
        connect(&m_server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket* client = m_server.nextPendingConnection())
                accept(client);
        });
        m_server.listen(QHostAddress::LocalHost);
    }

    quint16 port() const { return m_server.serverPort(); }
    QByteArray url() const { return "http://127.0.0.1:" + QByteArray::number(port()); }
    // "localhost:5671", once per CONNECT, in the order they came.
    QStringList targets;

private:
    void accept(QTcpSocket* client) {
        client->setParent(this);
        auto head = std::make_shared<QByteArray>();
        connect(client, &QTcpSocket::readyRead, this, [this, client, head] {
            if (client->property("tunnel").isValid())
                return; // carried by the tunnel's own connection
            *head += client->readAll();
            const qsizetype end = head->indexOf("\r\n\r\n");
            if (end < 0) {
                if (head->size() > 8192)
                    client->abort();
                return;
            }
            const QList<QByteArray> words = head->left(head->indexOf("\r\n")).split(' ');
            if (words.size() != 3 || words[0] != "CONNECT") {
                client->write("HTTP/1.1 405 Method Not Allowed\r\nContent-Length: 0\r\n\r\n");
                client->disconnectFromHost();
                return;
            }
            targets.append(QString::fromLatin1(words[1]));
            if (m_refuse) {
                client->write("HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n");
                client->disconnectFromHost();
                return;
            }
            tunnel(client, words[1], head->mid(end + 4));
        });
    }

    void tunnel(QTcpSocket* client, const QByteArray& target, const QByteArray& early) {
        client->setProperty("tunnel", true);
        const qsizetype colon = target.lastIndexOf(':');
        auto* server = new QTcpSocket(client);
        QPointer<QTcpSocket> to(server);
        QPointer<QTcpSocket> from(client);
        connect(server, &QTcpSocket::connected, this, [client, server, early] {
            client->write("HTTP/1.1 200 Connection established\r\n\r\n");
            if (!early.isEmpty())
                server->write(early);
            server->write(client->readAll());
        });
        connect(client, &QTcpSocket::readyRead, this, [client, to] {
            if (to && to->state() == QAbstractSocket::ConnectedState)
                to->write(client->readAll());
        });
        connect(server, &QTcpSocket::readyRead, this, [server, from] {
            if (from)
                from->write(server->readAll());
        });
        connect(server, &QTcpSocket::disconnected, this, [from] {
            if (from)
                from->disconnectFromHost();
        });
        connect(server, &QTcpSocket::errorOccurred, this, [from] {
            if (from)
                from->disconnectFromHost();
        });
        connect(client, &QTcpSocket::disconnected, this, [to] {
            if (to)
                to->disconnectFromHost();
        });
        server->connectToHost(QString::fromLatin1(target.left(colon)),
                              quint16(target.mid(colon + 1).toUInt()));
    }

    QTcpServer m_server;
    bool m_refuse = false;
};

} // namespace hourglass::testing
