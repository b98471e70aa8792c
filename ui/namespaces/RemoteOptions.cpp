#include "namespaces/RemoteOptions.h"

namespace hourglass::ui {

remote::RemoteBrokerOptions remoteOptionsFor(const SavedNamespace& saved) {
    auto options = remote::RemoteBrokerOptions::forConnection(saved.connection);
    if (saved.admin)
        options.admin = remote::AdminClientOptions::forConnection(*saved.admin);
    options.admin.extraCaFile = saved.caFile;
    options.amqp.extraCaFile = saved.caFile;
    options.amqp.webSockets = saved.webSockets;
    options.readOnly = saved.readOnly;
    return options;
}

} // namespace hourglass::ui
