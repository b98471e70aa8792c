// Writes the AMQP seeds of the committed corpus (corpus/<target>/, README.md here) with the
// project's own encoders and Proton's, as the SDKs would send them: values of every type,
// messages with each kind of body, a batch, stored wire extras, management requests, rule
// descriptions, and the bytes a client sends when it connects (with SASL ANONYMOUS, with PLAIN,
// and without SASL). The SQL, scenario and config seeds are hand-written files.
//
// Usage: make_fuzz_seeds CORPUS_DIR (it writes CORPUS_DIR/<target>/<name>).

#include "hourglass/amqpcodec/AmqpValue.h"
#include "hourglass/amqpcodec/MessageCodec.h"
#include "hourglass/amqpcodec/WireExtras.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QUuid>

#include <proton/connection.h>
#include <proton/connection_driver.h>
#include <proton/message.h>
#include <proton/sasl.h>
#include <proton/transport.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

using namespace hourglass;
using namespace hourglass::amqp;

namespace {
QString g_root;

void write(const char* target, const char* name, const QByteArray& bytes) {
    QDir().mkpath(g_root + QLatin1Char('/') + QLatin1String(target));
    QFile file(g_root + QLatin1Char('/') + QLatin1String(target) + QLatin1Char('/') +
               QLatin1String(name));
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size()) {
        std::fprintf(stderr, "cannot write %s/%s\n", target, name);
        std::exit(1);
    }
}

QByteArray encodeValue(const QVariant& value) {
    pn_data_t* data = pn_data(16);
    writeAmqpValue(data, value);
    char buffer[4096];
    const ssize_t size = pn_data_encode(data, buffer, sizeof buffer);
    pn_data_free(data);
    return QByteArray(buffer, qsizetype(size));
}

QByteArray encode(pn_message_t* message) {
    pn_rwbytes_t buffer{0, nullptr};
    const ssize_t size = pn_message_encode2(message, &buffer);
    const QByteArray bytes(buffer.start, qsizetype(size));
    std::free(buffer.start);
    pn_message_free(message);
    return bytes;
}

void putString(pn_data_t* data, const char* text) {
    pn_data_put_string(data, pn_bytes(std::strlen(text), text));
}
void putSymbol(pn_data_t* data, const char* text) {
    pn_data_put_symbol(data, pn_bytes(std::strlen(text), text));
}

// Every type the engine carries, nested.
QVariant everyType() {
    QVariantMap map;
    map.insert(QStringLiteral("string"), QStringLiteral("text"));
    map.insert(QStringLiteral("int"), 7);
    map.insert(QStringLiteral("long"), qlonglong(-1) << 40);
    map.insert(QStringLiteral("ulong"), qulonglong(1) << 63);
    map.insert(QStringLiteral("double"), 2.5);
    map.insert(QStringLiteral("float"), 1.5f);
    map.insert(QStringLiteral("bool"), true);
    map.insert(QStringLiteral("null"), QVariant::fromValue(nullptr));
    map.insert(QStringLiteral("binary"), QByteArray("\x00\x01\xff", 3));
    map.insert(QStringLiteral("uuid"),
               QUuid(QStringLiteral("{00112233-4455-6677-8899-aabbccddeeff}")));
    map.insert(QStringLiteral("timestamp"), QDateTime::fromMSecsSinceEpoch(1700000000000, Qt::UTC));
    map.insert(QStringLiteral("symbol"), QVariant::fromValue(AmqpSymbol{"sym"}));
    map.insert(QStringLiteral("list"), QVariantList{1, QStringLiteral("two"), QVariantList{3}});
    map.insert(QStringLiteral("array"), QVariant::fromValue(AmqpArray{{1, 2, 3}, PN_INT}));
    map.insert(QStringLiteral("described"),
               QVariant::fromValue(AmqpDescribed{0x1370000006, {QStringLiteral("a = 1"), 20}}));
    return map;
}

void values() {
    write("fuzz_amqp_value", "every-type-map", encodeValue(everyType()));
    write("fuzz_amqp_value", "list", encodeValue(QVariantList{1, 2.5, QStringLiteral("x")}));
    write("fuzz_amqp_value", "string", encodeValue(QStringLiteral("hello")));
    write("fuzz_amqp_value", "array-of-strings",
          encodeValue(QVariant::fromValue(AmqpArray{{QStringLiteral("a"), QStringLiteral("b")}})));
}

// A message as the SDKs send one: properties, header, annotations, application properties.
pn_message_t* fullMessage() {
    pn_message_t* message = pn_message();
    putString(pn_message_id(message), "order-7");
    pn_data_put_ulong(pn_message_correlation_id(message), 77);
    pn_message_set_address(message, "orders");
    pn_message_set_subject(message, "invoice");
    pn_message_set_reply_to(message, "replies");
    pn_message_set_content_type(message, "application/json");
    pn_message_set_group_id(message, "session-1");
    pn_message_set_reply_to_group_id(message, "session-2");
    pn_message_set_ttl(message, 60000);
    pn_message_set_priority(message, 7);
    pn_message_set_user_id(message, pn_bytes(5, "alice"));
    pn_data_t* annotations = pn_message_annotations(message);
    pn_data_put_map(annotations);
    pn_data_enter(annotations);
    putSymbol(annotations, "x-opt-partition-key");
    putString(annotations, "p1");
    putSymbol(annotations, "x-opt-scheduled-enqueue-time");
    pn_data_put_timestamp(annotations, 1700000000000);
    pn_data_exit(annotations);
    pn_data_t* properties = pn_message_properties(message);
    pn_data_put_map(properties);
    pn_data_enter(properties);
    putString(properties, "color");
    putString(properties, "red");
    putString(properties, "count");
    pn_data_put_int(properties, 250);
    putString(properties, "when");
    pn_data_put_timestamp(properties, 1700000000000);
    pn_data_exit(properties);
    return message;
}

QByteArray dataMessage(const char* body) {
    pn_message_t* message = fullMessage();
    pn_message_set_inferred(message, true);
    pn_data_put_binary(pn_message_body(message), pn_bytes(std::strlen(body), body));
    return encode(message);
}

void messages() {
    write("fuzz_amqp_message", "data-body", dataMessage("{\"order\": 7}"));
    pn_message_t* value = fullMessage();
    pn_data_t* body = pn_message_body(value);
    pn_data_put_map(body);
    pn_data_enter(body);
    putString(body, "order");
    pn_data_put_int(body, 7);
    pn_data_exit(body);
    write("fuzz_amqp_message", "value-body", encode(value));
    pn_message_t* sequence = fullMessage();
    pn_message_set_inferred(sequence, true);
    body = pn_message_body(sequence);
    pn_data_put_list(body);
    pn_data_enter(body);
    pn_data_put_int(body, 1);
    putString(body, "two");
    pn_data_exit(body);
    write("fuzz_amqp_message", "sequence-body", encode(sequence));
    pn_message_t* plain = pn_message();
    putString(pn_message_body(plain), "text");
    write("fuzz_amqp_message", "minimal", encode(plain));

    // A stored message as encodeMessage hands it to a receiver, with a sender's extras.
    MessageView view;
    view.entityPath = QStringLiteral("orders");
    view.sequenceNumber = 9;
    view.messageId = QStringLiteral("m-9");
    view.body = "body";
    view.hasBody = true;
    view.locked = true;
    view.lockedUntil = 1700000060000;
    WireExtras extras;
    extras.priority = 9;
    extras.contentEncoding = "gzip";
    extras.annotations = encodeValue(QVariantMap{{QStringLiteral("x-app"), 1}});
    view.wireExtras = encodeWireExtras(extras);
    write("fuzz_amqp_message", "delivered", encodeMessage(view, Handover::Delivery));
}

QByteArray dataSection(const QByteArray& payload) {
    pn_data_t* data = pn_data(4);
    pn_data_put_described(data);
    pn_data_enter(data);
    pn_data_put_ulong(data, 0x75);
    pn_data_put_binary(data, pn_bytes(size_t(payload.size()), payload.constData()));
    pn_data_exit(data);
    char bytes[4096];
    const ssize_t size = pn_data_encode(data, bytes, sizeof bytes);
    pn_data_free(data);
    return QByteArray(bytes, qsizetype(size));
}

void batches() {
    // The envelope's own header and properties, then one data section per message.
    pn_message_t* envelope = pn_message();
    pn_message_set_durable(envelope, true);
    const QByteArray head = encode(envelope);
    write("fuzz_batch_envelope", "two-messages",
          head + dataSection(dataMessage("one")) + dataSection(dataMessage("two")));
    write("fuzz_batch_envelope", "one-message", dataSection(dataMessage("one")));
}

void wireExtras() {
    WireExtras extras;
    extras.durable = false;
    extras.priority = 9;
    extras.userId = "alice";
    extras.contentEncoding = "gzip";
    extras.groupSequence = 3;
    extras.typedMessageId =
        encodeValue(QUuid(QStringLiteral("{00112233-4455-6677-8899-aabbccddeeff}")));
    extras.typedCorrelationId = encodeValue(qulonglong(77));
    extras.annotations = encodeValue(QVariantMap{{QStringLiteral("x-opt-partition-key"), 1}});
    extras.bodySections = QByteArray::fromHex("005377a10568656c6c6f"); // amqp-value "hello"
    extras.footer = QByteArray::fromHex("005378c10100");               // an empty footer map
    write("fuzz_wire_extras", "every-field", encodeWireExtras(extras));
    WireExtras sequence;
    sequence.bodySections = QByteArray::fromHex("005376c0030154010154"); // amqp-sequence [1]
    write("fuzz_wire_extras", "sequence-body", encodeWireExtras(sequence));
    write("fuzz_wire_extras", "annotation-map", extras.annotations);
}

QByteArray request(const char* operation, const QVariant& body, bool uuidId) {
    pn_message_t* message = pn_message();
    if (uuidId)
        writeAmqpValue(pn_message_id(message),
                       QUuid(QStringLiteral("{00112233-4455-6677-8899-aabbccddeeff}")));
    else
        putString(pn_message_id(message), "request-1");
    pn_message_set_reply_to(message, "client-link");
    QVariantMap properties{{QStringLiteral("operation"), QString::fromLatin1(operation)}};
    if (std::strcmp(operation, "put-token") == 0) {
        properties.insert(QStringLiteral("name"), QStringLiteral("sb://localhost/orders"));
        properties.insert(QStringLiteral("type"),
                          QStringLiteral("servicebus.windows.net:sastoken"));
    }
    writeAmqpValue(pn_message_properties(message), properties);
    writeAmqpValue(pn_message_body(message), body);
    return encode(message);
}

QVariantMap sqlRuleDescription() {
    return {{QStringLiteral("sql-filter"),
             QVariantMap{
                 {QStringLiteral("expression"), QStringLiteral("color = 'red' AND count > 10")}}},
            {QStringLiteral("sql-rule-action"),
             QVariantMap{{QStringLiteral("expression"), QStringLiteral("SET level = 'high'")}}}};
}

QVariantMap correlationRuleDescription() {
    return {
        {QStringLiteral("correlation-filter"),
         QVariantMap{{QStringLiteral("correlation-id"), QStringLiteral("c-1")},
                     {QStringLiteral("label"), QStringLiteral("invoice")},
                     {QStringLiteral("properties"), QVariantMap{{QStringLiteral("count"), 250}}}}}};
}

void management() {
    write("fuzz_management_request", "put-token",
          request("put-token",
                  QStringLiteral(
                      "SharedAccessSignature sr=sb%3A%2F%2Flocalhost%2Forders&sig=x&se=1&skn=k"),
                  false));
    write("fuzz_management_request", "peek-message",
          request("com.microsoft:peek-message",
                  QVariantMap{{QStringLiteral("from-sequence-number"), qlonglong(1)},
                              {QStringLiteral("message-count"), 10}},
                  true));
    write("fuzz_management_request", "add-rule",
          request("com.microsoft:add-rule",
                  QVariantMap{{QStringLiteral("rule-name"), QStringLiteral("r")},
                              {QStringLiteral("rule-description"), sqlRuleDescription()}},
                  false));
    write("fuzz_rule_description", "sql-filter-and-action", encodeValue(sqlRuleDescription()));
    write("fuzz_rule_description", "correlation-filter", encodeValue(correlationRuleDescription()));
    write("fuzz_rule_description", "true-filter",
          encodeValue(
              QVariantMap{{QStringLiteral("sql-filter"),
                           QVariantMap{{QStringLiteral("expression"), QStringLiteral("1=1")}}}}));
}

// What a client writes when it connects and opens a connection, talking to a Proton server, so
// that the server's replies lead it through the exchange. `mechanism` empty: no SASL.
QByteArray clientBytes(const char* mechanism) {
    pn_connection_driver_t client;
    pn_connection_driver_t server;
    pn_connection_driver_init(&client, nullptr, nullptr);
    pn_connection_driver_init(&server, nullptr, nullptr);
    pn_transport_set_server(server.transport);
    pn_transport_require_auth(server.transport, false);
    if (*mechanism) {
        pn_sasl_t* sasl = pn_sasl(client.transport);
        pn_sasl_allowed_mechs(sasl, mechanism);
        pn_sasl_set_allow_insecure_mechs(sasl, true);
        pn_connection_set_user(client.connection, "user");
        pn_connection_set_password(client.connection, "secret");
        pn_sasl_t* serverSasl = pn_sasl(server.transport);
        pn_sasl_allowed_mechs(serverSasl, "ANONYMOUS PLAIN");
        pn_sasl_set_allow_insecure_mechs(serverSasl, true);
    }
    pn_connection_set_container(client.connection, "client");
    pn_connection_open(client.connection);
    QByteArray written;
    for (int round = 0; round < 20; ++round) {
        for (auto* driver : {&client, &server})
            while (pn_event_t* event = pn_connection_driver_next_event(driver))
                if (driver == &server && pn_event_type(event) == PN_CONNECTION_REMOTE_OPEN)
                    pn_connection_open(server.connection);
        const pn_bytes_t out = pn_connection_driver_write_buffer(&client);
        if (out.size) {
            const pn_rwbytes_t in = pn_connection_driver_read_buffer(&server);
            const size_t n = std::min(out.size, in.size);
            std::memcpy(in.start, out.start, n);
            written.append(out.start, qsizetype(n));
            pn_connection_driver_read_done(&server, n);
            pn_connection_driver_write_done(&client, n);
        }
        const pn_bytes_t back = pn_connection_driver_write_buffer(&server);
        if (back.size) {
            const pn_rwbytes_t in = pn_connection_driver_read_buffer(&client);
            const size_t n = std::min(back.size, in.size);
            std::memcpy(in.start, back.start, n);
            pn_connection_driver_read_done(&client, n);
            pn_connection_driver_write_done(&server, n);
        }
    }
    pn_connection_driver_destroy(&client);
    pn_connection_driver_destroy(&server);
    return written;
}

// The ANONYMOUS exchange with another mechanism in its sasl-init frame (Proton's client speaks
// neither MSSBCBS nor, without a TLS layer, PLAIN): the frame and list sizes follow the name.
QByteArray withMechanism(const QByteArray& anonymous, const QByteArray& mechanism) {
    const auto init = [](const QByteArray& name) {
        const int list = 1 + 2 + int(name.size()) + 2 + 4; // count, mechanism, "user"
        QByteArray frame;
        for (const int byte : {0, 0, 0, 8 + 3 + 2 + list, 2, 1, 0, 0, 0, 0x53, 0x41, 0xc0, list, 2,
                               0xa3, int(name.size())})
            frame.append(char(byte));
        return frame + name;
    };
    QByteArray bytes = anonymous;
    return bytes.replace(init("ANONYMOUS"), init(mechanism));
}

void sasl() {
    const QByteArray anonymous = clientBytes("ANONYMOUS");
    write("fuzz_sasl_frames", "anonymous-then-open", anonymous);
    write("fuzz_sasl_frames", "mssbcbs-then-open", withMechanism(anonymous, "MSSBCBS"));
    write("fuzz_sasl_frames", "plain-refused", withMechanism(anonymous, "PLAIN"));
    write("fuzz_sasl_frames", "no-sasl-open", clientBytes(""));
}
} // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s CORPUS_DIR\n", argv[0]);
        return 2;
    }
    g_root = QString::fromLocal8Bit(argv[1]);
    values();
    messages();
    batches();
    wireExtras();
    management();
    sasl();
    return 0;
}
