#pragma once
// The setting every bad-input test starts from (tst_engine_badinput): a broker holding messages
// in every state, and each public Broker operation callable by name, so that one data table can
// aim the same bad argument at every operation.

#include "TestBroker.h"

#include <QString>

namespace hourglass::testing {

class BadInputFixture {
public:
    static inline const QString kQueue = QStringLiteral("q");
    static inline const QString kTopic = QStringLiteral("t");
    static inline const QString kSub = QStringLiteral("t/Subscriptions/s");

    // Operations that look an entity up by path, and those that need a subscription path.
    static inline const char* const kLookupOperations[] = {
        "updateEntity",    "deleteEntity", "entity",           "send",
        "sendBatch",       "schedule",     "cancelScheduled",  "receive",
        "receiveDeferred", "peek",         "complete",         "abandon",
        "deadLetter",      "defer",        "renewLock",        "listMessages",
        "message",         "counts",       "deadLetterReasons"};
    static inline const char* const kSubscriptionOperations[] = {"addRule", "removeRule"};

    // Creates kQueue, kTopic and kSub, each with active, locked, deferred and dead-lettered
    // messages (and a scheduled one in kQueue), so that a refused call has plenty it could
    // wrongly change. Records a test failure when it cannot.
    static void populate(TestBroker& tb);

    // Runs the named operation against `path` (subscription operations use it as the
    // subscription path) with otherwise valid arguments.
    static Result<void> runOperation(Broker& broker, const QString& op, const QString& path);

    static EntityProperties withStatus(EntityStatus status);
    // Sets the E3 property of that name (DuplicateDetectionHistoryTimeWindow also turns
    // duplicate detection on).
    static void applyBound(EntityProperties& p, const QString& name, qint64 value);
};

template <typename T> Result<void> asVoid(const Result<T>& result) {
    if (result.ok())
        return {};
    return result.error();
}

} // namespace hourglass::testing
