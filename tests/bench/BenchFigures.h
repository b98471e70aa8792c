#pragma once
// The benchmark's figures, one function per group, each measuring the engine and its raw SQLite
// baseline in the same run and adding rows to the report. Every database lives in
// options.directory.

#include "BenchReport.h"
#include "BenchSupport.h"

namespace hourglass::bench {

// 1a-1c durable sends (PowerSafe): send() one at a time, sendBatch(100), N threads calling
// send(); 2a-2c the raw SQLite ceilings at the same batch sizes.
void measureSends(const BenchOptions& options, BenchReport& report);

// 3a-3d settlement: peek-lock receive of 100 then complete each, from one thread and
// from N competing receivers; receive-and-delete of 100 (PowerSafe); 3a again under
// ProcessCrashSafe.
void measureSettlement(const BenchOptions& options, BenchReport& report);

// 4-7 on a database of options.messages messages: expiring a tenth into the dead-letter queue,
// an idle clock tick, reopening, and resident memory per message.
void measureScale(const BenchOptions& options, BenchReport& report);

// 8a-8c SQL filter evaluations per second on one core (correlation filter baseline); 9a-9b
// durable sends to a topic of 100 SQL-filtered subscriptions against 100 true filters.
void measureRules(const BenchOptions& options, BenchReport& report);

// The separate process of figure 7: opens `databasePath` and prints
// "OPENED <rss before> <rss after> <seconds> <messages>" (bytes, seconds).
int measureOpenInThisProcess(const QString& databasePath);

} // namespace hourglass::bench
