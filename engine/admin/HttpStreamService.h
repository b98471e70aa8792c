#pragma once
// One connection of the AMQP endpoint that is not AMQP: an HttpExchange driven by the endpoint's
// calls (AdminStreamServices.h has the whole picture). A request runs on the factory's workers;
// its response waits in a Pending shared with the worker, which then wakes the endpoint; the
// service may be gone by then, and the worker touches nothing of it.

#include "HttpExchange.h"
#include "hourglass/admin/AdminApi.h"
#include "hourglass/admin/AdminStreamServices.h"

#include <QThreadPool>

#include <mutex>

namespace hourglass::admin {

// What a factory owns and its services share: the API and the pool its calls run on. Destroyed
// by the last of them (never on a worker: the workers hold nothing of it but the API, which the
// pool outlives them to keep), after waiting for the calls under way.
class AdminStreamWorkers {
public:
    AdminStreamWorkers(Broker& broker, std::shared_ptr<amqp::NamespaceKeyRing> keys,
                       AdminStreamOptions options);
    ~AdminStreamWorkers();
    AdminStreamWorkers(const AdminStreamWorkers&) = delete;
    AdminStreamWorkers& operator=(const AdminStreamWorkers&) = delete;

    const AdminStreamOptions& options() const { return m_options; }
    // Runs `task(api)` on a worker.
    void run(std::function<void(const AdminApi&)> task);

private:
    std::shared_ptr<amqp::NamespaceKeyRing> m_keys;
    const AdminStreamOptions m_options;
    const AdminApi m_api;
    QThreadPool m_pool; // last: destroyed (and waited for) first
};

class HttpStreamService : public amqp::StreamService {
public:
    HttpStreamService(std::shared_ptr<AdminStreamWorkers> workers,
                      const amqp::StreamContext& context);

    amqp::StreamOutput received(QByteArrayView bytes) override;
    amqp::StreamOutput woken() override;
    amqp::StreamOutput peerClosed() override;
    amqp::StreamOutput tick(std::chrono::steady_clock::time_point now) override;

private:
    // A response a worker made, until the endpoint's thread takes it.
    struct Pending {
        std::mutex mutex;
        std::optional<AdminResponse> response;
    };
    amqp::StreamOutput apply(HttpExchange::Output step, amqp::StreamOutput out);
    amqp::StreamOutput closed(amqp::StreamOutput out = {});
    void dispatch(AdminRequest request);

    std::shared_ptr<AdminStreamWorkers> m_workers;
    std::shared_ptr<amqp::StreamWaker> m_waker;
    std::shared_ptr<Pending> m_pending = std::make_shared<Pending>();
    HttpExchange m_exchange;
    bool m_peerClosed = false;
    bool m_done = false; // closed or upgraded: the endpoint is told nothing more
};

} // namespace hourglass::admin
