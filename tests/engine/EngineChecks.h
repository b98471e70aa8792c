#pragma once
// Checks shared by the engine's rule-by-rule tests (service-bus-rules.md). The macros record a
// QtTest failure and return from the test function, so they are used only in void test functions.

#include "hourglass/Broker.h"

#include <QString>
#include <QTest>

namespace hourglass::testing {

// True when `error` has the expected code and carries everything L1 promises: a description, a
// tracking id, and retryable exactly for QuotaExceeded and ServiceBusy. Otherwise *why says what
// is wrong.
bool errorMatches(const Error& error, ErrorCode expected, QString* why);

ReceiveOptions peekLock(const QString& receiver, int maxCount = 1);
ReceiveOptions receiveAndDelete(int maxCount = 1);

// A message with the given id and TTL (unset: the entity default, T3).
OutgoingMessage messageWithTtl(const QString& messageId, std::optional<Millis> timeToLive);

// Every field, for failure messages and snapshots.
QString describe(const MessageView& message);
QString describe(const EntityProperties& properties);
QString describe(const Rule& rule);
QString describe(const EntityCounts& counts);

// The messages' ids, in the order given.
QStringList messageIds(const QList<MessageView>& messages);

} // namespace hourglass::testing

// Fails the test (with the engine's error) unless the Result is a success.
#define HG_VERIFY_OK(expr)                                                                         \
    do {                                                                                           \
        const auto& hgResult_ = (expr);                                                            \
        if (!hgResult_.ok())                                                                       \
            QFAIL(qPrintable(QStringLiteral("%1 failed: %2")                                       \
                                 .arg(QLatin1String(#expr), hgResult_.error().toString())));       \
    } while (false)

// Fails the test unless the Result is an error with `expectedCode` that is well formed (L1).
#define HG_VERIFY_ERROR(expr, expectedCode)                                                        \
    do {                                                                                           \
        const auto& hgResult_ = (expr);                                                            \
        QVERIFY2(!hgResult_.ok(), #expr " succeeded but should fail with " #expectedCode);         \
        QString hgWhy_;                                                                            \
        QVERIFY2(::hourglass::testing::errorMatches(hgResult_.error(), expectedCode, &hgWhy_),     \
                 qPrintable(QLatin1String(#expr ": ") + hgWhy_));                                  \
    } while (false)
