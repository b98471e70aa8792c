#pragma once
// The administration API over plain HTTP/1.1 on a port of its own (Microsoft's emulator serves
// it on a second port, 5300; its users keep a second connection string naming that port).
//
// Threads: the sockets live on a thread of the server's own (an event loop with a QTcpServer);
// each request's broker calls run on a small pool of workers, so that a slow call (a create
// waits on disk) stalls neither the caller's thread nor the other connections. A connection has
// at most one request in flight: pipelined requests are answered in order, one after the other.
//
// Bounds on what a client can hold (HttpRequestReader.h has the request limits): at most
// `maxConnections` at once (the next one is closed at once), headers complete within
// `headerTimeout` of a request's first byte (or of the connection's start), a body within
// `bodyTimeout` of its headers, and an idle keep-alive connection closed after `idleTimeout`.

#include "hourglass/Status.h"

#include <QString>

#include <chrono>
#include <memory>

namespace hourglass {
class Broker;
}

namespace hourglass::amqp {
class NamespaceKeyRing;
}

namespace hourglass::admin {

struct AdminHttpOptions {
    QString host = QStringLiteral("127.0.0.1"); // an address, or a name resolved once at start
    quint16 port = 0;                           // 0: any free port (port() tells which)
    int maxConnections = 1000;
    int workers = 4; // threads that run broker calls
    std::chrono::milliseconds headerTimeout{10'000};
    std::chrono::milliseconds bodyTimeout{30'000};
    std::chrono::milliseconds idleTimeout{60'000};
};

class AdminHttpServer {
public:
    // `keys` are the namespaces' keys (the AMQP endpoint's, AmqpEndpoint::keys(), when it runs;
    // else a ring of the server's own). The server refreshes them itself when the broker's change
    // feed says namespaces changed, so a namespace made in the window is reachable at once.
    AdminHttpServer(Broker& broker, std::shared_ptr<amqp::NamespaceKeyRing> keys,
                    AdminHttpOptions options = {});
    // Stops: connections closed, requests in flight finished (their replies dropped).
    ~AdminHttpServer();
    AdminHttpServer(const AdminHttpServer&) = delete;
    AdminHttpServer& operator=(const AdminHttpServer&) = delete;

    // Listens; the port listened on, or GeneralError ("Cannot listen on host:port: ...").
    Result<quint16> start();
    void stop();

    quint16 port() const;
    // Connections open now (for tests and the status line).
    int connectionCount() const;
    const AdminHttpOptions& options() const;

private:
    struct State;
    std::unique_ptr<State> m_state;
};

} // namespace hourglass::admin
