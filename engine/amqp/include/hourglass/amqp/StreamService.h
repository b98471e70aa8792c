#pragma once
// What the endpoint does with a connection that does not start with AMQP's protocol header.
//
// Every connection the endpoint accepts (on the plain port, and on the TLS port once TLS has
// ended) is read before Proton sees a byte: one that starts with "AMQP" goes to Proton; any other
// goes to a StreamService made for it by the factory the endpoint was given (the administration
// API's HTTP, which also answers a WebSocket upgrade). The endpoint knows AMQP and how to carry
// bytes; what those other bytes mean is the service's.
//
// A WebSocket connection carries AMQP after its upgrade: the service answers the upgrade and hands
// the connection back with a StreamFraming, which unwraps the frames that follow into the AMQP
// bytes Proton reads and wraps what Proton writes.
//
// Threads: the endpoint calls a service and a framing on its proactor thread only, one call at a
// time. A service that does work elsewhere (a broker call on a worker) keeps its results under its
// own lock and calls StreamWaker::wake() from any thread; the endpoint then calls woken().

#include <QByteArray>
#include <QByteArrayView>
#include <QString>

#include <chrono>
#include <functional>
#include <memory>

namespace hourglass::amqp {

// Wraps AMQP bytes in a framing (WebSocket's binary messages) and unwraps them.
class StreamFraming {
public:
    virtual ~StreamFraming() = default;

    struct Unwrapped {
        QByteArray payload; // the AMQP bytes the frames carried
        QByteArray reply;   // to send back at once (a pong, a close frame)
        bool close = false; // the peer closed, or broke the framing: end after sending `reply`
    };
    // Bytes from the peer, in any pieces (a frame may be split anywhere).
    virtual Unwrapped unwrap(QByteArrayView bytes) = 0;
    // AMQP bytes Proton wrote, as frames to send.
    virtual QByteArray wrap(QByteArrayView payload) = 0;
    // What to send when the endpoint ends the connection (a close frame); empty for none.
    virtual QByteArray closing() = 0;
};

// What the service asks of the connection after each call.
struct StreamOutput {
    QByteArray bytes;   // to send, in order
    bool close = false; // end the connection once `bytes` are sent
    // Non-null: from now on the connection carries AMQP inside this framing; `leftover` are the
    // bytes the service read past its last request (already frames of that framing).
    std::unique_ptr<StreamFraming> amqpFraming;
    QByteArray leftover;
};

// Any thread: asks the endpoint to call the service's woken() on its own thread. Safe to call
// after the connection has gone (it does nothing then).
class StreamWaker {
public:
    virtual ~StreamWaker() = default;
    virtual void wake() = 0;
};

class StreamService {
public:
    virtual ~StreamService() = default;

    // Bytes from the peer (after TLS), the first call with the bytes that were not AMQP's header.
    virtual StreamOutput received(QByteArrayView bytes) = 0;
    // After a wake(): results of work done elsewhere.
    virtual StreamOutput woken() = 0;
    // The peer will send nothing more (it shut down its writing side, or closed).
    virtual StreamOutput peerClosed() = 0;
    // A few times a second: the service ends what has waited too long.
    virtual StreamOutput tick(std::chrono::steady_clock::time_point now) = 0;
};

// What a service is told about its connection.
struct StreamContext {
    bool secure = false; // arrived through TLS
    QString localHost;   // the name the endpoint answers to (its --host), for links it writes
    quint16 localPort = 0;
    QString peer; // "address:port", for logs
    std::shared_ptr<StreamWaker> waker;
};

// Makes the service for one connection; null refuses it (the connection is closed).
using StreamServiceFactory = std::function<std::unique_ptr<StreamService>(const StreamContext&)>;

} // namespace hourglass::amqp
