#pragma once
// What opening a saved namespace asks of the remote library: the saved connection, with its
// secret put back (SavedNamespace::withSecret), as RemoteBrokerOptions. One place, so that the
// window and its tests open a namespace the same way.

#include "hourglass/remote/RemoteBroker.h"
#include "namespaces/SavedNamespace.h"

namespace hourglass::ui {

// `saved` holds its secret. The administration-only string (Microsoft's emulator) gives the
// administration API its address and credential; the extra CA file is trusted by both planes.
remote::RemoteBrokerOptions remoteOptionsFor(const SavedNamespace& saved);

} // namespace hourglass::ui
