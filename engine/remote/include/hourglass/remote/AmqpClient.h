#pragma once
// The AMQP 1.0 client of a remote namespace (README.md here): Azure Service Bus, Microsoft's
// emulator or another machine's `hourglass serve`, reached from the connection string. It makes
// the Broker's calls over the wire with the Broker's own types, so the window's panels need not
// know which one they talk to.
//
// Threads: the socket and Proton's connection driver live on one thread the client owns. Every
// call is made from another thread (the window's workers) and blocks until its answer or the
// call time-out, never longer. A connection that breaks fails every call in flight at once with
// ServiceCommunicationProblem; a credential the service refuses fails with Unauthorized.

#include "hourglass/Broker.h"
#include "hourglass/Message.h"
#include "hourglass/Status.h"
#include "hourglass/remote/ConnectionString.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <functional>
#include <memory>
#include <optional>

namespace hourglass::remote {

// A token for one audience, from a provider the caller gives (a later step: Microsoft Entra ID).
struct AccessToken {
    QString type;         // what put-token names it: "jwt", "servicebus.windows.net:sastoken"
    QString token;        // the token itself
    qint64 expiresAt = 0; // seconds since the epoch; the client renews it before then
};
using TokenProvider = std::function<Result<AccessToken>(const QString& audience)>;

struct AmqpClientOptions {
    // How long a call waits for its answer (connect included).
    int callTimeoutMs = 30000;
    // A PEM file of certificates trusted besides the system's (the CA of `hourglass serve --tls`).
    QString extraCaFile;
    // Tokens when the connection string has neither a key nor a signature.
    TokenProvider tokenProvider;
    // How long the tokens signed from a key live; they are renewed when a tenth of it is left.
    int sasTokenLifetimeSeconds = 3600;
    // AMQP over WebSockets, for networks that block AMQP's ports: the namespace's HTTP(S) port
    // (443 unless the string names one; plain ws:// for an emulator-style string) at
    // /$servicebus/websocket, through the system's proxy for that address (https_proxy, ...).
    bool webSockets = false;
    // A connection that breaks is made again at once, then after a back-off from the first delay
    // doubling up to the longest, so that a host that is gone is not hammered.
    int reconnectFirstDelayMs = 1000;
    int reconnectMaxDelayMs = 15000;
};

class ClientConnection;
class ClientThread;

class AmqpClient {
public:
    AmqpClient(ConnectionString where, AmqpClientOptions options = {});
    // Closes the connection (close()) and stops the thread.
    ~AmqpClient();
    AmqpClient(const AmqpClient&) = delete;
    AmqpClient& operator=(const AmqpClient&) = delete;

    const ConnectionString& where() const { return m_where; }

    // Opens the connection and proves the credential on it (a token for the namespace, or for
    // the EntityPath when the string names one). ServiceCommunicationProblem when the host cannot
    // be reached, its certificate does not verify or it does not speak AMQP; Unauthorized when
    // the token is refused. A client that is connected answers at once.
    Result<void> connect();
    // Closes the connection: its links end, so the locks they hold go back to the entity.
    void close();
    bool isConnected() const;
    // A connection that broke (the peer went, the network was cut) rather than being closed:
    // since when (system time), 0 while it is up, before it first opened and after close(). It
    // is made again in the background (at once, then with a back-off); a call made meanwhile
    // tries it at once, or fails at once while an attempt was made within the last second. The
    // locks and sessions held on the broken connection are gone: settling or renewing one
    // answers MessageLockLost (SessionLockLost) saying so. Never waits on the wire.
    Instant connectionLostAt() const;
    // Why it broke, or why the last attempt to make it again failed; empty while it is up.
    QString connectionProblem() const;
    // When it last broke (system time), kept once it is made again; 0 when it never broke. A
    // lock or session taken before then is gone.
    Instant lastConnectionBreakAt() const;
    // How many times the connection has opened: a session or lock taken under one number is
    // gone once it changed.
    quint64 connectionEpoch() const;

    // Sends one message to a queue or topic, on a sender link kept for the entity. The message
    // keeps its MessageId; one without gets a fresh one (SendResult::messageId). The service
    // does not say the sequence number of a plain send: it stays 0.
    Result<SendResult> send(const QString& entityPath, const OutgoingMessage& message);
    // Sends the messages in one flight on the entity's sender, in order, and answers once every
    // one is settled: the first failure, or success. Proton 0.37's C API cannot set a transfer's
    // message-format, so they are not one batch transfer: a failure may leave the ones before
    // it sent.
    Result<void> sendBatch(const QString& entityPath, const QList<OutgoingMessage>& messages);

    // Through the entity's `$management` node (com.microsoft:peek-message): up to maxCount
    // messages from fromSequenceNumber (the lowest when <= 0), of one session with sessionId.
    // No lock, no delivery.
    Result<QList<MessageView>> peek(const QString& entityPath, const PeekOptions& options);

    // Up to maxCount messages on the receiver link of (entity, options.receiver, options.mode),
    // kept for later calls: as many as came within `waitMs` (none is not an error). Peek-lock
    // messages stay locked on that link until they are settled; LockRef::of(message) names them.
    Result<QList<MessageView>> receive(const QString& entityPath, const ReceiveOptions& options,
                                       int waitMs = 1000);
    // A deferred message by its sequence number, locked for `receiver`
    // (com.microsoft:receive-by-sequence-number); it settles through $management. A session's
    // deferred message names its session (`sessionId`), whose lock the caller holds.
    Result<MessageView> receiveDeferred(const QString& entityPath, qint64 sequenceNumber,
                                        const QString& receiver = {},
                                        const QString& sessionId = {});

    // Settle a locked message: on the receiver link that got it, else (a deferred message taken
    // by sequence number) through com.microsoft:update-disposition. MessageLockLost when the
    // lock is gone.
    Result<void> complete(const LockRef& lock);
    Result<void> abandon(const LockRef& lock, const QVariantMap& propertiesToModify = {});
    Result<void> defer(const LockRef& lock, const QVariantMap& propertiesToModify = {});
    Result<void> deadLetter(const LockRef& lock, const DeadLetterOptions& options = {});
    // com.microsoft:renew-lock; the new LockedUntilUtc.
    Result<Instant> renewLock(const LockRef& lock);

    // com.microsoft:schedule-message: the sequence number that cancels it.
    Result<qint64> schedule(const QString& entityPath, const OutgoingMessage& message, Instant at);
    // com.microsoft:cancel-scheduled-message.
    Result<void> cancelScheduled(const QString& entityPath, qint64 sequenceNumber);

    // com.microsoft:batch-delete-messages: deletes up to maxCount (1..kMaxPurgeCount) messages
    // of the entity (or "<entity>/$deadletterqueue") enqueued before `enqueuedBefore` (kNever:
    // every one), of `sessionId` only when given, and answers how many the service deleted.
    // None when the namespace does not offer the operation (it answers 501 not-implemented).
    Result<std::optional<qint64>> batchDelete(const QString& entityPath, int maxCount,
                                              Instant enqueuedBefore = kNever,
                                              const std::optional<QString>& sessionId = {});

    // Sessions, on an entity that requires them. A session receiver link takes the named
    // session or, without one, the next available within `waitMs` (ServiceTimeout when none
    // came; SessionCannotBeLocked when the named one is locked). Its messages are received and
    // settled on that link (the calls above, with LockRef::of); the session's own calls name it
    // with SessionRef::of(accepted).
    Result<AcceptedSession> acceptSession(const QString& entityPath,
                                          const SessionAcceptOptions& options,
                                          ReceiveMode mode = ReceiveMode::PeekLock,
                                          int waitMs = 5000);
    Result<QList<MessageView>> receiveFromSession(const SessionRef& session, int maxCount,
                                                  int waitMs = 1000);
    // com.microsoft:renew-session-lock: the new LockedUntilUtc.
    Result<Instant> renewSessionLock(const SessionRef& session);
    // com.microsoft:get-session-state and set-session-state; none: no state.
    Result<std::optional<QByteArray>> sessionState(const SessionRef& session);
    Result<void> setSessionState(const SessionRef& session, const std::optional<QByteArray>& state);
    // Closes the session's link: the session is free for others, its message locks are gone.
    Result<void> releaseSession(const SessionRef& session);
    // com.microsoft:get-message-sessions: up to `top` session ids after the first `skip`.
    Result<QStringList> listSessions(const QString& entityPath, int skip = 0, int top = 100);

private:
    struct Settle;
    Result<void> settle(const LockRef& lock, const Settle& how);
    int waitLimit() const;

    ConnectionString m_where;
    AmqpClientOptions m_options;
    std::unique_ptr<ClientThread> m_thread;
};

} // namespace hourglass::remote
