// The one table of application property types (PropertyTypes.h) and the forms built on it: the
// Service Bus names, the text the window shows and parses, the JSON of files (PropertyJson.h)
// and the store's encoding (store/PropertyEncoding.h).
#include "hourglass/PropertyJson.h"
#include "hourglass/PropertyTypes.h"
#include "store/PropertyEncoding.h"

#include <QCborArray>
#include <QCborMap>
#include <QCborValue>
#include <QDateTime>
#include <QJsonObject>
#include <QPoint>
#include <QTest>
#include <QUuid>

#include <limits>

using namespace hourglass;

namespace {

QString describe(const QVariant& value) {
    return QStringLiteral("%1 (%2)").arg(value.toString(), QLatin1String(value.typeName()));
}

#define VERIFY_SAME(actual, expected)                                                              \
    QVERIFY2(                                                                                      \
        (actual).metaType() == (expected).metaType() && (actual) == (expected),                    \
        qPrintable(QStringLiteral("got %1, wanted %2").arg(describe(actual), describe(expected))))

void addValueRows() {
    QTest::addColumn<QVariant>("value");
    QTest::addColumn<QString>("name");
    QTest::newRow("Int32") << QVariant(250) << "Int32";
    QTest::newRow("Int64") << QVariant(qlonglong(250)) << "Int64";
    QTest::newRow("Int64.past2^53") << QVariant(qlonglong(9007199254740993)) << "Int64";
    QTest::newRow("Double") << QVariant(2.5) << "Double";
    QTest::newRow("Double.integral") << QVariant(5.0) << "Double";
    QTest::newRow("Boolean") << QVariant(false) << "Boolean";
    QTest::newRow("String") << QVariant(QStringLiteral("x")) << "String";
    QTest::newRow("DateTime") << QVariant(
                                     QDateTime(QDate(2026, 1, 31), QTime(12, 0, 0, 5), Qt::UTC))
                              << "DateTime";
    QTest::newRow("Guid") << QVariant(QUuid::createUuid()) << "Guid";
    QTest::newRow("Binary") << QVariant(QByteArray("\x00\xff", 2)) << "Binary";
    QTest::newRow("Byte") << QVariant::fromValue(uchar(255)) << "Byte";
    QTest::newRow("SByte") << QVariant::fromValue((signed char)(-128)) << "SByte";
    QTest::newRow("Int16") << QVariant::fromValue(short(-32768)) << "Int16";
    QTest::newRow("UInt16") << QVariant::fromValue(ushort(65535)) << "UInt16";
    QTest::newRow("UInt32") << QVariant::fromValue(std::numeric_limits<uint>::max()) << "UInt32";
    QTest::newRow("UInt64") << QVariant::fromValue(std::numeric_limits<qulonglong>::max())
                            << "UInt64";
    QTest::newRow("Single") << QVariant::fromValue(0.25f) << "Single";
    QTest::newRow("Char") << QVariant(QChar(u'é')) << "Char";
    QTest::newRow("Null") << QVariant::fromValue(nullptr) << "Null";
}

} // namespace

class TestEnginePropertyTypes : public QObject {
    Q_OBJECT
private slots:
    void namesAreServiceBusNames_data() { addValueRows(); }
    void namesAreServiceBusNames() {
        QFETCH(QVariant, value);
        QFETCH(QString, name);
        QCOMPARE(propertyTypeNameOf(value), name);
        const auto type = propertyTypeFromName(name);
        QVERIFY(type);
        QCOMPARE(propertyTypeName(*type), name);
        QCOMPARE(propertyMetaType(*type), value.metaType());
        QVERIFY(allPropertyTypes().contains(*type));
    }

    // Older files and hand-written ones use C# keywords and AMQP names.
    void namesReadInOtherSpellings() {
        QCOMPARE(propertyTypeFromName(u"int"), PropertyType::Int32);
        QCOMPARE(propertyTypeFromName(u"long"), PropertyType::Int64);
        QCOMPARE(propertyTypeFromName(u"INT32"), PropertyType::Int32);
        QCOMPARE(propertyTypeFromName(u"uuid"), PropertyType::Guid);
        QCOMPARE(propertyTypeFromName(u"timestamp"), PropertyType::DateTime);
        QCOMPARE(propertyTypeFromName(u"byte[]"), PropertyType::Binary);
        QCOMPARE(propertyTypeFromName(u"bytes"), PropertyType::Binary);
        QVERIFY(!propertyTypeFromName(u"qlonglong"));
        QVERIFY(!propertyTypeOf(QVariant(QPoint(1, 2))));
        QCOMPARE(propertyTypeNameOf(QVariant(QPoint(1, 2))), QStringLiteral("QPoint"));
    }

    void textRoundTrips_data() { addValueRows(); }
    void textRoundTrips() {
        QFETCH(QVariant, value);
        const auto type = propertyTypeOf(value);
        QVERIFY(type);
        const auto back = propertyFromText(*type, propertyText(value));
        QVERIFY2(back, qPrintable(propertyText(value)));
        VERIFY_SAME(*back, value);
    }

    void textRefusesWhatDoesNotFit() {
        QVERIFY(!propertyFromText(PropertyType::Int32, QStringLiteral("3000000000")));
        QVERIFY(!propertyFromText(PropertyType::Byte, QStringLiteral("256")));
        QVERIFY(!propertyFromText(PropertyType::UInt64, QStringLiteral("-1")));
        QVERIFY(!propertyFromText(PropertyType::Boolean, QStringLiteral("yes")));
        QVERIFY(!propertyFromText(PropertyType::Binary, QStringLiteral("0g")));
        QVERIFY(!propertyFromText(PropertyType::Guid, QStringLiteral("not-a-guid")));
        QCOMPARE(propertyText(QVariant(QByteArray("\x01\xab", 2))), QStringLiteral("01 ab"));
    }

    // The file form: plain JSON where that reads back as the same type, {Type, Value} else.
    void jsonRoundTrips_data() { addValueRows(); }
    void jsonRoundTrips() {
        QFETCH(QVariant, value);
        const QJsonValue json = propertyToJson(value);
        const auto back = propertyFromJson(json);
        QVERIFY2(back, qPrintable(back ? QString() : back.error().description));
        VERIFY_SAME(*back, value);
        const auto typed = typedValueFromJson(*propertyTypeOf(value), typedValueToJson(value));
        QVERIFY(typed);
        VERIFY_SAME(*typed, value);
    }

    void jsonFormIsPlainWhereThatKeepsTheType() {
        QCOMPARE(propertyToJson(QVariant(qlonglong(7))), QJsonValue(7));
        QCOMPARE(propertyToJson(QVariant(QStringLiteral("x"))), QJsonValue(QStringLiteral("x")));
        QCOMPARE(propertyToJson(QVariant(true)), QJsonValue(true));
        QCOMPARE(propertyToJson(QVariant(2.5)), QJsonValue(2.5));
        const QJsonObject int32{{QStringLiteral("Type"), QStringLiteral("Int32")},
                                {QStringLiteral("Value"), 7}};
        QCOMPARE(propertyToJson(QVariant(7)), QJsonValue(int32));
        QVERIFY(!propertyFromJson(QJsonObject{{QStringLiteral("Type"), QStringLiteral("Int32")},
                                              {QStringLiteral("Value"), 3000000000.0}}));
        QVERIFY(!propertyFromJson(QJsonObject{{QStringLiteral("Type"), QStringLiteral("Decimal")},
                                              {QStringLiteral("Value"), 1}}));
        QVERIFY(!propertyFromJson(QJsonValue(QJsonValue::Null)));
    }

    void storeEncodingRoundTrips_data() { addValueRows(); }
    void storeEncodingRoundTrips() {
        QFETCH(QVariant, value);
        const QVariantMap back = decodeProperties(encodeProperties({{QStringLiteral("p"), value}}));
        VERIFY_SAME(back.value(QStringLiteral("p")), value);
    }

    // Types that plain CBOR keeps cost what they cost before types were kept.
    void storeEncodingOfPlainTypesIsTheFirstVersions() {
        const QVariantMap plain{{QStringLiteral("a"), qlonglong(1)},
                                {QStringLiteral("b"), QStringLiteral("x")},
                                {QStringLiteral("c"), 2.5}};
        QCOMPARE(encodeProperties(plain), QCborValue(QCborMap::fromVariantMap(plain)).toCbor());
    }

    // A type a later version adds reads as its plain value.
    void storeEncodingReadsUnknownTypesPlain() {
        QCborMap map;
        map.insert(QStringLiteral("p"),
                   QCborValue(kTypedPropertyTag, QCborArray{QStringLiteral("Decimal128"), 12}));
        const QVariantMap back = decodeProperties(QCborValue(map).toCbor());
        VERIFY_SAME(back.value(QStringLiteral("p")), QVariant(qlonglong(12)));
    }
};

QTEST_GUILESS_MAIN(TestEnginePropertyTypes)
#include "tst_engine_property_types.moc"
