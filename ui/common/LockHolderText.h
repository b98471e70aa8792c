#pragma once
// How the explorer names a lock's holder. Receivers named in the window show as named ("alice");
// a lock taken over the AMQP endpoint is recorded as "amqp/<connection id>/<link name>" and shows
// as "AMQP link <link name> (connection <id>)", the names View > Connections uses.

#include <QString>

namespace hourglass::ui {

QString lockHolderText(const QString& holder);

} // namespace hourglass::ui
