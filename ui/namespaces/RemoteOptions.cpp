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
    // Checked when the user wrote them; a text edited by hand that no longer reads adds nothing.
    if (const auto named = remote::parseNamedEntities(saved.namedEntities))
        options.namedEntities += *named;
    return options;
}

} // namespace hourglass::ui
