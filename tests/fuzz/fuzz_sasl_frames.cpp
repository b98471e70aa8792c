// The first bytes of an accepted connection, as the endpoint reads them: a server transport with
// the endpoint's SASL setup (SaslMechanisms offerServiceBusSasl, authentication not required, as
// EndpointLoop accepts), driven by Proton's connection driver instead of the proactor, so SASL
// headers and frames (sasl-init with any mechanism and initial response, sasl-response) reach
// our mechanism callbacks. The input arrives in chunks of varying size, as reads do.

#include "FuzzInput.h"
#include "SaslMechanisms.h"

#include <proton/connection.h>
#include <proton/connection_driver.h>
#include <proton/transport.h>

#include <algorithm>
#include <cstring>

using namespace hourglass;

namespace {
// Handles what the driver has to say and sends what it has to send, as the proactor would.
void drain(pn_connection_driver_t* driver) {
    while (pn_event_t* event = pn_connection_driver_next_event(driver)) {
        // A peer that opens gets an open back, so frames after SASL are read too.
        if (pn_event_type(event) == PN_CONNECTION_REMOTE_OPEN)
            pn_connection_open(driver->connection);
    }
    const pn_bytes_t out = pn_connection_driver_write_buffer(driver);
    if (out.size)
        pn_connection_driver_write_done(driver, out.size);
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    pn_transport_t* transport = pn_transport();
    pn_transport_set_server(transport);
    amqp::offerServiceBusSasl(transport);
    pn_transport_require_auth(transport, false);
    pn_transport_set_max_frame(transport, 64 * 1024);
    pn_connection_driver_t driver;
    if (pn_connection_driver_init(&driver, nullptr, transport) != 0)
        return 0;
    size_t offset = 0;
    // Chunk sizes from 1 to 64 bytes, cycling, so frames split anywhere.
    size_t chunk = 1;
    while (offset < size && !pn_connection_driver_finished(&driver)) {
        drain(&driver);
        const pn_rwbytes_t in = pn_connection_driver_read_buffer(&driver);
        if (!in.size)
            break;
        const size_t n = std::min({chunk, size - offset, in.size});
        std::memcpy(in.start, data + offset, n);
        pn_connection_driver_read_done(&driver, n);
        offset += n;
        chunk = chunk % 64 + 1;
    }
    drain(&driver);
    pn_connection_driver_read_close(&driver);
    drain(&driver);
    pn_connection_driver_destroy(&driver);
    return 0;
}
