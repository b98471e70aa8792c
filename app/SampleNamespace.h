#pragma once
// The namespace a first start shows: a few queues, a topic with filtered subscriptions, a
// temporary reply queue and messages whose time-to-live runs out over the next minutes, so that
// countdowns, expiry into the dead-letter queue and auto-delete can be watched at once.

#include "hourglass/Broker.h"

namespace hourglass::app {

// Creates the namespace "sample" and its entities and messages. Refused (and nothing changed) if
// a namespace of that name exists.
Result<void> createSampleNamespace(Broker& broker);

} // namespace hourglass::app
