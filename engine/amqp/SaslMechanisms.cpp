#include "SaslMechanisms.h"

#include <proton/sasl.h>
#include <proton/sasl_plugin.h>

#include <cstring>

namespace hourglass::amqp {

namespace {

constexpr const char* kOffered = "MSSBCBS ANONYMOUS";

bool isOffered(const char* mechanism) {
    return mechanism &&
           (std::strcmp(mechanism, "MSSBCBS") == 0 || std::strcmp(mechanism, "ANONYMOUS") == 0);
}

void freeNothing(pn_transport_t*) {}
const char* listMechanisms(pn_transport_t*) {
    return kOffered;
}

bool initServer(pn_transport_t* transport) {
    pnx_sasl_set_desired_state(transport, SASL_POSTED_MECHANISMS);
    return true;
}

// Server only: a client-side call means a misuse, which fails that transport's SASL.
bool initClient(pn_transport_t*) {
    return false;
}
void prepareWrite(pn_transport_t*) {}

void processInit(pn_transport_t* transport, const char* mechanism, const pn_bytes_t*) {
    // The initial response (a user name for ANONYMOUS, nothing for MSSBCBS) carries no secret:
    // the claims come later through $cbs, where the token is verified.
    if (isOffered(mechanism))
        pnx_sasl_set_succeeded(transport, mechanism, nullptr);
    else
        pnx_sasl_set_failed(transport);
    pnx_sasl_set_desired_state(transport, SASL_POSTED_OUTCOME);
}

// Neither mechanism has challenges; a response to a challenge we never sent fails.
void processResponse(pn_transport_t* transport, const pn_bytes_t*) {
    pnx_sasl_set_failed(transport);
    pnx_sasl_set_desired_state(transport, SASL_POSTED_OUTCOME);
}

bool processMechanisms(pn_transport_t*, const char*) {
    return false;
}
void processChallenge(pn_transport_t*, const pn_bytes_t*) {}
void processOutcome(pn_transport_t*, const pn_bytes_t*) {}
bool canEncrypt(pn_transport_t*) {
    return false;
}
ssize_t maxEncryptSize(pn_transport_t*) {
    return 0;
}
ssize_t encodeNothing(pn_transport_t*, pn_bytes_t, pn_bytes_t*) {
    return 0;
}
ssize_t decodeNothing(pn_transport_t*, pn_bytes_t, pn_bytes_t*) {
    return 0;
}

const pnx_sasl_implementation kServiceBusSasl = {
    freeNothing, listMechanisms,  initServer,        initClient,       prepareWrite,
    processInit, processResponse, processMechanisms, processChallenge, processOutcome,
    canEncrypt,  maxEncryptSize,  encodeNothing,     decodeNothing,
};

} // namespace

void offerServiceBusSasl(pn_transport_t* transport) {
    pn_sasl_t* sasl = pn_sasl(transport); // creates the SASL layer the implementation hangs on
    pn_sasl_allowed_mechs(sasl, kOffered);
    pnx_sasl_set_implementation(transport, &kServiceBusSasl, nullptr);
}

} // namespace hourglass::amqp
