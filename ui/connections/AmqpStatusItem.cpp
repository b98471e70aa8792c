#include "AmqpStatusItem.h"

#include "AmqpService.h"

#include <QApplication>
#include <QClipboard>

namespace hourglass::ui {

AmqpStatusItem::AmqpStatusItem(AmqpService& service, QWidget* parent)
    : QToolButton(parent)
    , m_service(service) {
    setObjectName(QStringLiteral("amqpStatus"));
    setAutoRaise(true);
    setToolButtonStyle(Qt::ToolButtonTextOnly);
    connect(this, &QToolButton::clicked, this, &AmqpStatusItem::copyConnectionString);
    connect(&m_service, &AmqpService::statusChanged, this, &AmqpStatusItem::refresh);
    connect(&m_service, &AmqpService::snapshotChanged, this, &AmqpStatusItem::refresh);
    refresh();
}

void AmqpStatusItem::refresh() {
    const QString text = m_service.statusText();
    if (text != this->text())
        setText(text);
    QString tip;
    if (const auto* endpoint = m_service.endpoint()) {
        tip = tr("Applications reach the default namespace '%1' with this connection string "
                 "(click to copy); every other namespace has its own (the tree's context menu, "
                 "Copy connection string):\n%2")
                  .arg(endpoint->defaultNamespace(), endpoint->connectionString());
        if (endpoint->tlsPort())
            tip += tr("\n\nOn the TLS port, for applications that trust the local certificate "
                      "authority (View > AMQP endpoint… shows how):\n%1")
                       .arg(endpoint->tlsConnectionString());
    } else if (!m_service.problem().isEmpty()) {
        tip = m_service.problem();
    } else {
        tip = tr("The AMQP endpoint is off (View > AMQP endpoint…).");
    }
    if (tip != toolTip())
        setToolTip(tip);
}

void AmqpStatusItem::copyConnectionString() {
    const auto* endpoint = m_service.endpoint();
    if (!endpoint) {
        emit copied(m_service.problem().isEmpty() ? tr("The AMQP endpoint is off.")
                                                  : m_service.problem());
        return;
    }
    QApplication::clipboard()->setText(endpoint->connectionString());
    emit copied(tr("Copied the connection string of namespace '%1': %2")
                    .arg(endpoint->defaultNamespace(), endpoint->connectionString()));
}

} // namespace hourglass::ui
