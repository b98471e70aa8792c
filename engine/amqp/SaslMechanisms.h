#pragma once

#include <proton/types.h>

namespace hourglass::amqp {

// The SASL layer of an accepted connection. Service Bus clients authenticate with put-token on
// $cbs, not with SASL, so SASL only has to let them through: the .NET SDK picks `MSSBCBS` from the
// offered mechanisms, the JS SDK `ANONYMOUS`; Debian's Proton offers only ANONYMOUS
// (amqp-endpoint.md), hence our own mechanism list. Any other mechanism fails the SASL exchange.
// Clients that skip SASL are let in by the caller (pn_transport_require_auth false). Call on the
// proactor's thread for a server transport before it is accepted.
void offerServiceBusSasl(pn_transport_t* transport);

} // namespace hourglass::amqp
