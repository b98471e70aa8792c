#pragma once
// A row under the clock toolbar while the engine's clock is not live (paused, sped up, ahead)
// and applications are connected over AMQP: they see engine time (enqueue times, lock expiries,
// scheduled times), but their SDKs renew locks and time out on the real clock, so a lock may run
// out sooner or later than the application expects. Hidden otherwise (a hidden toolbar takes no
// room, so a 1024-pixel window keeps its clock bar whole). Follows the service's snapshots
// (twice a second). Object names: "clockAppsBar", its text "clockAppsNote".

#include <QToolBar>

class QLabel;

namespace hourglass::ui {

class AmqpService;
class BrokerClient;

class ClockAppsNote : public QToolBar {
    Q_OBJECT
public:
    // Goes with `clockBar` (the window makes a new one per database, with its client).
    ClockAppsNote(AmqpService& service, BrokerClient& client, QToolBar& clockBar);
    void refresh();

private:
    AmqpService& m_service;
    BrokerClient& m_client;
    QLabel* m_text;
};

} // namespace hourglass::ui
