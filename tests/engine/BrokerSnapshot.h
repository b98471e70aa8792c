#pragma once
// Everything a client can observe of a broker at one instant, as text: namespaces, every entity
// with its properties, rules, counts and timestamps, and every message of every queue and
// subscription (main and dead-letter sub-queues, with bodies). Bad-input tests take one before
// and one after a refused call: a refused call must change nothing (scenario-format.md
// ExpectError).

#include "hourglass/Broker.h"

#include <QStringList>

namespace hourglass::testing {

class BrokerSnapshot {
public:
    // Reads only through the explorer's side-effect-free reads (no peek: peek is activity, A2).
    static BrokerSnapshot take(const Broker& broker);
    // A snapshot taken elsewhere (in the child process of a kill -9 restart) from its lines.
    static BrokerSnapshot fromLines(const QStringList& lines);

    // Empty when equal; otherwise the first lines that differ.
    QString differenceFrom(const BrokerSnapshot& other) const;
    const QStringList& lines() const { return m_lines; }

private:
    QStringList m_lines;
};

} // namespace hourglass::testing

// Runs `expr`, expects `expectedCode`, and checks that the broker is exactly as it was.
#define HG_VERIFY_REFUSED(brokerRef, expr, expectedCode)                                           \
    do {                                                                                           \
        const auto hgBefore_ = ::hourglass::testing::BrokerSnapshot::take(brokerRef);              \
        HG_VERIFY_ERROR(expr, expectedCode);                                                       \
        const auto hgAfter_ = ::hourglass::testing::BrokerSnapshot::take(brokerRef);               \
        const QString hgDiff_ = hgBefore_.differenceFrom(hgAfter_);                                \
        QVERIFY2(hgDiff_.isEmpty(),                                                                \
                 qPrintable(QLatin1String(#expr " changed state: ") + hgDiff_));                   \
    } while (false)
