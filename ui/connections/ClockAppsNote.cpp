#include "connections/ClockAppsNote.h"

#include "common/BrokerClient.h"
#include "connections/AmqpService.h"

#include "hourglass/Clock.h"

#include <QAction>
#include <QLabel>
#include <QStyle>

namespace hourglass::ui {

ClockAppsNote::ClockAppsNote(AmqpService& service, BrokerClient& client, QToolBar& clockBar)
    : m_service(service)
    , m_client(client)
    , m_text(new QLabel(this)) {
    setObjectName(QStringLiteral("clockAppsBar"));
    setWindowTitle(tr("Applications and the clock"));
    setMovable(false);
    setFloatable(false);
    // Shown by the clock and the connections alone, not from the toolbars' menu.
    toggleViewAction()->setVisible(false);
    auto* icon = new QLabel(this);
    const int side = fontMetrics().height();
    icon->setPixmap(style()->standardIcon(QStyle::SP_MessageBoxInformation).pixmap(side, side));
    icon->setContentsMargins(6, 0, 4, 0);
    addWidget(icon);
    m_text->setObjectName(QStringLiteral("clockAppsNote"));
    m_text->setToolTip(
        tr("Applications connected over AMQP see the engine's time: enqueue times, lock "
           "expiries and scheduled times follow this clock. Their SDKs renew locks and time out "
           "on the real clock, so a lock may run out sooner or later than they expect. Back to "
           "real time (LIVE) and both agree."));
    addWidget(m_text);
    connect(&m_service, &AmqpService::snapshotChanged, this, &ClockAppsNote::refresh);
    connect(&m_service, &AmqpService::statusChanged, this, &ClockAppsNote::refresh);
    // The clock bar goes with its database's client: this row goes with it, at once (its
    // refresh reads that client).
    connect(&clockBar, &QObject::destroyed, this, [this] { delete this; });
    refresh();
}

void ClockAppsNote::refresh() {
    const VirtualClock* clock = m_client.virtualClock();
    const int applications = int(m_service.snapshot().connections.size());
    const bool show = clock && !clock->isRealTime() && applications > 0;
    if (show) {
        const QString text =
            applications == 1
                ? tr("1 application is connected: it sees engine time, while its SDK renews "
                     "locks on real time.")
                : tr("%1 applications are connected: they see engine time, while their SDKs "
                     "renew locks on real time.")
                      .arg(applications);
        if (text != m_text->text())
            m_text->setText(text);
    }
    setVisible(show);
}

} // namespace hourglass::ui
