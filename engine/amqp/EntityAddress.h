#pragma once
// Link addresses as the SDKs write them, turned into engine paths:
//   "jobs", "events/Subscriptions/audit"              the entity
//   "<entity>/$DeadLetterQueue"                        its dead-letter queue ("/$deadletterqueue")
//   "<entity>/$management"                             request/response operations
//   "$cbs"                                             claims-based security (put-token)
// Some clients send the whole URL ("amqp://host:5672/jobs", "sb://host/jobs"); the scheme and
// host are dropped.

#include <QString>

namespace hourglass::amqp {

struct EntityAddress {
    enum class Kind { Entity, Management, Cbs, Invalid };
    Kind kind = Kind::Invalid;
    QString entityPath; // engine path: "jobs", "jobs/$deadletterqueue", "events/Subscriptions/a"
    QString address;    // as the client wrote it
    // Once a claim has placed the address (Claims.h): its namespace, and the path every broker
    // call uses, "ns:path" (a broker given a bare path would place it in a namespace of its
    // choosing). Empty until then. What the client reads names entityPath, never this.
    QString namespaceName;
    QString brokerPath;
};

EntityAddress parseEntityAddress(const QString& address);

// The path of an audience ("sb://localhost:5672/jobs" -> "jobs", "sb://localhost/" -> "").
QString audiencePath(const QString& audience);

} // namespace hourglass::amqp
