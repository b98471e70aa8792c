// What a message's body was on the wire, read back from its stored extras: each body
// section a sender can write, decoded by the endpoint's codec as a received transfer is, and the
// kind wireBodyKind reads from the extras stored with it; bytes that are not ours read as data.

#include "hourglass/amqpcodec/MessageCodec.h"
#include "hourglass/amqpcodec/WireExtras.h"

#include <QTest>

#include <proton/codec.h>
#include <proton/message.h>

#include <cstdlib>

using namespace hourglass;
using namespace hourglass::amqp;

namespace {

enum class Body { Data, ValueString, ValueBinary, ValueInt, ValueMap, Sequence };

// A message with one body of the given kind, encoded as a sender puts it on the wire.
QByteArray messageWith(Body kind) {
    pn_message_t* message = pn_message();
    pn_data_t* body = pn_message_body(message);
    switch (kind) {
    case Body::Data:
        pn_message_set_inferred(message, true);
        pn_data_put_binary(body, pn_bytes(3, "abc"));
        break;
    case Body::ValueString:
        pn_data_put_string(body, pn_bytes(5, "hello"));
        break;
    case Body::ValueBinary:
        pn_data_put_binary(body, pn_bytes(3, "abc"));
        break;
    case Body::ValueInt:
        pn_data_put_int(body, 42);
        break;
    case Body::ValueMap:
        pn_data_put_map(body);
        pn_data_enter(body);
        pn_data_put_string(body, pn_bytes(1, "k"));
        pn_data_put_int(body, 1);
        pn_data_exit(body);
        break;
    case Body::Sequence:
        pn_message_set_inferred(message, true);
        pn_data_put_list(body);
        pn_data_enter(body);
        pn_data_put_int(body, 1);
        pn_data_put_string(body, pn_bytes(3, "two"));
        pn_data_exit(body);
        break;
    }
    pn_rwbytes_t buffer{0, nullptr};
    const ssize_t size = pn_message_encode2(message, &buffer);
    QByteArray bytes(buffer.start, qsizetype(size));
    std::free(buffer.start);
    pn_message_free(message);
    return bytes;
}

} // namespace

Q_DECLARE_METATYPE(Body)
Q_DECLARE_METATYPE(WireBodyKind::Section)

class AmqpWireBodyTest : public QObject {
    Q_OBJECT
private slots:
    void kindOfEachBodySection_data() {
        QTest::addColumn<Body>("body");
        QTest::addColumn<WireBodyKind::Section>("section");
        QTest::addColumn<QByteArray>("valueType");
        using S = WireBodyKind::Section;
        QTest::newRow("data") << Body::Data << S::Data << QByteArray();
        QTest::newRow("amqp-value string") << Body::ValueString << S::Value << QByteArray("string");
        QTest::newRow("amqp-value binary") << Body::ValueBinary << S::Value << QByteArray("binary");
        QTest::newRow("amqp-value int") << Body::ValueInt << S::Value << QByteArray("int");
        QTest::newRow("amqp-value map") << Body::ValueMap << S::Value << QByteArray("map");
        QTest::newRow("amqp-sequence") << Body::Sequence << S::Sequence << QByteArray();
    }
    void kindOfEachBodySection() {
        QFETCH(Body, body);
        QFETCH(WireBodyKind::Section, section);
        QFETCH(QByteArray, valueType);
        const auto decoded = decodeMessage(messageWith(body));
        QVERIFY2(decoded.ok(), decoded.ok() ? "" : qPrintable(decoded.error().toString()));
        const WireBodyKind kind = wireBodyKind(decoded->wireExtras);
        QCOMPARE(int(kind.section), int(section));
        QCOMPARE(kind.valueType, valueType);
    }

    // Extras without a body section (other fields only), none at all, and bytes that are not
    // ours (a damaged column) all read as a plain data body: the window then says nothing.
    void noBodySectionReadsAsData() {
        WireExtras extras;
        extras.priority = 9;
        QCOMPARE(wireBodyKind(encodeWireExtras(extras)), WireBodyKind{});
        QCOMPARE(wireBodyKind(QByteArray()), WireBodyKind{});
        QCOMPARE(wireBodyKind(QByteArray("\x00\x53\x77\xa1", 4)), WireBodyKind{});
        extras.bodySections = QByteArray("\x00\x53\x77", 3); // cut short
        QCOMPARE(wireBodyKind(encodeWireExtras(extras)), WireBodyKind{});
    }
};

QTEST_GUILESS_MAIN(AmqpWireBodyTest)
#include "tst_amqp_wire_body.moc"
