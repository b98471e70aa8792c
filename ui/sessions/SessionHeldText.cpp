#include "sessions/SessionHeldText.h"

#include "common/LockHolderText.h"

#include <QCoreApplication>

namespace hourglass::ui {

namespace {
QString tr(const char* text) {
    return QCoreApplication::translate("SessionHeldText", text);
}
} // namespace

QString sessionHeldText(const QString& sessionId, const QString& holder) {
    if (holder.startsWith(QStringLiteral("amqp/")))
        return tr("Session %1 is held by %2, an application connected over AMQP: View > "
                  "Connections shows it, and closing its connection there frees the session.")
            .arg(sessionId, lockHolderText(holder));
    if (holder.isEmpty())
        return tr("Session %1 is held by another receiver; an application's hold shows in View > "
                  "Connections.")
            .arg(sessionId);
    return tr("Session %1 is held by %2: release it in Receive & settle, or wait for its lock "
              "to end.")
        .arg(sessionId, holder);
}

} // namespace hourglass::ui
