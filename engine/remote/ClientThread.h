#pragma once
// The client's own thread (AmqpClient.h): it owns the ClientConnection, creates and destroys it
// there, and runs each call's start on it while the calling worker waits for the answer.

#include "ClientConnection.h"
#include "PendingCall.h"

#include <QObject>
#include <QThread>

#include <functional>
#include <memory>

namespace hourglass::remote {

class ClientThread {
public:
    ClientThread(ConnectionString where, AmqpClientOptions options);
    // Closes the connection on the thread, then stops it.
    ~ClientThread();

    bool isOpen() const;
    // For what the connection lets any thread read (its health); there from construction to
    // destruction.
    const ClientConnection& connection() const { return *m_connection; }

    // Runs `start` on the thread with the connection and a function that answers the call, and
    // waits for that answer up to `timeoutMs` (ServiceTimeout past it). Never from the client's
    // own thread.
    template <typename T>
    Result<T> run(std::function<void(ClientConnection&, std::function<void(Result<T>)>)> start,
                  int timeoutMs) {
        if (QThread::currentThread() == &m_thread)
            return Error::make(
                ErrorCode::GeneralError,
                QStringLiteral("A remote call was made on the client's own thread."));
        auto pending = std::make_shared<PendingCall<T>>();
        auto answer = PendingCall<T>::answerer(pending);
        QMetaObject::invokeMethod(
            &m_context, [this, start, answer] { start(*m_connection, answer); },
            Qt::QueuedConnection);
        return pending->wait(timeoutMs);
    }

private:
    QThread m_thread;
    QObject m_context; // lives on m_thread: what calls are queued to
    std::unique_ptr<ClientConnection> m_connection;
};

} // namespace hourglass::remote
