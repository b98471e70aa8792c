#include "HttpStreamService.h"

#include "WebSocketFraming.h"
#include "hourglass/amqp/NamespaceKeys.h"

namespace hourglass::admin {

namespace {
// What a client may send ahead of the answers (the endpoint pushes bytes as they come and the
// service cannot hold them back): one whole request of the largest size, and what a read brings
// past it. A client that sends more is cut.
constexpr qsizetype kMaxReadAhead = kMaxHttpHeaderBytes + kMaxAdminBodyBytes + 64 * 1024;

HttpExchange::Options exchangeOptions(const AdminStreamOptions& options,
                                      const amqp::StreamContext& context) {
    HttpExchange::Options exchange;
    exchange.timeouts.header = options.headerTimeout;
    exchange.timeouts.body = options.bodyTimeout;
    exchange.timeouts.idle = options.idleTimeout;
    exchange.defaultHost =
        context.localHost + QLatin1Char(':') + QString::number(context.localPort);
    exchange.secure = context.secure;
    exchange.acceptWebSocket = true;
    return exchange;
}
} // namespace

AdminStreamWorkers::AdminStreamWorkers(Broker& broker, std::shared_ptr<amqp::NamespaceKeyRing> keys,
                                       AdminStreamOptions options)
    : m_keys(std::move(keys))
    , m_options(std::move(options))
    , m_api(broker, *m_keys) {
    m_pool.setMaxThreadCount(qMax(1, m_options.workers));
}

AdminStreamWorkers::~AdminStreamWorkers() {
    m_pool.waitForDone();
}

void AdminStreamWorkers::run(std::function<void(const AdminApi&)> task) {
    m_pool.start([this, task = std::move(task)] { task(m_api); });
}

amqp::StreamServiceFactory adminStreamServices(Broker& broker,
                                               std::shared_ptr<amqp::NamespaceKeyRing> keys,
                                               AdminStreamOptions options) {
    auto workers =
        std::make_shared<AdminStreamWorkers>(broker, std::move(keys), std::move(options));
    return [workers](const amqp::StreamContext& context) -> std::unique_ptr<amqp::StreamService> {
        return std::make_unique<HttpStreamService>(workers, context);
    };
}

HttpStreamService::HttpStreamService(std::shared_ptr<AdminStreamWorkers> workers,
                                     const amqp::StreamContext& context)
    : m_workers(std::move(workers))
    , m_waker(context.waker)
    , m_exchange(exchangeOptions(m_workers->options(), context), m_workers->options().clock()) {}

void HttpStreamService::dispatch(AdminRequest request) {
    // The worker holds what it shares with this service, never the service itself.
    m_workers->run(
        [pending = m_pending, waker = m_waker, request = std::move(request)](const AdminApi& api) {
            AdminResponse response = api.handle(request);
            {
                std::lock_guard lock(pending->mutex);
                pending->response = std::move(response);
            }
            if (waker)
                waker->wake();
        });
}

amqp::StreamOutput HttpStreamService::closed(amqp::StreamOutput out) {
    m_done = true;
    out.close = true;
    return out;
}

amqp::StreamOutput HttpStreamService::apply(HttpExchange::Output step, amqp::StreamOutput out) {
    out.bytes += step.bytes;
    if (step.request)
        dispatch(std::move(*step.request));
    if (step.upgraded) {
        m_done = true;
        out.amqpFraming = std::make_unique<WebSocketFraming>();
        out.leftover = m_exchange.takeLeftover();
        return out;
    }
    // A half-closed client is answered what it sent whole, then closed.
    if (step.close || (m_peerClosed && !m_exchange.busy()))
        return closed(std::move(out));
    return out;
}

amqp::StreamOutput HttpStreamService::received(QByteArrayView bytes) {
    if (m_done)
        return {};
    m_exchange.append(bytes);
    if (m_exchange.buffered() > kMaxReadAhead)
        return closed();
    return apply(m_exchange.advance(m_workers->options().clock()), {});
}

amqp::StreamOutput HttpStreamService::woken() {
    if (m_done)
        return {};
    std::optional<AdminResponse> response;
    {
        std::lock_guard lock(m_pending->mutex);
        response = std::exchange(m_pending->response, std::nullopt);
    }
    if (!response)
        return {};
    const auto now = m_workers->options().clock();
    HttpExchange::Output answered = m_exchange.deliver(*response, now);
    amqp::StreamOutput out;
    out.bytes = std::move(answered.bytes);
    if (answered.close)
        return closed(std::move(out));
    // The next pipelined request may be buffered already.
    return apply(m_exchange.advance(now), std::move(out));
}

amqp::StreamOutput HttpStreamService::peerClosed() {
    m_peerClosed = true;
    if (m_done || m_exchange.busy())
        return {}; // the request in flight is answered first
    return closed();
}

amqp::StreamOutput HttpStreamService::tick(std::chrono::steady_clock::time_point now) {
    // Slow or silent clients are cut without a word.
    if (m_done || !m_exchange.expired(now))
        return {};
    return closed();
}

} // namespace hourglass::admin
