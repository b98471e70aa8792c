#include "common/LockHolderText.h"

#include <QCoreApplication>

namespace hourglass::ui {

QString lockHolderText(const QString& holder) {
    static const QString prefix = QStringLiteral("amqp/");
    if (!holder.startsWith(prefix))
        return holder;
    const qsizetype slash = holder.indexOf(QLatin1Char('/'), prefix.size());
    if (slash < 0)
        return holder;
    const QString connection = holder.mid(prefix.size(), slash - prefix.size());
    const QString link = holder.mid(slash + 1);
    return QCoreApplication::translate("LockHolder", "AMQP link %1 (connection %2)")
        .arg(link, connection);
}

} // namespace hourglass::ui
