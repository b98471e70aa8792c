#pragma once
// What the service tests play of the AMQP endpoint: a waker that counts its wakes (from any
// thread), a clock the test moves, client frames of WebSocket (masked, as a client sends them),
// and server frames read back.

#include "TestBroker.h"

#include "hourglass/admin/AdminStreamServices.h"
#include "hourglass/amqp/StreamService.h"

#include <QByteArray>
#include <QList>

#include <atomic>
#include <chrono>
#include <memory>

namespace hourglass::testing {

class CountingWaker : public amqp::StreamWaker {
public:
    void wake() override { ++m_wakes; }
    int wakes() const { return m_wakes.load(); }

private:
    std::atomic<int> m_wakes{0};
};

// A steady time the test sets; shared with the service through AdminStreamOptions::clock.
struct FakeClock {
    std::shared_ptr<std::atomic<std::chrono::steady_clock::time_point>> now =
        std::make_shared<std::atomic<std::chrono::steady_clock::time_point>>(
            std::chrono::steady_clock::time_point(std::chrono::hours(1000)));

    std::chrono::steady_clock::time_point at(std::chrono::milliseconds offset) const {
        return std::chrono::steady_clock::time_point(std::chrono::hours(1000)) + offset;
    }
    void set(std::chrono::milliseconds offset) { now->store(at(offset)); }
};

// A broker, its keys, and the factory of the services the endpoint would make for its streams,
// which all wake one CountingWaker.
class StreamFixture {
public:
    explicit StreamFixture(admin::AdminStreamOptions options = {});

    Broker& broker() { return m_broker.broker(); }
    const CountingWaker& waker() const { return *m_waker; }
    // A connection's service as the endpoint makes it for 127.0.0.1:`port` (through TLS or not).
    std::unique_ptr<amqp::StreamService> open(quint16 port, bool secure = false);
    // The endpoint's part after a request went in: waits (10 s at most) for the next wake, then
    // calls woken().
    amqp::StreamOutput answer(amqp::StreamService& service);
    // Drops the factory; the last of it and its services waits for the workers' calls.
    void dropFactory() { m_factory = nullptr; }

private:
    TestBroker m_broker;
    std::shared_ptr<amqp::NamespaceKeyRing> m_keys;
    std::shared_ptr<CountingWaker> m_waker = std::make_shared<CountingWaker>();
    amqp::StreamServiceFactory m_factory; // last: goes first, before the broker
    int m_seen = 0;
};

// A client's frame: FIN as given, opcode, masked with `mask`.
QByteArray clientFrame(quint8 opcode, const QByteArray& payload, bool fin = true,
                       quint32 mask = 0x37fa213d);

struct ServerFrame {
    bool fin = false;
    quint8 opcode = 0;
    bool masked = false;
    QByteArray payload;
};
// The frames a server wrote, whole ones only (the rest stays in `bytes`).
QList<ServerFrame> takeServerFrames(QByteArray& bytes);

} // namespace hourglass::testing
