#include "AdminTransport.h"

#include "SystemProxy.h"

#include "hourglass/admin/AtomCodec.h"

#include <QFile>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QSslCertificate>
#include <QSslConfiguration>
#include <QThread>
#include <QTimer>

#include <condition_variable>
#include <mutex>
#include <optional>

namespace hourglass::remote {

namespace {
// The caller waits this much past the deadline for the thread's own answer before it gives up:
// the thread aborts the exchange at the deadline, so this is only a backstop.
constexpr std::chrono::milliseconds kGrace{2000};

Error problem(const QString& description) {
    return makeError(ErrorCode::ServiceCommunicationProblem, description);
}

QString sizeText(qint64 bytes) {
    return bytes >= 1024 * 1024 ? QStringLiteral("%1 MiB").arg(bytes / (1024 * 1024))
                                : QStringLiteral("%1 KiB").arg(bytes / 1024);
}

// One exchange's answer, handed from the transport's thread to the caller's.
struct Pending {
    std::mutex mutex;
    std::condition_variable done;
    std::optional<Result<HttpAnswer>> result;

    void finish(Result<HttpAnswer> answer) {
        {
            std::lock_guard lock(mutex);
            if (result)
                return;
            result = std::move(answer);
        }
        done.notify_all();
    }
};
} // namespace

struct AdminTransport::State {
    QThread thread;
    QObject* context = nullptr;               // lives on `thread`; parent of the manager
    QNetworkAccessManager* manager = nullptr; // made on `thread` at its first exchange
    std::chrono::milliseconds timeout;
    QString peer;
    qint64 maxReplyBytes = kMaxAdminReplyBytes;
    QSslConfiguration ssl;
    QString caProblem; // why the extra CA file cannot be used; empty when it can
    QList<std::shared_ptr<Pending>> inFlight; // touched on `thread` only

    // On `thread`: start `request`, answer `pending` when it ends.
    void start(const HttpExchange& request, const std::shared_ptr<Pending>& pending) {
        if (!manager) {
            manager = new QNetworkAccessManager(context);
            manager->setRedirectPolicy(QNetworkRequest::ManualRedirectPolicy);
            // The system's proxy for each address (https_proxy, no_proxy, ...), for this manager
            // only (SystemProxy.h); the manager takes the factory.
            manager->setProxyFactory(new SystemProxyFactory);
        }
        QNetworkRequest http(request.url);
        for (const auto& [name, value] : request.headers)
            http.setRawHeader(name, value);
        if (request.url.scheme() == QLatin1String("https"))
            http.setSslConfiguration(ssl);
        // HTTP/1.1, which every administration endpoint speaks (Azure, the emulator, serve):
        // a few small requests gain nothing from HTTP/2, and Qt 6.4's is the less travelled path.
        http.setAttribute(QNetworkRequest::Http2AllowedAttribute, false);
        QNetworkReply* reply = manager->sendCustomRequest(http, request.method, request.body);
        inFlight.append(pending);
        auto* deadline = new QTimer(reply);
        deadline->setSingleShot(true);
        QObject::connect(deadline, &QTimer::timeout, reply, [this, reply, pending] {
            end(reply, pending,
                problem(QStringLiteral("The %1 did not answer within %2 s.")
                            .arg(peer)
                            .arg(timeout.count() / 1000.0)));
        });
        deadline->start(timeout);
        QObject::connect(reply, &QNetworkReply::readyRead, reply, [this, reply, pending] {
            if (reply->bytesAvailable() > maxReplyBytes)
                end(reply, pending,
                    problem(QStringLiteral("The %1's answer is larger than %2.")
                                .arg(peer, sizeText(maxReplyBytes))));
        });
        QObject::connect(reply, &QNetworkReply::finished, reply,
                         [this, reply, pending] { end(reply, pending, answerOf(reply)); });
    }

    Result<HttpAnswer> answerOf(QNetworkReply* reply) const {
        const QVariant status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute);
        if (!status.isValid())
            // No HTTP answer: refused, unreachable, TLS not verified, not HTTP at all.
            return problem(QStringLiteral("The %1 could not be reached: %2")
                               .arg(peer, admin::quotedReply(reply->errorString())));
        return HttpAnswer{status.toInt(), reply->readAll()};
    }

    // Answers `pending` once, and lets the reply go (aborting it if it is still running).
    void end(QNetworkReply* reply, const std::shared_ptr<Pending>& pending,
             Result<HttpAnswer> answer) {
        pending->finish(std::move(answer));
        inFlight.removeOne(pending);
        for (QTimer* deadline : reply->findChildren<QTimer*>())
            deadline->stop();
        reply->disconnect();
        if (reply->isRunning())
            reply->abort();
        reply->deleteLater();
    }
};

AdminTransport::AdminTransport(const QString& extraCaFile, std::chrono::milliseconds timeout,
                               QString peer, qint64 maxReplyBytes)
    : m_state(std::make_unique<State>()) {
    m_state->timeout = timeout;
    m_state->peer = std::move(peer);
    m_state->maxReplyBytes = maxReplyBytes;
    m_state->ssl = QSslConfiguration::defaultConfiguration();
    if (!extraCaFile.isEmpty()) {
        const QList<QSslCertificate> extra = QSslCertificate::fromPath(
            extraCaFile, QSsl::Pem, QSslCertificate::PatternSyntax::FixedString);
        if (extra.isEmpty())
            m_state->caProblem =
                QStringLiteral("The certificate authority file has no certificate to trust.");
        else
            m_state->ssl.addCaCertificates(extra);
    }
    m_state->context = new QObject;
    m_state->context->moveToThread(&m_state->thread);
    m_state->thread.setObjectName(QStringLiteral("hourglass-admin-http"));
    m_state->thread.start();
}

AdminTransport::~AdminTransport() {
    State* state = m_state.get();
    QMetaObject::invokeMethod(
        state->context,
        [state] {
            for (const auto& pending : state->inFlight)
                pending->finish(problem(QStringLiteral("The connection was closed.")));
            state->inFlight.clear();
            delete state->context; // the manager and its replies with it
            state->context = nullptr;
        },
        Qt::BlockingQueuedConnection);
    state->thread.quit();
    state->thread.wait();
}

Result<HttpAnswer> AdminTransport::exchange(const HttpExchange& request) {
    if (!m_state->caProblem.isEmpty())
        return problem(m_state->caProblem);
    auto pending = std::make_shared<Pending>();
    State* state = m_state.get();
    QMetaObject::invokeMethod(
        state->context, [state, request, pending] { state->start(request, pending); },
        Qt::QueuedConnection);
    std::unique_lock lock(pending->mutex);
    if (!pending->done.wait_for(lock, m_state->timeout + kGrace,
                                [&pending] { return pending->result.has_value(); }))
        return problem(QStringLiteral("The %1 did not answer in time.").arg(m_state->peer));
    return std::move(*pending->result);
}

} // namespace hourglass::remote
