#pragma once
// The status-bar item of the AMQP endpoint: "AMQP localhost:5672 · 2 connections" (or off, or
// not serving, with the reason in its tooltip). A click copies the connection string, so an
// application can be pointed at the window in one paste. The count is the service's snapshot's,
// the one the Connections view shows.

#include <QToolButton>

namespace hourglass::ui {

class AmqpService;

class AmqpStatusItem : public QToolButton {
    Q_OBJECT
public:
    explicit AmqpStatusItem(AmqpService& service, QWidget* parent = nullptr);

signals:
    // What a click did, for the window's status line.
    void copied(const QString& text);

private:
    void refresh();
    void copyConnectionString();

    AmqpService& m_service;
};

} // namespace hourglass::ui
