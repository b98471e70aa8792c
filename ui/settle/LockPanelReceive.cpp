// Receiving in the Receive & settle tab: the receiver's name remembered, receive-and-delete on a
// remote namespace asked first, then the receive itself (from the entity, or from the session the
// receiver holds). Split from LockPanel.cpp, which lays the panel out and settles.
#include "settle/LockPanel.h"

#include "common/BrokerClient.h"
#include "common/RemoteConfirm.h"
#include "hourglass/EntityPath.h"
#include "settle/HeldSessions.h"

#include <QComboBox>
#include <QPointer>
#include <QSpinBox>

namespace hourglass::ui {

QString LockPanel::rememberReceiver() {
    const QString name = m_receiver->currentText().trimmed();
    if (!name.isEmpty() && m_receiver->findText(name) < 0)
        m_receiver->addItem(name);
    if (!name.isEmpty())
        m_receiver->setCurrentIndex(m_receiver->findText(name));
    return name;
}

void LockPanel::receive() {
    if (m_path.isEmpty())
        return;
    if (ReceiveMode(m_mode->currentData().toInt()) != ReceiveMode::ReceiveAndDelete)
        return receiveNow();
    askOnRemote(m_client, this,
                tr("Receive and delete up to %n message(s) from %1: they leave the queue as they "
                   "are received.",
                   nullptr, m_count->value())
                    .arg(EntityPath::of(m_path).entity()),
                tr("Receive and delete"), [self = QPointer(this), path = m_path] {
                    if (self && self->m_path == path)
                        self->receiveNow();
                });
}

void LockPanel::receiveNow() {
    ReceiveOptions options;
    options.mode = ReceiveMode(m_mode->currentData().toInt());
    options.maxCount = m_count->value();
    options.receiver = rememberReceiver();
    const QString path = m_path;
    const quint64 generation = m_generation;
    if (m_requiresSession) {
        const auto session = m_sessions->heldBy(options.receiver);
        if (!session)
            return guideToSessions(options.receiver);
        m_client.call(
            this,
            [ref = *session, options](Broker& b) {
                return b.receiveFromSession(ref, options.mode, options.maxCount);
            },
            [this, path, options, generation](Result<QList<MessageView>> taken) {
                if (generation != m_generation)
                    return;
                if (!taken) {
                    if (taken.error().code == ErrorCode::SessionLockLost)
                        m_sessions->markLost(options.receiver, taken.error().description);
                    return showError(taken.error());
                }
                onReceived(path, options.receiver, options.mode, *taken);
            });
        return;
    }
    m_client.call(
        this, [path, options](Broker& b) { return b.receive(path, options); },
        [this, path, options, generation](Result<QList<MessageView>> taken) {
            if (generation != m_generation)
                return;
            if (!taken)
                return showError(taken.error());
            onReceived(path, options.receiver, options.mode, *taken);
        });
}

} // namespace hourglass::ui
