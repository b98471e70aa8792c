#include "common/BrokerClient.h"

#include <QThread>

namespace hourglass::ui {

namespace {
// How often the engine is asked to fire due events. Its idle cost is a look at a heap head, so
// this is cheap; it bounds how long an expired message may still show before it moves.
constexpr int kTickMs = 200;
// How often a retired client looks whether its last calls have finished.
constexpr int kRetireCheckMs = 50;
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

void BrokerClient::retire(std::unique_ptr<BrokerClient> client) {
    if (!client)
        return;
    BrokerClient* retiring = client.release();
    retiring->m_ticker.stop();
    retiring->disconnect(); // nobody hears from it any more
    auto* wait = new QTimer(retiring);
    wait->setInterval(kRetireCheckMs);
    QObject::connect(wait, &QTimer::timeout, retiring, [retiring] {
        if (!retiring->m_pool.waitForDone(0))
            return;
        std::shared_ptr<Broker> broker = std::move(retiring->m_broker);
        // Its feed goes with it: no thread delivers its events once it is let go elsewhere.
        broker->changes()->disconnect();
        broker->changes()->moveToThread(nullptr);
        delete retiring;
        QThreadPool::globalInstance()->start(
            [broker = std::move(broker)]() mutable { broker.reset(); });
    });
    wait->start();
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
