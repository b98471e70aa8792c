#pragma once
// One client connection of the AdminHttpServer, on the server's thread: bytes read into an
// HttpRequestReader, each complete request handed to a worker (AdminApi::handle off this
// thread), its response written when it comes back, then the next pipelined request. One request
// in flight at a time keeps responses in order and memory bounded: while one is in flight
// nothing more is read (the socket's read buffer is bounded too, so TCP pushes back).

#include "HttpRequestReader.h"

#include <QObject>
#include <QPointer>
#include <QTimer>

#include <atomic>
#include <chrono>
#include <functional>

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
    enum class Wait { None, Header, Body, Idle };
    void process();
    void refuse(int status, const QString& detail);
    void write(const QByteArray& bytes);
    void closeAfterWriting();
    void armTimer();
    void timedOut();

    QTcpSocket* m_socket;
    const AdminHttpOptions& m_options;
    const QString m_listenerHost;
    Dispatch m_dispatch;
    std::atomic<int>& m_openCount;
    HttpRequestReader m_reader;
    QTimer m_timer;
    Wait m_wait = Wait::None;
    bool m_busy = false;     // a request is with a worker
    bool m_headOnly = false; // ... and it is a HEAD
    bool m_keepAlive = true; // ... and the connection stays open after it
    bool m_closing = false;  // nothing more is read; the socket closes once written
    bool m_servedAny = false;
};

} // namespace hourglass::admin
