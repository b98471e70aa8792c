#include "connections/ClockAppsNote.h"

#include "common/BrokerClient.h"
#include "connections/AmqpService.h"

#include "Clock.h"

#include <QAction>

namespace hourglass::ui {

ClockAppsNote::ClockAppsNote(AmqpService& service, BrokerClient& client, QWidget* parent)
    : QLabel(parent)
    , m_service(service)
    , m_client(client) {
    setObjectName(QStringLiteral("clockAppsNote"));
    setContentsMargins(8, 0, 8, 0);
    setToolTip(tr("Applications connected over AMQP see the engine's time: enqueue times, lock "
                  "expiries and scheduled times follow this clock. Their SDKs renew locks and "
                  "time out on the real clock, so a lock may run out sooner or later than they "
                  "expect. Back to real time (LIVE) and both agree."));
    connect(&m_service, &AmqpService::snapshotChanged, this, &ClockAppsNote::refresh);
    connect(&m_service, &AmqpService::statusChanged, this, &ClockAppsNote::refresh);
    refresh();
}

void ClockAppsNote::refresh() {
    const VirtualClock* clock = m_client.virtualClock();
    const int applications = int(m_service.snapshot().connections.size());
    const bool show = clock && !clock->isRealTime() && applications > 0;
    if (show) {
        const QString text =
            applications == 1
                ? tr("1 application sees engine time; its SDK renews locks on real time")
                : tr("%1 applications see engine time; their SDKs renew locks on real time")
                      .arg(applications);
        if (text != this->text())
            setText(text);
    }
    if (m_action)
        m_action->setVisible(show);
    else
        setVisible(show);
}

void ClockAppsNote::setToolBarAction(QAction* action) {
    m_action = action;
    refresh();
}

} // namespace hourglass::ui
