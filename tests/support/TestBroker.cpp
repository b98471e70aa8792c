#include "TestBroker.h"

#include <QTest>

namespace hourglass::testing {

TestBroker::TestBroker(Tier tier)
    : m_dir(std::make_unique<QTemporaryDir>())
    , m_databasePath(m_dir->filePath(QStringLiteral("broker.db")))
    , m_clock(std::make_shared<VirtualClock>(kTestStart)) {
    reopen();
    const auto created = m_broker->createNamespace({QStringLiteral("test"), tier});
    if (!created)
        qFatal("createNamespace failed: %s", qPrintable(created.error().toString()));
}

TestBroker::TestBroker(const QString& databasePath, Instant now)
    : m_databasePath(databasePath)
    , m_clock(std::make_shared<VirtualClock>(now)) {
    reopen();
}

void TestBroker::close() {
    m_broker.reset();
}

void TestBroker::reopen() {
    close();
    BrokerOptions options;
    options.databasePath = databasePath();
    options.clock = m_clock;
    auto opened = Broker::open(options);
    if (!opened)
        qFatal("Broker::open failed: %s", qPrintable(opened.error().toString()));
    m_broker = std::move(opened).value();
}

void TestBroker::advance(Millis delta) {
    const auto advanced = m_broker->advanceClock(delta);
    if (!advanced)
        qFatal("advanceClock failed: %s", qPrintable(advanced.error().toString()));
}

OutgoingMessage TestBroker::message(const QString& messageId, const QByteArray& body) {
    OutgoingMessage m;
    m.messageId = messageId;
    m.body = body;
    return m;
}

} // namespace hourglass::testing
