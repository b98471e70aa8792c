#pragma once
// Safety on real data: on a namespace the window does not host (Azure, the emulator, another
// machine's Hourglass), what cannot be undone names that namespace and asks first. On the
// window's own database the existing questions stay as they were and the rest goes at once.

#include <QString>

#include <functional>

class QWidget;

namespace hourglass::ui {

class BrokerClient;

// "On the remote namespace "Served" (contoso.servicebus.windows.net)." for a remote namespace;
// empty for the window's own database.
QString remoteNamespaceLine(const BrokerClient& client);

// Runs `go` at once on the window's own database. On a remote namespace it asks first, naming
// the namespace (a non-blocking question, "confirmRemote"): `question` says what will happen,
// `verb` is the button that does it; `go` runs on that button only.
void askOnRemote(const BrokerClient& client, QWidget* parent, const QString& question,
                 const QString& verb, std::function<void()> go);

} // namespace hourglass::ui
