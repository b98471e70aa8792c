// The broker's one write path (BrokerWrite.h): the only code that locks the broker's mutex and
// waits on the store.
#include "BrokerWrite.h"

namespace hourglass {

Result<void> Logged::durable() const {
    return m_store->waitDurable(m_ticket);
}

BrokerWrite::BrokerWrite(BrokerImpl& broker)
    : m_broker(broker)
    , m_lock(broker.m_mutex) {}

BrokerWrite::~BrokerWrite() = default;

Logged BrokerWrite::release() {
    const Logged logged = m_broker.loggedSoFar();
    m_lock.release();
    return logged;
}

Logged BrokerWrite::releaseRead() {
    const Logged logged = m_broker.readableSoFar();
    m_lock.release();
    return logged;
}

Result<void> BrokerWrite::commit() {
    return release().durable();
}

BrokerRead::BrokerRead(const BrokerImpl& broker)
    : m_broker(broker)
    , m_lock(broker.m_mutex) {}

BrokerRead::~BrokerRead() = default;

Logged BrokerRead::release() {
    const Logged logged = m_broker.readableSoFar();
    m_lock.release();
    return logged;
}

Logged BrokerImpl::loggedSoFar() const {
    return Logged(*m_store, m_store->ticket());
}

Logged BrokerImpl::readableSoFar() const {
    return Logged(*m_store, m_store->readTicket());
}

void BrokerImpl::answerWhenDurable(std::function<void()> answer) {
    m_callbacks.post([logged = loggedSoFar(), answer = std::move(answer)] {
        (void)logged.durable();
        answer();
    });
}

} // namespace hourglass
