#include "common/BrokerClient.h"

#include <QThread>

namespace hourglass::ui {

namespace {
// How often the engine is asked to fire due events. Its idle cost is a look at a heap head, so
// this is cheap; it bounds how long an expired message may still show before it moves.
constexpr int kTickMs = 200;
} // namespace

BrokerClient::BrokerClient(std::shared_ptr<Broker> broker, QObject* parent)
    : QObject(parent)
    , m_broker(std::move(broker))
    , m_capabilities(m_broker->capabilities()) {
    m_pool.setMaxThreadCount(2);
    ChangeFeed* feed = m_broker->changes();
    if (feed->thread() != thread() && feed->thread() == QThread::currentThread())
        feed->moveToThread(thread());
    connect(feed, &ChangeFeed::changed, this, &BrokerClient::changed);
    m_ticker.setInterval(kTickMs);
    connect(&m_ticker, &QTimer::timeout, this, &BrokerClient::tick);
    m_ticker.start();
}

BrokerClient::~BrokerClient() {
    m_ticker.stop();
    m_pool.waitForDone();
}

VirtualClock* BrokerClient::virtualClock() const {
    return dynamic_cast<VirtualClock*>(&m_broker->clock());
}

void BrokerClient::waitForIdle() {
    m_pool.waitForDone();
}

void BrokerClient::tick() {
    if (m_tickRunning)
        return; // the previous tick is still firing a large batch of expiries
    m_tickRunning = true;
    call(
        this, [](Broker& broker) { return broker.runDue(); },
        [this](int) { m_tickRunning = false; });
}

} // namespace hourglass::ui
