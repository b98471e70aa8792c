#pragma once
// A minimal AMQP client for the endpoint's tests, on Proton's connection driver over a plain
// socket and driven by the test's own thread: it opens (no SASL), puts a token on $cbs as the
// SDKs do, and keeps the connection running, heartbeats included, for as long as it is asked.

#include <QByteArray>
#include <QString>

#include <proton/connection_driver.h>

namespace hourglass::testing {

class DrivenClient {
public:
    // Connects to the endpoint on loopback. `idleTimeoutMs` (0: none) is our own idle time-out;
    // Proton then also sends empty frames often enough for the peer's advertised one.
    explicit DrivenClient(quint16 port, int idleTimeoutMs = 0);
    ~DrivenClient();
    DrivenClient(const DrivenClient&) = delete;
    DrivenClient& operator=(const DrivenClient&) = delete;

    // Opens the connection, puts `token` on $cbs and waits up to `ms` for the answer: its
    // status-code, or 0 when none came.
    int putToken(const QString& token, int ms);
    // Runs the connection for `ms` (reads, writes, heartbeats). False as soon as the peer has
    // closed it, and then closeCondition() tells why.
    bool stillOpenAfter(int ms);
    QByteArray closeCondition() const { return m_closeCondition; }

private:
    void pump(int waitMs);
    void handle(pn_event_t* event);
    void sendPutToken();

    int m_fd = -1;
    pn_connection_driver_t m_driver{};
    pn_link_t* m_sender = nullptr;
    pn_link_t* m_receiver = nullptr;
    QString m_token;
    bool m_tokenSent = false;
    int m_status = 0;
    bool m_closed = false;
    QByteArray m_closeCondition;
};

} // namespace hourglass::testing
