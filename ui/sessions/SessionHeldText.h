#pragma once
// Why the window cannot take a session another receiver holds, in the words an operator needs:
// who holds it (by the name View > Connections uses for an application's link) and where to
// look. A session an application holds over AMQP points to View > Connections, where its
// connection shows and can be closed.

#include <QString>

namespace hourglass::ui {

// "Session s1 is held by AMQP link orders-receiver (connection 3), an application connected
// over AMQP: View > Connections shows it, and closing its connection there frees the session."
// `holder`: the receiver as the broker records it (empty: not known).
QString sessionHeldText(const QString& sessionId, const QString& holder);

} // namespace hourglass::ui
