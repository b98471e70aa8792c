#pragma once
// The AMQP connection of one client, on the client's thread (AmqpClient.h): Proton's connection
// driver over a ByteTransport, SASL ANONYMOUS, tokens on `$cbs` for each audience before its
// first link (renewed before they expire), and the links the calls use: a sender per entity,
// a request channel per `$management` node. Everything here runs on that one thread.
//
// A connection that breaks (rather than being closed) is made again: at once, then after a
// back-off that doubles up to AmqpClientOptions::reconnectMaxDelayMs, until one attempt opens
// or close() is called; a call made meanwhile tries at once if the last attempt is a second
// old, else fails at once. The locks and sessions held on the broken connection are remembered
// as lost, so that settling one says why.

#include "ByteTransport.h"
#include "CbsTokens.h"
#include "LinkEnd.h"
#include "RequestChannel.h"

#include "hourglass/remote/AmqpClient.h"

#include <QHash>
#include <QList>
#include <QSet>
#include <QTimer>

#include <proton/connection_driver.h>

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>

namespace hourglass::remote {

class ReceiverLink;
class SenderLink;
struct SessionAsk;

class ClientConnection {
public:
    ClientConnection(ConnectionString where, AmqpClientOptions options);
    ~ClientConnection();

    // Opens the connection and puts the connect audience's token, or answers at once when it is
    // open. A call made while it is opening waits for the same outcome.
    void open(Done done);
    // Abandons the messages its receivers hold, closes the links and the connection, and fails
    // what still waits.
    void close();
    // Read from any thread.
    bool isOpen() const { return m_open.load(); }
    // Read from any thread: since when (system time, ms) the connection is broken and not made
    // again, 0 while it is up, before it first opened and after close(); why it broke (or why
    // the last attempt to make it again failed); how many times it has opened.
    qint64 lostAt() const { return m_lostAt.load(); }
    // When it last broke, kept once it is made again; 0 when it never broke.
    qint64 lastBreakAt() const { return m_lastBreakAt.load(); }
    QString lostWhy() const;
    quint64 epoch() const { return m_epoch.load(); }

    // MessageLockLost when `token` was held on a connection that broke; none otherwise.
    std::optional<Error> lockLostWith(const QUuid& token) const;
    // SessionLockLost when the session was held on a connection that broke; none otherwise.
    std::optional<Error> sessionLostWith(const QString& entityPath, const QString& receiverName,
                                         const QString& sessionId) const;

    // `whenReady` runs once the connection is open and `audience` has a token, or gets why not.
    void authorize(const QString& audience, Done whenReady);
    // The sender link of an entity, made (not yet attached) on first use.
    SenderLink& sender(const QString& entityPath);
    // The receiver link of an entity for a receiver name and mode, made on first use.
    ReceiverLink& receiver(const QString& entityPath, const QString& receiverName,
                           ReceiveMode mode);
    // A new session receiver link (ReceiverLink::accept attaches it).
    ReceiverLink& sessionReceiver(const QString& entityPath, const QString& receiverName,
                                  ReceiveMode mode, const SessionAsk& ask);
    // The session receiver that holds `session`; none when it is not ours (any more).
    ReceiverLink* sessionHolder(const QString& entityPath, const QString& receiverName,
                                const QString& sessionId);
    // Forgets a receiver link (after ReceiverLink::detach); dropLater: after the next pump.
    void dropReceiver(ReceiverLink* link);
    void dropLater(ReceiverLink* link) { m_deadReceivers.append(link); }
    // The receiver link of `receiverName` on the entity that holds the delivery of `token`.
    ReceiverLink* holder(const QString& entityPath, const QString& receiverName,
                         const QUuid& token);
    // The request channel of a node ("$cbs", "orders/$management"), made on first use.
    RequestChannel& channel(const QString& node);

    const CbsTokens& tokens() const { return m_tokens; }
    // A fresh link name with `prefix`.
    QByteArray linkName(const QString& prefix);
    pn_session_t* session() const { return m_session; }
    // Registers or forgets the handler of a link's events.
    void attachHandler(pn_link_t* link, LinkEnd* handler) { m_handlers.insert(link, handler); }
    void detachHandler(pn_link_t* link) { m_handlers.remove(link); }
    // Runs Proton's events and writes what it produced; after every change made from outside
    // an event (a new link, a message queued).
    void pump();

private:
    struct Audience {
        bool authorized = false; // its token was accepted (and is renewed before it expires)
        bool pending = false;    // a put-token is out
        QList<Done> waiting;
        std::unique_ptr<QTimer> renewal;
    };

    void startAttempt();
    void startTransport();
    // After a break: what the receivers held is lost; the next attempt is due after `delayMs`.
    void broke(const Error& why);
    void scheduleRetry(int delayMs);
    Error retryPending() const;
    void opened();
    void arrived(const QByteArray& bytes);
    void handle(pn_event_t* event);
    void requestToken(const QString& audience, Done done);
    void putToken(const QString& audience);
    void tokenAnswered(const QString& audience, qint64 issuedAt, qint64 expiresAt,
                       const Result<void>& outcome);
    // The connection is gone (or never came): everything waiting fails with `why`.
    void lose(const Error& why);

    ConnectionString m_where;
    AmqpClientOptions m_options;
    CbsTokens m_tokens;
    std::unique_ptr<ByteTransport> m_transport;
    std::unique_ptr<ByteTransport> m_retired; // the last connection's, aborted
    std::optional<Error> m_lost;              // found during pump(): acted on after it
    pn_connection_driver_t m_driver{};
    bool m_driverUp = false;
    pn_session_t* m_session = nullptr;
    enum class State { Closed, Opening, Open } m_state = State::Closed;
    std::atomic<bool> m_open{false};
    QList<Done> m_opening;
    QTimer m_openDeadline;
    QTimer m_ticks;
    std::map<QString, Audience> m_audiences;
    QHash<QString, std::shared_ptr<SenderLink>> m_senders;
    QHash<QString, std::shared_ptr<RequestChannel>> m_channels;
    QList<std::shared_ptr<ReceiverLink>> m_receivers;
    QList<ReceiverLink*> m_deadReceivers; // closed by the peer: dropped after the pump
    QHash<pn_link_t*, LinkEnd*> m_handlers;
    quint64 m_linkCount = 0;
    bool m_pumping = false;

    // Making it again after a break.
    bool m_closing = false; // close() is running: what it loses is not a break
    int m_failures = 0;     // attempts failed since the break
    QTimer m_retry;
    qint64 m_retryDueMs = 0;    // steady clock
    qint64 m_lastAttemptMs = 0; // steady clock
    std::atomic<qint64> m_lostAt{0};
    std::atomic<qint64> m_lastBreakAt{0};
    std::atomic<quint64> m_epoch{0};
    mutable std::mutex m_whyMutex;
    QString m_lostWhy; // guarded by m_whyMutex
    QString m_brokeAt; // "HH:mm:ss" of the break, for messages
    QSet<QUuid> m_lostLocks;
    QSet<QString> m_lostSessions; // sessionKey()
};

} // namespace hourglass::remote
