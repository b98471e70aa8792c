// amqp_load: the wire benchmark's load client, on Qpid Proton's C proactor, the same against
// every broker (Hourglass, RabbitMQ, Proton's example broker):
//   amqp_load [--host H] --port P --address A --mode send|receive|roundtrip [--messages N]
//             [--size BYTES] [--in-flight K] [--durable] [--sas-key KEY | --hourglass |
//             --cbs-token TOKEN] [--sasl-plain USER:PASSWORD] [--tls CA-FILE]
//   (--hourglass = --sas-key SAS_KEY_VALUE, the emulator's well-known key; without
//   --sasl-plain the client uses SASL ANONYMOUS)
//   amqp_load --port P --address A --mode hold --connections C [--seconds S] ...
// send: K unsettled transfers in flight, a message counted when the broker settles it accepted;
// receive: credit K, each message accepted; roundtrip: one at a time, send-to-accepted latency.
// With --sas-key it first puts a token signed with that key (key name
// RootManageSharedAccessKey, audience sb://localhost:P/ADDRESS) on $cbs, as the Azure SDKs do;
// --cbs-token puts the token given as is. --durable sets the terminus durable (RabbitMQ declares
// a durable queue only then) and the header durable=true. Prints one line:
//   send 12345 msg/s | receive 12345 msg/s | roundtrip p50 0.41 ms p99 1.20 ms
// hold: C connections at once, each sending one message every 100 ms for S seconds; prints
//   hold 200 connections 200 up 19876 accepted 1987 msg/s

#include "hourglass/amqpcodec/SasToken.h"

#include <QDateTime>

#include <proton/codec.h>
#include <proton/condition.h>
#include <proton/connection.h>
#include <proton/delivery.h>
#include <proton/event.h>
#include <proton/link.h>
#include <proton/message.h>
#include <proton/proactor.h>
#include <proton/sasl.h>
#include <proton/session.h>
#include <proton/ssl.h>
#include <proton/terminus.h>
#include <proton/transport.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

struct Options {
    std::string host = "127.0.0.1";
    std::string port;
    std::string address;
    std::string mode = "send";
    long messages = 20000;
    int size = 1024;
    int inFlight = 100;
    bool durable = false;
    std::string hourglassKey; // non-empty: put-token first, a token signed with this key
    std::string cbsToken;     // non-empty: put-token first, this token as is
    std::string saslUser;     // non-empty: SASL PLAIN with saslUser/saslPassword
    std::string saslPassword;
    std::string tlsCaFile; // non-empty: TLS, trusting this authority, the peer named localhost
    bool badSasl = false;
    bool needsToken() const { return !hourglassKey.empty() || !cbsToken.empty(); }
    int connections = 1; // hold mode
    int seconds = 10;    // hold mode
};

struct Load {
    Options options;
    pn_proactor_t* proactor = nullptr;
    pn_connection_t* connection = nullptr;
    pn_session_t* session = nullptr;
    pn_link_t* link = nullptr; // the measured link
    pn_link_t* cbsSender = nullptr;
    pn_link_t* cbsReceiver = nullptr;
    bool tokenSent = false;
    pn_message_t* message = nullptr;
    pn_rwbytes_t buffer{0, nullptr};
    long sent = 0;
    long settled = 0;
    long received = 0;
    Clock::time_point started;
    std::vector<Clock::time_point> sentAt;
    std::vector<double> latenciesMs;
    std::string failure;
    bool done = false;
    bool closedSeen = false; // hold mode: the transport has closed
};

bool fail(Load& load, const std::string& why) {
    load.failure = why;
    pn_connection_close(load.connection);
    return false;
}

void openMeasuredLink(Load& load) {
    const bool sending = load.options.mode != "receive";
    load.link = sending ? pn_sender(load.session, "load-sender")
                        : pn_receiver(load.session, "load-receiver");
    pn_terminus_t* remote = sending ? pn_link_target(load.link) : pn_link_source(load.link);
    pn_terminus_set_address(remote, load.options.address.c_str());
    if (load.options.durable)
        pn_terminus_set_durability(remote, PN_DELIVERIES);
    pn_link_set_snd_settle_mode(load.link, PN_SND_UNSETTLED);
    pn_link_set_rcv_settle_mode(load.link, PN_RCV_FIRST);
    pn_link_open(load.link);
    if (!sending)
        pn_link_flow(load.link, load.options.inFlight);
    load.started = Clock::now();
}

void sendPutToken(Load& load) {
    const std::string audience = "sb://localhost:" + load.options.port + "/" + load.options.address;
    const hourglass::amqp::SasKey key{QStringLiteral("RootManageSharedAccessKey"),
                                      QString::fromStdString(load.options.hourglassKey)};
    const QByteArray token =
        !load.options.cbsToken.empty()
            ? QByteArray::fromStdString(load.options.cbsToken)
            : hourglass::amqp::makeSasToken(QString::fromStdString(audience), key,
                                            QDateTime::currentSecsSinceEpoch() + 3600)
                  .toUtf8();
    pn_message_t* request = pn_message();
    pn_data_t* id = pn_message_id(request);
    pn_data_put_ulong(id, 1);
    pn_message_set_reply_to(request, "cbs-reply");
    pn_data_t* properties = pn_message_properties(request);
    pn_data_put_map(properties);
    pn_data_enter(properties);
    const auto put = [properties](const char* name, const std::string& value) {
        pn_data_put_string(properties, pn_bytes(strlen(name), name));
        pn_data_put_string(properties, pn_bytes(value.size(), value.data()));
    };
    put("operation", "put-token");
    put("type", "servicebus.windows.net:sastoken");
    put("name", audience);
    pn_data_exit(properties);
    pn_data_put_string(pn_message_body(request), pn_bytes(size_t(token.size()), token.constData()));
    pn_delivery(load.cbsSender, pn_dtag("t", 1));
    pn_rwbytes_t buffer{0, nullptr};
    pn_message_send(request, load.cbsSender, &buffer);
    std::free(buffer.start);
    pn_message_free(request);
    load.tokenSent = true;
}

void pumpSends(Load& load) {
    const long window = load.options.mode == "roundtrip" ? 1 : load.options.inFlight;
    while (load.sent < load.options.messages && load.sent - load.settled < window &&
           pn_link_credit(load.link) > 0) {
        const long number = load.sent++;
        pn_delivery(load.link, pn_dtag(reinterpret_cast<const char*>(&number), sizeof number));
        if (load.options.mode == "roundtrip")
            load.sentAt[size_t(number)] = Clock::now();
        if (pn_message_send(load.message, load.link, &load.buffer) < 0) {
            fail(load, "pn_message_send failed");
            return;
        }
    }
}

void finish(Load& load) {
    load.done = true;
    pn_connection_close(load.connection);
}

void onDelivery(Load& load, pn_delivery_t* delivery) {
    pn_link_t* link = pn_delivery_link(delivery);
    if (link == load.cbsReceiver) {
        std::vector<char> bytes(pn_delivery_pending(delivery));
        pn_link_recv(link, bytes.data(), bytes.size());
        pn_link_advance(link);
        pn_message_t* reply = pn_message();
        pn_message_decode(reply, bytes.data(), bytes.size());
        pn_data_t* properties = pn_message_properties(reply);
        pn_data_rewind(properties);
        int status = 0;
        if (pn_data_next(properties) && pn_data_type(properties) == PN_MAP) {
            const size_t count = pn_data_get_map(properties);
            pn_data_enter(properties);
            for (size_t i = 0; i + 1 < count; i += 2) {
                pn_data_next(properties);
                const pn_bytes_t name = pn_data_get_string(properties);
                pn_data_next(properties);
                if (std::string(name.start, name.size) == "status-code")
                    status = pn_data_get_int(properties);
            }
        }
        pn_message_free(reply);
        pn_delivery_update(delivery, PN_ACCEPTED);
        pn_delivery_settle(delivery);
        if (status != 200) {
            fail(load, "put-token answered " + std::to_string(status));
            return;
        }
        openMeasuredLink(load);
        return;
    }
    if (link == load.cbsSender) {
        pn_delivery_settle(delivery);
        return;
    }
    if (pn_link_is_sender(link)) {
        if (!pn_delivery_remote_state(delivery) && !pn_delivery_settled(delivery))
            return;
        if (pn_delivery_remote_state(delivery) != PN_ACCEPTED) {
            fail(load, std::string("a send was not accepted: ") +
                           pn_disposition_type_name(pn_delivery_remote_state(delivery)));
            return;
        }
        if (load.options.mode == "hold") {
            ++load.settled;
            return;
        }
        if (load.options.mode == "roundtrip") {
            long number = 0;
            const pn_delivery_tag_t tag = pn_delivery_tag(delivery);
            std::memcpy(&number, tag.start, std::min(tag.size, sizeof number));
            load.latenciesMs.push_back(std::chrono::duration<double, std::milli>(
                                           Clock::now() - load.sentAt[size_t(number)])
                                           .count());
        }
        pn_delivery_settle(delivery);
        if (++load.settled == load.options.messages)
            finish(load);
        else
            pumpSends(load);
        return;
    }
    if (!pn_delivery_readable(delivery) || pn_delivery_partial(delivery))
        return;
    std::vector<char> bytes(pn_delivery_pending(delivery));
    pn_link_recv(link, bytes.data(), bytes.size());
    pn_link_advance(link);
    pn_delivery_update(delivery, PN_ACCEPTED);
    pn_delivery_settle(delivery);
    if (++load.received == load.options.messages) {
        finish(load);
        return;
    }
    pn_link_flow(link, 1);
}

void handle(Load& load, pn_event_t* event) {
    switch (pn_event_type(event)) {
    case PN_CONNECTION_INIT: {
        pn_connection_set_container(load.connection, "amqp_load");
        pn_connection_open(load.connection);
        load.session = pn_session(load.connection);
        pn_session_open(load.session);
        if (!load.options.needsToken()) {
            openMeasuredLink(load);
        } else {
            load.cbsSender = pn_sender(load.session, "cbs-request");
            pn_terminus_set_address(pn_link_target(load.cbsSender), "$cbs");
            pn_link_open(load.cbsSender);
            load.cbsReceiver = pn_receiver(load.session, "cbs-reply");
            pn_terminus_set_address(pn_link_source(load.cbsReceiver), "$cbs");
            pn_terminus_set_address(pn_link_target(load.cbsReceiver), "cbs-reply");
            pn_link_open(load.cbsReceiver);
            pn_link_flow(load.cbsReceiver, 1);
        }
        break;
    }
    case PN_LINK_FLOW: {
        pn_link_t* link = pn_event_link(event);
        if (link == load.cbsSender && !load.tokenSent && pn_link_credit(link) > 0)
            sendPutToken(load);
        else if (link == load.link && pn_link_is_sender(link) && load.options.mode != "hold")
            pumpSends(load);
        break;
    }
    case PN_DELIVERY:
        onDelivery(load, pn_event_delivery(event));
        break;
    case PN_CONNECTION_WAKE:
        // hold mode's tick: one message, if the link is up and the last one was settled.
        if (load.done) {
            pn_connection_close(load.connection);
        } else if (load.link && pn_link_credit(load.link) > 0 && load.sent == load.settled) {
            const long number = load.sent++;
            pn_delivery(load.link, pn_dtag(reinterpret_cast<const char*>(&number), sizeof number));
            pn_message_send(load.message, load.link, &load.buffer);
        }
        break;
    case PN_LINK_REMOTE_CLOSE: {
        pn_condition_t* condition = pn_link_remote_condition(pn_event_link(event));
        if (pn_condition_is_set(condition))
            fail(load, std::string("link closed: ") + pn_condition_get_name(condition) + " " +
                           (pn_condition_get_description(condition)
                                ? pn_condition_get_description(condition)
                                : ""));
        break;
    }
    case PN_TRANSPORT_CLOSED: {
        pn_condition_t* condition = pn_transport_condition(pn_event_transport(event));
        if (!load.done && load.failure.empty())
            load.failure =
                std::string("connection closed: ") +
                (pn_condition_is_set(condition) && pn_condition_get_description(condition)
                     ? pn_condition_get_description(condition)
                     : "");
        break;
    }
    default:
        break;
    }
}

bool parse(int argc, char** argv, Options& options) {
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        const auto value = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
        if (arg == "--host")
            options.host = value();
        else if (arg == "--port")
            options.port = value();
        else if (arg == "--address")
            options.address = value();
        else if (arg == "--mode")
            options.mode = value();
        else if (arg == "--messages")
            options.messages = std::atol(value().c_str());
        else if (arg == "--size")
            options.size = std::atoi(value().c_str());
        else if (arg == "--in-flight")
            options.inFlight = std::atoi(value().c_str());
        else if (arg == "--durable")
            options.durable = true;
        else if (arg == "--sas-key")
            options.hourglassKey = value();
        else if (arg == "--hourglass") // the emulator's well-known key, SAS_KEY_VALUE
            options.hourglassKey = "SAS_KEY_VALUE";
        else if (arg == "--cbs-token")
            options.cbsToken = value();
        else if (arg == "--sasl-plain") {
            const std::string userAndPassword = value();
            const size_t colon = userAndPassword.find(':');
            if (colon == std::string::npos) {
                options.badSasl = true;
            } else {
                options.saslUser = userAndPassword.substr(0, colon);
                options.saslPassword = userAndPassword.substr(colon + 1);
            }
        } else if (arg == "--tls")
            options.tlsCaFile = value();
        else if (arg == "--connections")
            options.connections = std::atoi(value().c_str());
        else if (arg == "--seconds")
            options.seconds = std::atoi(value().c_str());
        else
            return false;
    }
    return !options.port.empty() && !options.address.empty() && options.messages > 0 &&
           !options.badSasl && options.size >= 0 && options.inFlight > 0 &&
           options.connections > 0 && options.seconds > 0 &&
           (options.mode == "send" || options.mode == "receive" || options.mode == "roundtrip" ||
            options.mode == "hold");
}

} // namespace

void prepareMessage(Load& load) {
    load.message = pn_message();
    pn_message_set_durable(load.message, load.options.durable);
    pn_message_set_inferred(load.message, true);
    const std::string body(size_t(load.options.size), 'x');
    pn_data_put_binary(pn_message_body(load.message), pn_bytes(body.size(), body.data()));
}

void connect(Load& load, pn_proactor_t* proactor) {
    load.proactor = proactor;
    load.connection = pn_connection();
    pn_connection_set_context(load.connection, &load);
    pn_transport_t* transport = pn_transport();
    if (load.options.saslUser.empty()) {
        pn_sasl_allowed_mechs(pn_sasl(transport), "ANONYMOUS");
    } else {
        pn_connection_set_user(load.connection, load.options.saslUser.c_str());
        pn_connection_set_password(load.connection, load.options.saslPassword.c_str());
        pn_sasl_allowed_mechs(pn_sasl(transport), "PLAIN");
        pn_sasl_set_allow_insecure_mechs(pn_sasl(transport), true); // loopback, no TLS
    }
    if (!load.options.tlsCaFile.empty()) {
        // One client domain for every connection of the run: it holds the trusted authority.
        static pn_ssl_domain_t* domain = [&] {
            pn_ssl_domain_t* made = pn_ssl_domain(PN_SSL_MODE_CLIENT);
            pn_ssl_domain_set_trusted_ca_db(made, load.options.tlsCaFile.c_str());
            pn_ssl_domain_set_peer_authentication(made, PN_SSL_VERIFY_PEER_NAME, nullptr);
            return made;
        }();
        pn_ssl_t* ssl = pn_ssl(transport);
        pn_ssl_init(ssl, domain, nullptr);
        pn_ssl_set_peer_hostname(ssl, "localhost");
    }
    char address[PN_MAX_ADDR];
    pn_proactor_addr(address, sizeof address, load.options.host.c_str(), load.options.port.c_str());
    pn_proactor_connect2(proactor, load.connection, transport, address);
}

// C connections at once, each sending one message every 100 ms for S seconds.
int hold(const Options& options) {
    pn_proactor_t* proactor = pn_proactor();
    std::vector<std::unique_ptr<Load>> loads;
    for (int i = 0; i < options.connections; ++i) {
        auto load = std::make_unique<Load>();
        load->options = options;
        prepareMessage(*load);
        connect(*load, proactor);
        loads.push_back(std::move(load));
    }
    const auto started = Clock::now();
    const auto ends = started + std::chrono::seconds(options.seconds);
    pn_proactor_set_timeout(proactor, 100);
    bool running = true;
    bool closing = false;
    while (running) {
        pn_event_batch_t* events = pn_proactor_wait(proactor);
        while (pn_event_t* event = pn_event_batch_next(events)) {
            if (pn_event_type(event) == PN_PROACTOR_INACTIVE) {
                running = false;
            } else if (pn_event_type(event) == PN_PROACTOR_TIMEOUT) {
                closing = Clock::now() >= ends;
                for (auto& load : loads) {
                    if (closing && load->failure.empty())
                        load->done = true;
                    if (load->connection && !load->closedSeen)
                        pn_connection_wake(load->connection);
                }
                if (!closing)
                    pn_proactor_set_timeout(proactor, 100);
            } else if (pn_connection_t* connection = pn_event_connection(event)) {
                auto* load = static_cast<Load*>(pn_connection_get_context(connection));
                if (pn_event_type(event) == PN_TRANSPORT_CLOSED) {
                    load->closedSeen = true;
                    if (!load->done && load->failure.empty())
                        load->failure = "closed early";
                }
                handle(*load, event);
            }
        }
        pn_proactor_done(proactor, events);
    }
    const double seconds = std::chrono::duration<double>(Clock::now() - started).count();
    long accepted = 0;
    int up = 0;
    for (const auto& load : loads) {
        accepted += load->settled;
        up += load->failure.empty() ? 1 : 0;
        pn_message_free(load->message);
        std::free(load->buffer.start);
    }
    pn_proactor_free(proactor);
    std::printf("hold %d connections %d up %ld accepted %.0f msg/s\n", options.connections, up,
                accepted, double(accepted) / seconds);
    return up == options.connections ? 0 : 1;
}

int main(int argc, char** argv) {
    Load load;
    if (!parse(argc, argv, load.options)) {
        std::fprintf(stderr,
                     "usage: amqp_load --port P --address A --mode "
                     "send|receive|roundtrip|hold [--host H] [--messages N] [--size BYTES] "
                     "[--in-flight K] [--durable] [--hourglass | --sas-key KEY | --cbs-token "
                     "TOKEN] [--sasl-plain USER:PASSWORD] [--tls CA-FILE] [--connections C] "
                     "[--seconds S]\n");
        return 2;
    }
    if (load.options.mode == "hold")
        return hold(load.options);
    prepareMessage(load);
    load.sentAt.resize(size_t(load.options.messages));
    connect(load, pn_proactor());

    bool running = true;
    while (running) {
        pn_event_batch_t* events = pn_proactor_wait(load.proactor);
        while (pn_event_t* event = pn_event_batch_next(events)) {
            handle(load, event);
            if (pn_event_type(event) == PN_PROACTOR_INACTIVE)
                running = false;
        }
        pn_proactor_done(load.proactor, events);
    }
    const double seconds = std::chrono::duration<double>(Clock::now() - load.started).count();
    pn_proactor_free(load.proactor);
    pn_message_free(load.message);
    std::free(load.buffer.start);
    if (!load.done) {
        std::fprintf(stderr, "amqp_load: %s\n",
                     load.failure.empty() ? "stopped early" : load.failure.c_str());
        return 1;
    }
    if (load.options.mode == "roundtrip") {
        std::vector<double>& l = load.latenciesMs;
        std::sort(l.begin(), l.end());
        std::printf("roundtrip p50 %.2f ms p99 %.2f ms\n", l[l.size() / 2],
                    l[std::min(l.size() - 1, l.size() * 99 / 100)]);
    } else {
        std::printf("%s %.0f msg/s\n", load.options.mode.c_str(),
                    double(load.options.messages) / seconds);
    }
    return 0;
}
