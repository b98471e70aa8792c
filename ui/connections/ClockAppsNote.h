#pragma once
// A note on the clock toolbar while the engine's clock is not live (paused, sped up, ahead)
// and applications are connected over AMQP: they see engine time (enqueue times, lock expiries,
// scheduled times), but their SDKs renew locks and time out on the real clock, so a lock may
// run out sooner or later than the application expects. Hidden otherwise. Follows the
// service's snapshots (twice a second). Object name "clockAppsNote".

#include <QLabel>

class QAction;

namespace hourglass::ui {

class AmqpService;
class BrokerClient;

class ClockAppsNote : public QLabel {
    Q_OBJECT
public:
    ClockAppsNote(AmqpService& service, BrokerClient& client, QWidget* parent = nullptr);
    // On a toolbar the widget shows through its action (QToolBar::addWidget's): it is shown
    // and hidden through that.
    void setToolBarAction(QAction* action);
    void refresh();

private:
    QAction* m_action = nullptr;
    AmqpService& m_service;
    BrokerClient& m_client;
};

} // namespace hourglass::ui
