#pragma once
// What the window shows about the endpoint's connections: a read-only copy the proactor thread
// publishes a few times a second (never reach into Proton from the GUI). Plain values.

#include "hourglass/Time.h"

#include <QList>
#include <QString>
#include <QStringList>
#include <QUuid>

namespace hourglass::amqp {

struct WireLock {
    QUuid token;
    QString entityPath; // "/$deadletterqueue" included; without the namespace (the connection's)
    qint64 sequenceNumber = 0;
    Instant lockedUntil = 0; // as the broker last said (receive or renew)
};

struct WireLink {
    enum class Direction { ClientSends, ClientReceives };
    QString name;
    QString address; // as the client wrote it
    Direction direction = Direction::ClientSends;
    QString settleMode;    // "peek-lock", "receive-and-delete", or "" for request/response links
    int credit = 0;        // what the client has granted us (receivers) or we granted it (senders)
    int inFlight = 0;      // deliveries not yet settled
    quint64 messages = 0;  // transfers through the link since it opened
    QString receiverName;  // the lock holder name the broker records for this link
    QList<WireLock> locks; // the locks this link's deliveries hold
};

struct WireConnection {
    quint64 id = 0;
    QString peer;           // "127.0.0.1:53124"
    QString containerId;    // the client's container id
    qint64 openedAtMs = 0;  // wall clock, ms since the epoch
    QString keyName;        // the SAS key name a valid token was signed with; empty: none yet
    QStringList namespaces; // the namespaces its valid tokens were for, in the order claimed
    QList<WireLink> links;
    int locksHeld = 0; // every lock of the connection, management receives included
};

struct EndpointSnapshot {
    bool listening = false;
    QString host;
    quint16 port = 0;
    QString connectionString;
    QList<WireConnection> connections; // by id
};

} // namespace hourglass::amqp
