#pragma once
// One accepted socket of the endpoint, as bytes. The endpoint accepts every connection as a
// Proton raw connection (pn_listener_raw_accept) and reads it itself before Proton's AMQP engine
// sees a byte, so that one port can serve more than AMQP:
//
//   socket ⇄ [TLS, on the TLS port] ⇄ first bytes read:
//       "AMQP..."   → Proton's connection driver (pn_connection_driver), whose events the loop
//                     hands to the connection's Connection as before;
//       anything else → a StreamService (the administration API's HTTP), which may hand the
//                     connection back as AMQP inside a framing (a WebSocket).
//
// Why raw connections and not Proton's own sockets: Proton's TLS layer carries only AMQP (and
// Debian's 0.37 exports no TLS API for raw connections), and its AMQP sockets cannot be shown
// an HTTP request. Why not Qt sockets: the proactor thread already owns every connection, its
// wakes and its timers; a second event loop would hand every byte between threads.
//
// Threads: the proactor thread only, during the raw connection's own events (pn_raw_connection_*
// may be called then only). Other threads reach it through its waker.

#include "hourglass/amqp/StreamService.h"

#include <QByteArray>
#include <QString>

#include <proton/connection_driver.h>
#include <proton/event.h>
#include <proton/raw_connection.h>

#include <array>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <unordered_map>

namespace hourglass::tls {
class TlsServerContext;
class TlsStream;
} // namespace hourglass::tls

namespace hourglass::amqp {

class Carrier;

// Any thread: a PN_RAW_CONNECTION_WAKE for the carrier, while its raw connection lasts.
class RawWaker final : public StreamWaker {
public:
    explicit RawWaker(pn_raw_connection_t* raw)
        : m_raw(raw) {}
    void wake() override {
        std::lock_guard lock(m_mutex);
        if (m_raw)
            pn_raw_connection_wake(m_raw);
    }
    // Proactor thread, as the raw connection goes: later wakes do nothing.
    void close() {
        std::lock_guard lock(m_mutex);
        m_raw = nullptr;
    }

private:
    std::mutex m_mutex;
    pn_raw_connection_t* m_raw; // guarded by m_mutex; null once closed
};

// What a carrier needs of the loop that owns it (EndpointLoop).
class CarrierHost {
public:
    // A transport configured as the endpoint's AMQP connections are (SASL, limits, idle time).
    virtual pn_transport_t* newAmqpTransport() = 0;
    // An event of the carrier's AMQP driver; the loop handles it as it handled the proactor's.
    virtual void amqpEvent(Carrier& carrier, pn_event_t* event) = 0;
    // The events of one read were handled: the connection's broker calls go out.
    virtual void amqpBatchEnd(Carrier& carrier) = 0;
    // The carrier was woken while it carries AMQP: the connection does what it was asked.
    virtual void amqpWoken(Carrier& carrier) = 0;
    // The connection turned out not to be AMQP: its service, or null when there is none.
    virtual std::unique_ptr<StreamService> makeStreamService(Carrier& carrier,
                                                             const StreamContext& context) = 0;
    // Its service handed it back as AMQP inside a framing (a WebSocket): from now on it is an
    // AMQP connection like any other, with a deadline to authenticate.
    virtual void amqpAfterStream(Carrier& carrier) = 0;

protected:
    ~CarrierHost() = default;
};

// Where a carrier was accepted.
struct CarrierPort {
    quint16 port = 0;
    QString host;                                     // the name the endpoint answers to
    std::shared_ptr<const tls::TlsServerContext> tls; // null: plain bytes
};

class Carrier {
public:
    Carrier(CarrierHost& host, pn_raw_connection_t* raw, CarrierPort port);
    ~Carrier();
    Carrier(const Carrier&) = delete;
    Carrier& operator=(const Carrier&) = delete;

    // Every event of its raw connection. False once it has disconnected: the loop deletes it.
    bool handle(pn_event_t* event);

    // Asks for a wake (the loop's tick, a limit, a close): any thread.
    void wake() { m_waker->wake(); }
    std::shared_ptr<RawWaker> waker() const { return m_waker; }
    // Ends the socket on its next wake, without a word: one that carries no AMQP connection
    // (an HTTP one) when a limit or the endpoint's stop says so.
    void requestDrop() { m_dropRequested = true; }

    // "address:port" of the peer.
    const QString& peer() const { return m_peer; }
    // The AMQP connection it carries (from its accept until its first bytes turn out to be
    // another protocol's); null for other protocols.
    pn_connection_t* amqpConnection() const {
        return m_stage == Stage::Amqp && m_hasDriver ? m_driver.connection : nullptr;
    }
    bool carriesAmqp() const { return m_stage == Stage::Amqp; }

private:
    // Amqp from the accept on (its first bytes not read yet while m_sniffing), Stream once they
    // were another protocol's and a service took it.
    enum class Stage { Amqp, Stream, Closed };

    void connected();
    void giveReadBuffers();
    void takeReadBuffers();
    void takeWrittenBuffers();
    void woken();
    void peerStoppedWriting();

    // Bytes as read (ciphertext on the TLS port), then as the application sees them.
    void received(QByteArrayView bytes);
    void receivedPlain(QByteArrayView bytes);
    void sniff(QByteArrayView bytes);

    void startAmqp();
    void feedAmqp(QByteArrayView bytes);
    qsizetype pushToDriver(QByteArrayView bytes); // how many it took
    void runAmqp(); // the driver's events handled and its output sent, until it has none
    void sendAmqpOutput();
    bool startStream(QByteArrayView first); // false: no service for it
    void apply(StreamOutput output);

    // Bytes of the application (HTTP, WebSocket frames, AMQP) → TLS → socket.
    void sendPlain(QByteArrayView bytes);
    void sendRaw(QByteArray bytes);
    void giveWriteBuffers();
    // Ends the connection once what is queued has been written (TLS's close_notify first).
    void closeWhenSent();
    void closeNow();
    void finishCloseIfSent();

    CarrierHost& m_host;
    pn_raw_connection_t* m_raw;
    CarrierPort m_port;
    QString m_peer;
    std::shared_ptr<RawWaker> m_waker;
    std::unique_ptr<tls::TlsStream> m_tls; // on the TLS port
    Stage m_stage = Stage::Amqp;
    bool m_sniffing = true;
    QByteArray m_sniffed; // the first bytes, until they say which protocol
    pn_connection_driver_t m_driver{};
    bool m_hasDriver = false;
    QByteArray m_amqpBacklog; // read but not yet taken by the driver
    std::unique_ptr<StreamFraming> m_framing;
    std::unique_ptr<StreamService> m_service;
    bool m_dropRequested = false;
    bool m_streamWokenHeld = false; // a wake of the service, held while too much is unsent
    bool m_closing = false;         // closeWhenSent: nothing more is read or made
    bool m_rawCloseAsked = false;   // pn_raw_connection_close called

    // Read buffers: a few, owned here, lent to the raw connection.
    static constexpr int kReadBuffers = 4;
    static constexpr uint32_t kReadBufferBytes = 16 * 1024;
    std::array<std::unique_ptr<char[]>, kReadBuffers> m_readBuffers;
    std::array<bool, kReadBuffers> m_readLent{};
    // Written bytes: queued, then lent until written.
    std::deque<QByteArray> m_writeQueue;
    std::unordered_map<uintptr_t, QByteArray> m_writesLent;
    uintptr_t m_nextWrite = 1;
    qsizetype m_unsentBytes = 0; // queued and lent
};

} // namespace hourglass::amqp
