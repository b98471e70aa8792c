#include "messages/SelectionPrefetch.h"

namespace hourglass::ui {

SelectionPrefetch::SelectionPrefetch(Resolve resolve, QObject* parent)
    : QObject(parent)
    , m_resolve(std::move(resolve)) {
    m_timer.setSingleShot(true);
    m_timer.setInterval(kSettleMs);
    connect(&m_timer, &QTimer::timeout, this, &SelectionPrefetch::read);
}

void SelectionPrefetch::invalidate(bool needed) {
    ++m_generation;
    m_reading = false;
    m_result.reset();
    if (needed)
        m_timer.start();
    else
        m_timer.stop();
}

void SelectionPrefetch::read() {
    const quint64 generation = m_generation;
    m_reading = true;
    m_resolve(this, [this, generation](Result<QList<qint64>> read) {
        if (generation != m_generation)
            return;
        m_reading = false;
        m_result = std::move(read);
        emit ready();
    });
}

} // namespace hourglass::ui
