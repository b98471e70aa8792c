#pragma once
// One client connection of the AdminHttpServer, on the server's thread: the socket's bytes fed to
// an HttpExchange (which decides what each means), each complete request handed to a worker
// (AdminApi::handle off this thread), its response written when it comes back, then the next
// pipelined request. While a request is in flight nothing more is read (the socket's read buffer
// is bounded too, so TCP pushes back).

#include "HttpExchange.h"

#include <QObject>
#include <QPointer>
#include <QTimer>

#include <atomic>
#include <functional>
#include <optional>

class QTcpSocket;

namespace hourglass::admin {

struct AdminHttpOptions;

class HttpConnection : public QObject {
public:
    // Runs `request` off this thread; `reply` must be called back on this connection's thread
    // (it is dropped when the connection has gone).
    using Dispatch = std::function<void(QPointer<HttpConnection> connection, AdminRequest request)>;

    HttpConnection(QTcpSocket* socket, const AdminHttpOptions& options, QString listenerHost,
                   Dispatch dispatch, std::atomic<int>& openCount, QObject* parent);
    ~HttpConnection() override;

    // The response to the request in flight (on this connection's thread).
    void deliver(const AdminResponse& response);
    // Closes at once (the server stops).
    void abort();

private:
    void process();
    void send(HttpExchange::Output output);
    void closeAfterWriting();
    void syncTimer(HttpExchange::Clock::time_point now);

    QTcpSocket* m_socket;
    Dispatch m_dispatch;
    std::atomic<int>& m_openCount;
    HttpExchange m_exchange;
    QTimer m_timer;
    std::optional<HttpExchange::Clock::time_point> m_armed; // the deadline m_timer runs to
    bool m_closing = false; // nothing more is read; the socket closes once written
};

} // namespace hourglass::admin
