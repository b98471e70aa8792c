#pragma once
// What the service tests play of the AMQP endpoint: a waker that counts its wakes (from any
// thread), a clock the test moves, client frames of WebSocket (masked, as a client sends them),
// and server frames read back.

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

// Waits (bounded, 10 s) until `waker` has been woken more than `seen` times, then calls woken():
// what the endpoint does on a wake. `seen` is moved on.
amqp::StreamOutput wokenAfter(amqp::StreamService& service, const CountingWaker& waker, int& seen);

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
