#include "hourglass/admin/AdminHttpServer.h"

#include "HttpConnection.h"
#include "hourglass/Broker.h"
#include "hourglass/ChangeFeed.h"
#include "hourglass/admin/AdminApi.h"
#include "hourglass/amqp/NamespaceKeys.h"

#include <QHostAddress>
#include <QHostInfo>
#include <QTcpServer>
#include <QTcpSocket>
#include <QThread>
#include <QThreadPool>

#include <mutex>

namespace hourglass::admin {

namespace {
// The listening socket and the connections, on the server's thread.
class HttpListener : public QObject {
public:
    HttpListener(const AdminHttpOptions& options, HttpConnection::Dispatch dispatch,
                 std::atomic<int>& openCount)
        : m_options(options)
        , m_dispatch(std::move(dispatch))
        , m_openCount(openCount)
        , m_server(new QTcpServer(this)) {
        m_server->setMaxPendingConnections(64);
        // A burst of connections waits in the kernel's queue rather than retrying its handshake
        // for seconds (the default queue is 50); as deep as the AMQP endpoint's.
        m_server->setListenBacklogSize(1024);
        connect(m_server, &QTcpServer::newConnection, this, &HttpListener::accept);
    }

    Result<quint16> listen(const QHostAddress& address) {
        if (!m_server->listen(address, m_options.port))
            return Error::make(ErrorCode::GeneralError, QStringLiteral("Cannot listen on %1:%2: %3")
                                                            .arg(m_options.host)
                                                            .arg(m_options.port)
                                                            .arg(m_server->errorString()));
        m_host = m_options.host + QLatin1Char(':') + QString::number(m_server->serverPort());
        return m_server->serverPort();
    }

    void closeAll() {
        m_server->close();
        for (HttpConnection* connection : findChildren<HttpConnection*>(Qt::FindDirectChildrenOnly))
            delete connection;
    }

private:
    void accept() {
        while (QTcpSocket* socket = m_server->nextPendingConnection()) {
            if (m_openCount.load() >= m_options.maxConnections) {
                socket->abort(); // over the limit: closed at once, before a byte is read
                delete socket;
                continue;
            }
            new HttpConnection(socket, m_options, m_host, m_dispatch, m_openCount, this);
        }
    }

    const AdminHttpOptions& m_options;
    HttpConnection::Dispatch m_dispatch;
    std::atomic<int>& m_openCount;
    QTcpServer* m_server;
    QString m_host;
};

QHostAddress addressOf(const QString& host) {
    if (host.compare(QLatin1String("localhost"), Qt::CaseInsensitive) == 0)
        return QHostAddress(QHostAddress::LocalHost);
    QHostAddress address(host);
    if (!address.isNull())
        return address;
    const QHostInfo info = QHostInfo::fromName(host);
    return info.addresses().isEmpty() ? QHostAddress() : info.addresses().first();
}
} // namespace

// What the broker's change feed reaches (it runs in the feed's thread): the pool, while it lasts.
struct KeyRefresher {
    std::mutex mutex;
    QThreadPool* pool = nullptr; // guarded by mutex; null once stopping
};

struct AdminHttpServer::State {
    State(Broker& broker, std::shared_ptr<amqp::NamespaceKeyRing> ring, AdminHttpOptions opts)
        : broker(broker)
        , keys(std::move(ring))
        , options(std::move(opts))
        , api(broker, *keys) {}

    Broker& broker;
    std::shared_ptr<amqp::NamespaceKeyRing> keys;
    const AdminHttpOptions options;
    const AdminApi api;
    std::atomic<int> openCount{0};
    QThreadPool pool;
    QThread thread;
    HttpListener* listener = nullptr; // lives on `thread`
    std::shared_ptr<KeyRefresher> refresher = std::make_shared<KeyRefresher>();
    QMetaObject::Connection feed;
    quint16 port = 0;
    bool running = false;
};

AdminHttpServer::AdminHttpServer(Broker& broker, std::shared_ptr<amqp::NamespaceKeyRing> keys,
                                 AdminHttpOptions options)
    : m_state(std::make_unique<State>(broker, std::move(keys), std::move(options))) {
    m_state->pool.setMaxThreadCount(qMax(1, m_state->options.workers));
    m_state->thread.setObjectName(QStringLiteral("admin-http"));
}

AdminHttpServer::~AdminHttpServer() {
    stop();
}

Result<quint16> AdminHttpServer::start() {
    State& s = *m_state;
    if (s.running)
        return s.port;
    const QHostAddress address = addressOf(s.options.host);
    if (address.isNull())
        return Error::make(ErrorCode::GeneralError,
                           QStringLiteral("Cannot listen on %1:%2: the host has no address")
                               .arg(s.options.host)
                               .arg(s.options.port));
    if (auto refreshed = s.keys->refresh(s.broker); !refreshed)
        return refreshed.error();

    // A request's broker call runs on the pool; its reply goes back to the server's thread,
    // where the connection (if it is still there) writes it.
    HttpConnection::Dispatch dispatch = [&s](QPointer<HttpConnection> connection,
                                             AdminRequest request) {
        s.pool.start([&s, connection, request = std::move(request)] {
            AdminResponse response = s.api.handle(request);
            QMetaObject::invokeMethod(s.listener, [connection, response = std::move(response)] {
                if (connection)
                    connection->deliver(response);
            });
        });
    };
    s.listener = new HttpListener(s.options, std::move(dispatch), s.openCount);
    s.listener->moveToThread(&s.thread);
    s.thread.start();
    Result<quint16> listened = Error::make(ErrorCode::GeneralError, QString());
    QMetaObject::invokeMethod(
        s.listener, [&] { listened = s.listener->listen(address); }, Qt::BlockingQueuedConnection);
    if (!listened) {
        s.listener->deleteLater(); // when its thread ends
        s.listener = nullptr;
        s.thread.quit();
        s.thread.wait();
        return listened.error();
    }
    s.port = *listened;
    s.running = true;

    // A namespace made in the window (or by a config) gets its key at once, as the AMQP
    // endpoint's ring does; a worker makes it (it may wait on disk).
    {
        std::lock_guard lock(s.refresher->mutex);
        s.refresher->pool = &s.pool;
    }
    s.feed = QObject::connect(
        s.broker.changes(), &ChangeFeed::changed, s.broker.changes(),
        [refresher = s.refresher, keys = s.keys, &broker = s.broker](const ChangeBatch& batch) {
            if (!batch.namespacesChanged)
                return;
            std::lock_guard lock(refresher->mutex);
            if (refresher->pool)
                refresher->pool->start([keys, &broker] { (void)keys->refresh(broker); });
        },
        Qt::DirectConnection);
    return s.port;
}

void AdminHttpServer::stop() {
    State& s = *m_state;
    if (!s.running)
        return;
    s.running = false;
    QObject::disconnect(s.feed);
    {
        std::lock_guard lock(s.refresher->mutex);
        s.refresher->pool = nullptr;
    }
    // No new request starts once the connections are gone; those in flight finish (their
    // replies are posted to the listener, which drops them), then the listener goes.
    QMetaObject::invokeMethod(
        s.listener, [&s] { s.listener->closeAll(); }, Qt::BlockingQueuedConnection);
    s.pool.waitForDone();
    s.listener->deleteLater(); // when its thread ends, after any reply still queued to it
    s.listener = nullptr;
    s.thread.quit();
    s.thread.wait();
}

quint16 AdminHttpServer::port() const {
    return m_state->port;
}

int AdminHttpServer::connectionCount() const {
    return m_state->openCount.load();
}

const AdminHttpOptions& AdminHttpServer::options() const {
    return m_state->options;
}

} // namespace hourglass::admin
