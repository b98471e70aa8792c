#pragma once
// A real AMQP 1.0 client for the window's tests, on Qpid Proton's C proactor in a thread of its
// own: it connects to the endpoint on loopback, authorizes with put-token on $cbs as the Azure
// SDKs do (a token signed with the emulator's well-known key), then opens a sender and a
// peek-lock receiver on one queue and keeps every message it receives unsettled, so the broker
// holds their locks for this connection until it ends.
//
// Thread-safety: Proton's objects are touched on the client's thread only; the counters below
// are atomics the test reads with QTRY_*.

#include <QString>

#include <atomic>
#include <memory>
#include <thread>

struct pn_proactor_t;

namespace hourglass::testing {

class WireTestClient {
public:
    struct Options {
        quint16 port = 0;
        QString queue;
        QString containerId = QStringLiteral("wire-test-client");
        int credit = 10; // how many messages the receiver takes (and keeps locked)
    };

    explicit WireTestClient(Options options);
    // Drops the connection if it is still open, and waits for the client's thread.
    ~WireTestClient();
    WireTestClient(const WireTestClient&) = delete;
    WireTestClient& operator=(const WireTestClient&) = delete;

    // Both links attached (the put-token was accepted).
    bool linksOpen() const { return m_linksOpen; }
    // Messages received and held unsettled.
    int held() const { return m_held; }
    // The connection has ended (closed by the endpoint, or failed).
    bool ended() const { return m_ended; }

private:
    struct State;
    void run();

    std::unique_ptr<State> m_state;
    pn_proactor_t* m_proactor = nullptr;
    std::atomic<bool> m_linksOpen{false};
    std::atomic<int> m_held{0};
    std::atomic<bool> m_ended{false};
    std::thread m_thread;
};

} // namespace hourglass::testing
