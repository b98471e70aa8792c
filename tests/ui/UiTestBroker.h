#pragma once
// The broker every UI test starts from: a database in the test's temporary directory on the
// test's paused VirtualClock, with one Standard namespace unless none is asked for. A broker
// that cannot open stops the test program: nothing after it could run.

#include "hourglass/Broker.h"

#include <QTemporaryDir>

#include <memory>

namespace hourglass::testing {

inline std::unique_ptr<Broker>
openUiTestBroker(const QTemporaryDir& dir, std::shared_ptr<VirtualClock> clock,
                 const QString& namespaceName = QStringLiteral("test")) {
    BrokerOptions options;
    options.databasePath = dir.filePath(QStringLiteral("broker.db"));
    options.clock = std::move(clock);
    auto opened = Broker::open(options);
    if (!opened)
        qFatal("Broker::open failed: %s", qPrintable(opened.error().toString()));
    std::unique_ptr<Broker> broker = std::move(opened).value();
    if (!namespaceName.isEmpty() && !broker->createNamespace({namespaceName, Tier::Standard}))
        qFatal("createNamespace failed");
    return broker;
}

} // namespace hourglass::testing
