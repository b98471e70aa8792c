#pragma once
// The bytes under the AMQP connection: the connection driver is fed what arrives and writes what
// it produces, and does not know what carries them. A socket carries them today (plain TCP or
// TLS, SocketTransport.h); AMQP over WebSockets will be another implementation of this interface.
// Every call and every callback happens on the client's thread.

#include "hourglass/Status.h"

#include <QByteArray>

#include <functional>

namespace hourglass::remote {

struct TransportCallbacks {
    std::function<void()> opened;                   // ready for bytes both ways
    std::function<void(const QByteArray&)> arrived; // bytes from the peer
    // The transport cannot go on (refused, a certificate that does not verify, closed by the
    // peer): a ServiceCommunicationProblem that says why. Called once; nothing follows it.
    std::function<void(const Error&)> failed;
};

class ByteTransport {
public:
    virtual ~ByteTransport() = default;
    // Starts connecting; `callbacks` says how it went.
    virtual void open(TransportCallbacks callbacks) = 0;
    virtual void write(const char* bytes, qint64 size) = 0;
    // Closes at once, without calling back.
    virtual void abort() = 0;
};

} // namespace hourglass::remote
