#pragma once
// What remote_bench measures against, made through the served namespace's own front doors as any
// client would: the queue "bench" filled through the AMQP client (sendBatch, one flight a batch)
// and the entities of the tree created through the administration API (several at once). Each
// step stops the benchmark on the first error (a figure over a half-made namespace would mean
// nothing).

#include "hourglass/remote/ConnectionString.h"

#include <QString>

namespace hourglass::bench {

inline constexpr char kRemoteQueue[] = "bench";

// The queue kRemoteQueue with `messages` messages of kRemoteBodyBytes each (ids "bench-<n>").
// Returns the seconds the sends took.
double fillRemoteQueue(const remote::ConnectionString& where, qint64 messages);

// `entities` more entities: a tenth of them topics with one subscription each, the rest queues
// ("q-0000", "t-0000", "t-0000/Subscriptions/s"). Returns the seconds they took.
double createRemoteEntities(const remote::ConnectionString& where, int entities);

// Peeks `count` messages of the queue from the start, `pageSize` a call, through the AMQP client
// alone (no window): the wire's share of the list's figure. Returns the milliseconds, the
// connection made before the clock starts.
double wirePeekMs(const remote::ConnectionString& where, int count, int pageSize);

inline constexpr int kRemoteBodyBytes = 1024;

} // namespace hourglass::bench
