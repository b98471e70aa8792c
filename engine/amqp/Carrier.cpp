#include "Carrier.h"

#include "hourglass/tls/TlsStream.h"

#include <proton/connection.h>
#include <proton/netaddr.h>
#include <proton/proactor.h>
#include <proton/transport.h>

#include <cstring>

namespace hourglass::amqp {

namespace {
// AMQP's protocol header starts so (then a protocol id: 0 plain, 3 SASL); nothing else does.
constexpr QByteArrayView kAmqpHeader = "AMQP";
// What Proton has written and the socket has not taken yet, past which the driver's output
// waits in the driver: a peer that does not read cannot make this end hold more.
constexpr qsizetype kMaxUnsentBytes = 1024 * 1024;
// Writes are merged up to this size, so that many small frames go in one system call.
constexpr qsizetype kWriteChunkBytes = 64 * 1024;
// Read but not yet taken by the driver, past which reading pauses.
constexpr qsizetype kMaxBacklogBytes = 256 * 1024;
} // namespace

Carrier::Carrier(CarrierHost& host, pn_raw_connection_t* raw, CarrierPort port)
    : m_host(host)
    , m_raw(raw)
    , m_port(std::move(port))
    , m_waker(std::make_shared<RawWaker>(raw)) {
    if (m_port.tls)
        m_tls = std::make_unique<tls::TlsStream>(m_port.tls);
}

Carrier::~Carrier() {
    m_waker->close();
    if (m_hasDriver)
        pn_connection_driver_destroy(&m_driver);
}

bool Carrier::handle(pn_event_t* event) {
    switch (pn_event_type(event)) {
    case PN_RAW_CONNECTION_CONNECTED:
        connected();
        break;
    case PN_RAW_CONNECTION_NEED_READ_BUFFERS:
        giveReadBuffers();
        break;
    case PN_RAW_CONNECTION_READ:
        takeReadBuffers();
        break;
    case PN_RAW_CONNECTION_NEED_WRITE_BUFFERS:
        giveWriteBuffers();
        break;
    case PN_RAW_CONNECTION_WRITTEN:
        takeWrittenBuffers();
        break;
    case PN_RAW_CONNECTION_CLOSED_READ:
        peerStoppedWriting();
        break;
    case PN_RAW_CONNECTION_CLOSED_WRITE:
        // The peer takes nothing more: whatever is left to say is lost.
        if (m_stage == Stage::Amqp) {
            pn_connection_driver_write_close(&m_driver);
            runAmqp();
        }
        closeNow();
        break;
    case PN_RAW_CONNECTION_WAKE:
        woken();
        break;
    case PN_RAW_CONNECTION_DRAIN_BUFFERS:
        takeReadBuffers();
        takeWrittenBuffers();
        break;
    case PN_RAW_CONNECTION_DISCONNECTED:
        m_waker->close();
        if (m_hasDriver) {
            // The AMQP connection ends here (PN_TRANSPORT_CLOSED): its locks go back.
            pn_connection_driver_close(&m_driver);
            while (pn_event_t* amqp = pn_connection_driver_next_event(&m_driver))
                m_host.amqpEvent(*this, amqp);
        }
        m_service.reset();
        m_stage = Stage::Closed;
        return false;
    default:
        break;
    }
    return true;
}

void Carrier::connected() {
    char peer[PN_MAX_ADDR];
    if (const pn_netaddr_t* address = pn_raw_connection_remote_addr(m_raw)) {
        pn_netaddr_str(address, peer, sizeof peer);
        m_peer = QString::fromUtf8(peer);
    }
    // A connection is taken for AMQP until its first bytes say otherwise: the window lists it
    // and the limits on connections apply to it from its accept on.
    startAmqp();
    runAmqp();
}

void Carrier::giveReadBuffers() {
    // Reading pauses while the driver has bytes it could not take yet, or while the peer has not
    // taken what was written: a peer that sends (pings, requests) without reading the answers
    // cannot make this end hold more than that.
    if (m_closing || m_amqpBacklog.size() > kMaxBacklogBytes || m_unsentBytes > kMaxUnsentBytes)
        return;
    // One buffer until the first bytes said what the connection speaks (a TLS handshake included):
    // a thousand idle or half-open sockets hold a quarter of the memory.
    const int wanted = m_sniffing && m_stage == Stage::Amqp ? 1 : kReadBuffers;
    for (int i = 0; i < wanted; ++i) {
        if (m_readLent[i])
            continue;
        if (!m_readBuffers[i])
            m_readBuffers[i] = std::make_unique<char[]>(kReadBufferBytes);
        const pn_raw_buffer_t buffer{uintptr_t(i), m_readBuffers[i].get(), kReadBufferBytes, 0, 0};
        if (pn_raw_connection_give_read_buffers(m_raw, &buffer, 1) != 1)
            break;
        m_readLent[i] = true;
    }
}

void Carrier::takeReadBuffers() {
    pn_raw_buffer_t buffers[kReadBuffers];
    while (const std::size_t count =
               pn_raw_connection_take_read_buffers(m_raw, buffers, kReadBuffers)) {
        for (std::size_t i = 0; i < count; ++i) {
            m_readLent[buffers[i].context] = false;
            if (buffers[i].size > 0 && !m_closing)
                received(QByteArrayView(buffers[i].bytes + buffers[i].offset,
                                        qsizetype(buffers[i].size)));
        }
    }
    // Everything one read brought is one batch of AMQP events: the broker calls it asks for go
    // out together, and no completion (a send's credit coming back) runs in its middle.
    if (m_stage == Stage::Amqp && m_hasDriver && !m_sniffing)
        runAmqp();
    giveReadBuffers();
}

void Carrier::takeWrittenBuffers() {
    pn_raw_buffer_t buffers[8];
    while (const std::size_t count = pn_raw_connection_take_written_buffers(m_raw, buffers, 8)) {
        for (std::size_t i = 0; i < count; ++i) {
            const auto lent = m_writesLent.find(buffers[i].context);
            if (lent == m_writesLent.end())
                continue;
            m_unsentBytes -= lent->second.size();
            m_writesLent.erase(lent);
        }
    }
    giveWriteBuffers();
    // Room again for what the driver or the service held back, and for reading.
    if (m_stage == Stage::Amqp && !m_closing)
        runAmqp();
    if (m_stage == Stage::Stream && !m_closing && m_streamWokenHeld &&
        m_unsentBytes < kMaxUnsentBytes) {
        m_streamWokenHeld = false;
        apply(m_service->woken());
    }
    giveReadBuffers();
    finishCloseIfSent();
}

void Carrier::woken() {
    if (m_dropRequested) {
        closeNow();
        return;
    }
    switch (m_stage) {
    case Stage::Amqp:
        if (pn_transport_t* transport = m_driver.transport)
            pn_transport_tick(transport, pn_proactor_now_64());
        m_host.amqpWoken(*this);
        runAmqp();
        break;
    case Stage::Stream:
        // Its next answer (and with it the next pipelined request) waits until the peer has
        // read what was sent: the service's answers are held nowhere else.
        if (m_unsentBytes >= kMaxUnsentBytes)
            m_streamWokenHeld = true;
        else
            apply(m_service->woken());
        if (m_service)
            apply(m_service->tick(std::chrono::steady_clock::now()));
        break;
    case Stage::Closed:
        break;
    }
    finishCloseIfSent();
}

void Carrier::peerStoppedWriting() {
    switch (m_stage) {
    case Stage::Amqp:
        pn_connection_driver_read_close(&m_driver);
        runAmqp();
        break;
    case Stage::Stream:
        apply(m_service->peerClosed());
        break;
    case Stage::Closed:
        break;
    }
}

void Carrier::received(QByteArrayView bytes) {
    if (!m_tls) {
        receivedPlain(bytes);
        return;
    }
    const bool ok = m_tls->feed(bytes);
    sendRaw(m_tls->takeCiphertext()); // the handshake's answers, or the alert of a failure
    if (!ok) {
        // A client that does not trust the certificate, or bytes that are not TLS: nothing
        // else happens (its AMQP connection, never opened, goes with the socket).
        closeWhenSent();
        return;
    }
    const QByteArray plain = m_tls->takePlaintext();
    if (!plain.isEmpty())
        receivedPlain(plain);
    if (m_tls && m_tls->peerClosed() && !m_closing)
        peerStoppedWriting();
}

void Carrier::receivedPlain(QByteArrayView bytes) {
    switch (m_stage) {
    case Stage::Amqp:
        if (m_sniffing) {
            sniff(bytes);
        } else if (m_framing) {
            StreamFraming::Unwrapped unwrapped = m_framing->unwrap(bytes);
            if (!unwrapped.reply.isEmpty())
                sendPlain(unwrapped.reply);
            feedAmqp(unwrapped.payload);
            if (unwrapped.close)
                closeWhenSent();
        } else {
            feedAmqp(bytes); // handled once the whole read is in (takeReadBuffers)
        }
        break;
    case Stage::Stream:
        apply(m_service->received(bytes));
        break;
    case Stage::Closed:
        break;
    }
}

void Carrier::sniff(QByteArrayView bytes) {
    m_sniffed.append(bytes);
    const qsizetype compared = qMin(m_sniffed.size(), kAmqpHeader.size());
    const bool amqpSoFar = QByteArrayView(m_sniffed).first(compared) == kAmqpHeader.first(compared);
    if (amqpSoFar && m_sniffed.size() < kAmqpHeader.size())
        return; // too few bytes to tell
    m_sniffing = false;
    const QByteArray first = std::exchange(m_sniffed, {});
    if (amqpSoFar || !startStream(first)) {
        // AMQP, or nothing here speaks what it is: Proton answers (with its header and a close).
        feedAmqp(first);
        runAmqp();
    }
}

void Carrier::startAmqp() {
    pn_connection_t* connection = pn_connection();
    pn_connection_driver_init(&m_driver, connection, m_host.newAmqpTransport());
    m_hasDriver = true;
    m_stage = Stage::Amqp;
}

void Carrier::feedAmqp(QByteArrayView bytes) {
    // What waited goes first; new bytes are copied straight into the driver when nothing waits
    // (the usual case), and only what it has no room for is kept.
    if (!m_amqpBacklog.isEmpty()) {
        m_amqpBacklog.append(bytes.data(), bytes.size());
        const qsizetype taken = pushToDriver(m_amqpBacklog);
        m_amqpBacklog.remove(0, taken);
    } else if (!bytes.isEmpty()) {
        const qsizetype taken = pushToDriver(bytes);
        m_amqpBacklog.append(bytes.data() + taken, bytes.size() - taken);
    }
    if (pn_connection_driver_read_closed(&m_driver))
        m_amqpBacklog.clear(); // nothing more is read: the connection is ending
}

qsizetype Carrier::pushToDriver(QByteArrayView bytes) {
    qsizetype taken = 0;
    while (taken < bytes.size() && !pn_connection_driver_read_closed(&m_driver)) {
        const pn_rwbytes_t buffer = pn_connection_driver_read_buffer(&m_driver);
        if (buffer.size == 0)
            break;
        const std::size_t n = std::min<std::size_t>(buffer.size, bytes.size() - taken);
        std::memcpy(buffer.start, bytes.data() + taken, n);
        pn_connection_driver_read_done(&m_driver, n);
        taken += qsizetype(n);
    }
    return taken;
}

void Carrier::runAmqp() {
    do {
        while (pn_event_t* event = pn_connection_driver_next_event(&m_driver))
            m_host.amqpEvent(*this, event);
        m_host.amqpBatchEnd(*this);
        sendAmqpOutput();
        // Input held back for lack of room goes in as the driver makes room.
        if (!m_amqpBacklog.isEmpty())
            feedAmqp({});
    } while (pn_connection_driver_has_event(&m_driver));
    if (pn_connection_driver_finished(&m_driver))
        closeWhenSent();
    else if (m_amqpBacklog.size() <= kMaxBacklogBytes)
        giveReadBuffers();
}

void Carrier::sendAmqpOutput() {
    while (m_unsentBytes < kMaxUnsentBytes) {
        const pn_bytes_t output = pn_connection_driver_write_buffer(&m_driver);
        if (output.size == 0)
            break;
        const QByteArrayView bytes(output.start, qsizetype(output.size));
        if (m_framing)
            sendPlain(m_framing->wrap(bytes));
        else
            sendPlain(bytes);
        pn_connection_driver_write_done(&m_driver, output.size);
    }
}

bool Carrier::startStream(QByteArrayView first) {
    StreamContext context;
    context.secure = bool(m_port.tls);
    context.localHost = m_port.host;
    context.localPort = m_port.port;
    context.peer = m_peer;
    context.waker = m_waker;
    m_service = m_host.makeStreamService(*this, context);
    if (!m_service)
        return false;
    // The AMQP connection it was taken for goes (unseen by the peer: Proton had read nothing).
    pn_connection_driver_close(&m_driver);
    while (pn_event_t* event = pn_connection_driver_next_event(&m_driver))
        m_host.amqpEvent(*this, event);
    pn_connection_driver_destroy(&m_driver);
    m_hasDriver = false;
    m_stage = Stage::Stream;
    apply(m_service->received(first));
    return true;
}

void Carrier::apply(StreamOutput output) {
    if (!output.bytes.isEmpty())
        sendPlain(output.bytes);
    if (output.amqpFraming) {
        // The service is done with the connection: what follows is AMQP in frames.
        m_service.reset();
        m_framing = std::move(output.amqpFraming);
        startAmqp();
        m_host.amqpAfterStream(*this);
        m_sniffing = false;
        receivedPlain(output.leftover);
        runAmqp();
    }
    if (output.close)
        closeWhenSent();
}

void Carrier::sendPlain(QByteArrayView bytes) {
    if (bytes.isEmpty())
        return;
    if (!m_tls) {
        sendRaw(bytes.toByteArray());
        return;
    }
    if (m_tls->failed())
        return;
    m_tls->write(bytes);
    sendRaw(m_tls->takeCiphertext());
}

void Carrier::sendRaw(QByteArray bytes) {
    if (bytes.isEmpty() || m_rawCloseAsked)
        return;
    m_unsentBytes += bytes.size();
    if (!m_writeQueue.empty() && m_writeQueue.back().size() + bytes.size() <= kWriteChunkBytes)
        m_writeQueue.back().append(bytes);
    else
        m_writeQueue.push_back(std::move(bytes));
    giveWriteBuffers();
}

void Carrier::giveWriteBuffers() {
    while (!m_writeQueue.empty() && pn_raw_connection_write_buffers_capacity(m_raw) > 0) {
        QByteArray bytes = std::move(m_writeQueue.front());
        m_writeQueue.pop_front();
        const uintptr_t id = m_nextWrite++;
        const pn_raw_buffer_t buffer{id, bytes.data(), uint32_t(bytes.size()),
                                     uint32_t(bytes.size()), 0};
        m_writesLent.emplace(id, std::move(bytes));
        pn_raw_connection_write_buffers(m_raw, &buffer, 1);
    }
}

void Carrier::closeWhenSent() {
    if (m_closing)
        return;
    m_closing = true;
    if (m_framing && m_stage == Stage::Amqp)
        sendPlain(m_framing->closing());
    if (m_tls && m_tls->handshakeDone() && !m_tls->failed()) {
        m_tls->close(); // close_notify: the peer knows the end was meant
        sendRaw(m_tls->takeCiphertext());
    }
    finishCloseIfSent();
}

void Carrier::finishCloseIfSent() {
    // Everything queued has been handed to the socket: closing now still writes it.
    if (m_closing && m_writeQueue.empty())
        closeNow();
}

void Carrier::closeNow() {
    if (m_rawCloseAsked)
        return;
    m_rawCloseAsked = true;
    m_closing = true;
    pn_raw_connection_close(m_raw);
}

} // namespace hourglass::amqp
