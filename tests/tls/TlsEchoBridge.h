#pragma once
// A TLS echo server for the real-client tests: a QTcpServer on 127.0.0.1 whose sockets are
// bridged to TlsStreams, as the endpoint bridges its raw connections (ciphertext read is fed,
// what the stream gives back is written). Every byte a client sends is echoed back; a client's
// close_notify is answered and the connection closed.

#include "hourglass/tls/TlsStream.h"

#include <QHostAddress>
#include <QList>
#include <QStringList>
#include <QTcpServer>
#include <QTcpSocket>

#include <memory>

namespace hourglass::tls::test {

class TlsEchoBridge : public QObject {
public:
    explicit TlsEchoBridge(std::shared_ptr<const TlsServerContext> context)
        : m_context(std::move(context)) {
        connect(&m_server, &QTcpServer::newConnection, this, &TlsEchoBridge::accept);
    }
    ~TlsEchoBridge() override {
        // The server deletes the sockets after this; their signals must not reach us then.
        for (Session* session : std::as_const(m_sessions)) {
            session->socket->disconnect(this);
            delete session;
        }
    }
    bool listen() { return m_server.listen(QHostAddress::LocalHost, 0); }
    quint16 port() const { return m_server.serverPort(); }

    int handshakes() const { return m_handshakes; }
    qint64 echoed() const { return m_echoed; }
    const QStringList& errors() const { return m_errors; }
    const QStringList& serverNames() const { return m_serverNames; }
    const QStringList& protocols() const { return m_protocols; }

    // Ends every session with our close_notify.
    void closeAll() {
        for (Session* session : std::as_const(m_sessions)) {
            session->stream.close();
            send(session);
            session->socket->disconnectFromHost();
        }
    }

private:
    struct Session {
        QTcpSocket* socket = nullptr;
        TlsStream stream;
        bool handshakeSeen = false;
        explicit Session(std::shared_ptr<const TlsServerContext> context)
            : stream(std::move(context)) {}
    };

    void accept() {
        while (QTcpSocket* socket = m_server.nextPendingConnection()) {
            auto* session = new Session(m_context);
            session->socket = socket;
            m_sessions.append(session);
            connect(socket, &QTcpSocket::readyRead, this, [this, session] { read(session); });
            connect(socket, &QTcpSocket::disconnected, this, [this, session] {
                m_sessions.removeOne(session);
                session->socket->deleteLater();
                delete session;
            });
        }
    }

    void read(Session* session) {
        TlsStream& stream = session->stream;
        stream.feed(session->socket->readAll());
        if (stream.handshakeDone() && !session->handshakeSeen) {
            session->handshakeSeen = true;
            ++m_handshakes;
            m_serverNames.append(stream.serverName());
            m_protocols.append(stream.protocolVersion());
        }
        const QByteArray plaintext = stream.takePlaintext();
        m_echoed += plaintext.size();
        stream.write(plaintext);
        if (stream.peerClosed())
            stream.close();
        send(session);
        if (stream.failed())
            m_errors.append(stream.error());
        if (stream.failed() || stream.peerClosed())
            session->socket->disconnectFromHost();
    }

    static void send(Session* session) {
        const QByteArray ciphertext = session->stream.takeCiphertext();
        if (!ciphertext.isEmpty())
            session->socket->write(ciphertext);
    }

    std::shared_ptr<const TlsServerContext> m_context;
    QTcpServer m_server;
    QList<Session*> m_sessions;
    int m_handshakes = 0;
    qint64 m_echoed = 0;
    QStringList m_errors;
    QStringList m_serverNames;
    QStringList m_protocols;
};

} // namespace hourglass::tls::test
