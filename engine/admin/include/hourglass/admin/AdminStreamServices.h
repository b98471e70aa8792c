#pragma once
// The administration API on the AMQP endpoint's own ports: the endpoint hands every connection
// that does not start with AMQP's header to a service this factory makes, which speaks HTTP/1.1
// to it (the same state machine, limits and timeouts as AdminHttpServer's connections) and
// answers the WebSocket upgrade of AMQP over WebSocket (GET /$servicebus/websocket, subprotocol
// AMQPWSB10) by handing the connection back to the endpoint inside a WebSocket framing.
//
// Threads: the services run on the endpoint's thread and never wait there; each request's broker
// calls run on the factory's pool of workers, shared by every connection. A worker that finishes
// after its connection has gone drops its response. The factory (and every copy of it) keeps the
// pool; the last of them, and of the services it made, to go waits for the workers' calls to end.
//
// Keys: `keys` are the namespaces' keys, kept fresh by their owner (the endpoint refreshes its own
// ring when namespaces change).

#include "hourglass/amqp/NamespaceKeys.h"
#include "hourglass/amqp/StreamService.h"

#include <chrono>
#include <functional>
#include <memory>

namespace hourglass {
class Broker;
}

namespace hourglass::admin {

struct AdminStreamOptions {
    int workers = 4; // threads that run broker calls, for every connection together
    std::chrono::milliseconds headerTimeout{10'000};
    std::chrono::milliseconds bodyTimeout{30'000};
    std::chrono::milliseconds idleTimeout{60'000};
    // The time of bytes as they arrive, on the clock tick() is called with (tests set their own).
    std::function<std::chrono::steady_clock::time_point()> clock = [] {
        return std::chrono::steady_clock::now();
    };
};

amqp::StreamServiceFactory adminStreamServices(Broker& broker,
                                               std::shared_ptr<amqp::NamespaceKeyRing> keys,
                                               AdminStreamOptions options = {});

} // namespace hourglass::admin
