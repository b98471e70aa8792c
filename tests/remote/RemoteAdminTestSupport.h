#pragma once
// What the administration client's tests share: emulator-style connection strings for a port,
// client options from a string (short timeouts), and a stand-in server on the test's thread for
// what a real namespace never does.

#include "hourglass/remote/AdminClient.h"

#include <QByteArray>
#include <QTcpServer>
#include <QTcpSocket>

namespace hourglass::testing {

inline QString emulatorString(quint16 port, const QString& key = QStringLiteral("SAS_KEY_VALUE")) {
    return QStringLiteral("Endpoint=sb://localhost:%1;SharedAccessKeyName="
                          "RootManageSharedAccessKey;SharedAccessKey=%2;"
                          "UseDevelopmentEmulator=true")
        .arg(port)
        .arg(key);
}

inline remote::AdminClientOptions optionsFor(const QString& text) {
    const auto connection = remote::parseConnectionString(text);
    if (!connection)
        qFatal("bad connection string in a test: %s", qPrintable(connection.error().toString()));
    remote::AdminClientOptions options = remote::AdminClientOptions::forConnection(*connection);
    options.timeout = std::chrono::milliseconds(5000);
    return options;
}

// A server on this thread that answers each request's head with `reply` (nothing when empty)
// and keeps what it was sent.
class StandInServer : public QObject {
public:
    explicit StandInServer(QByteArray reply)
        : m_reply(std::move(reply)) {
        connect(&m_server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket* socket = m_server.nextPendingConnection()) {
                socket->setParent(this);
                connect(socket, &QTcpSocket::readyRead, this, [this, socket] {
                    received += socket->readAll();
                    if (received.contains("\r\n\r\n") && !m_reply.isEmpty()) {
                        socket->write(m_reply);
                        socket->disconnectFromHost();
                    }
                });
            }
        });
        m_server.listen(QHostAddress::LocalHost);
    }
    quint16 port() const { return m_server.serverPort(); }
    QByteArray received;

private:
    QTcpServer m_server;
    QByteArray m_reply;
};

inline QByteArray httpReply(const QByteArray& statusLine, const QByteArray& body,
                            const QByteArray& type = "application/xml") {
    return "HTTP/1.1 " + statusLine + "\r\nContent-Type: " + type +
           "\r\nContent-Length: " + QByteArray::number(body.size()) + "\r\n\r\n" + body;
}

} // namespace hourglass::testing
