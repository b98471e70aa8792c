#include "ClientThread.h"

namespace hourglass::remote {

ClientThread::ClientThread(ConnectionString where, AmqpClientOptions options) {
    m_thread.setObjectName(QStringLiteral("amqp-client"));
    m_context.moveToThread(&m_thread);
    m_thread.start();
    // Made on the thread: its timers and sockets belong to it.
    QMetaObject::invokeMethod(
        &m_context,
        [this, where, options] {
            m_connection = std::make_unique<ClientConnection>(where, options);
        },
        Qt::BlockingQueuedConnection);
}

ClientThread::~ClientThread() {
    QMetaObject::invokeMethod(
        &m_context, [this] { m_connection.reset(); }, Qt::BlockingQueuedConnection);
    m_thread.quit();
    m_thread.wait();
}

bool ClientThread::isOpen() const {
    return m_connection && m_connection->isOpen();
}

} // namespace hourglass::remote
