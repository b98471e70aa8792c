#pragma once
// The server side of a TLS session over bytes, with no socket of its own: whoever reads the
// connection (the AMQP endpoint's proactor thread, through Proton's raw connections) hands it the
// ciphertext it read and sends the ciphertext it gets back. TLS 1.2 and 1.3 only.
//
// Nothing of OpenSSL shows here; the library uses OpenSSL 3's C API behind these classes.

#include "hourglass/Status.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QString>

#include <memory>

namespace hourglass::tls {

// A server certificate chain and its key, loaded once and shared by every session. Immutable
// once made, so sessions on any thread may share it.
class TlsServerContext {
public:
    // PEM files (LocalCertificates::ensure or load give their paths). `certFile` holds the server
    // certificate first, then any authorities to send with it (at most 16 certificates);
    // `keyFile` its unencrypted key. An error names the file at fault and says what is wrong,
    // never what the file holds.
    static Result<std::shared_ptr<const TlsServerContext>> fromFiles(const QString& certFile,
                                                                     const QString& keyFile);
    ~TlsServerContext();
    TlsServerContext(const TlsServerContext&) = delete;
    TlsServerContext& operator=(const TlsServerContext&) = delete;

    struct Private; // OpenSSL's context, in the library only

private:
    explicit TlsServerContext(std::unique_ptr<Private> d);
    std::unique_ptr<Private> d;
    friend class TlsStream;
};

// One connection's session, used from one thread at a time (the thread may change between calls).
// Every call does work in proportion to the bytes it is given; none waits.
//
// A handshake that never finishes (a client that connects and goes quiet, or sends a byte a
// minute) is never failed here: the caller owns the deadline and drops the connection when it
// passes (handshakeDone() says whether it did).
class TlsStream {
public:
    explicit TlsStream(std::shared_ptr<const TlsServerContext> context);
    ~TlsStream();
    TlsStream(const TlsStream&) = delete;
    TlsStream& operator=(const TlsStream&) = delete;

    // Ciphertext from the peer, in pieces of any size. Drives the handshake, then decrypts every
    // whole record into takePlaintext(). False once the session has failed (bytes that are not
    // TLS, a bad record, a peer that does not trust our certificate and says so with an alert);
    // error() says why. Whatever the failure queued for the peer (an alert) is in
    // takeCiphertext(). Bytes fed after a failure or after the peer's close_notify are ignored.
    bool feed(QByteArrayView ciphertext);

    // The application data decrypted so far, handed over (the stream keeps none of it).
    QByteArray takePlaintext();

    // Application data to send: encrypted at once, in records of up to 16 KiB, when the handshake
    // is done; held until then. Ignored after close() or a failure.
    void write(QByteArrayView plaintext);

    // What to send to the peer, handed over: handshake records, alerts, encrypted data,
    // close_notify. Check it after every feed(), write() and close().
    QByteArray takeCiphertext();

    bool handshakeDone() const;
    bool failed() const;
    // Why the session failed, one short sentence of ours ("The TLS handshake failed: the client
    // does not trust the server's certificate (alert: unknown CA)."); empty while it has not.
    // Never carries the peer's bytes.
    QString error() const;

    // The host name the client asked for (SNI), for logs: any name is accepted. Printable ASCII
    // only (anything else shows as '?'); empty when the client sent none.
    QString serverName() const;
    // "TLSv1.3" or "TLSv1.2" once the handshake is done, empty before.
    QString protocolVersion() const;

    // The peer's close_notify arrived: it sends nothing more. Answer with close() and then close
    // the connection once takeCiphertext() is sent.
    bool peerClosed() const;
    // Queues our close_notify after whatever was written. Before the handshake is done there is
    // no session to close: nothing is queued and what write() held is dropped.
    void close();

    // Bytes held by the stream for the caller (plaintext not yet taken, ciphertext not yet taken,
    // writes held for the handshake), for a per-peer memory bound. OpenSSL's own buffers (at most
    // one partial record each way, about 34 KiB, released when idle) are not counted.
    qsizetype buffered() const;

    struct Private;

private:
    std::unique_ptr<Private> d;
};

} // namespace hourglass::tls
