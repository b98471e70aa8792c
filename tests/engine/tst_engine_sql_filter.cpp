// The SQL filter language (service-bus-rules.md R3) as a component: engine/sql/ compiles a filter
// and matches it against one message, one table row per case. Its errors (R5) are in
// tst_engine_sql_filter_errors.cpp; Rule and the broker use it (tst_engine_topics_sql).
#include "SqlTestMessages.h"
#include "TestSqlFilter.h"
#include "sql/SqlError.h"
#include "sql/SqlFilter.h"
#include "sql/SqlParser.h"

#include <QTest>

using namespace hourglass;
using namespace hourglass::sqltest;

namespace {

// What a filter does with a message.
enum Outcome { Match, NoMatch, Refused, EvaluationError };

const char* outcomeName(int outcome) {
    static const char* const names[] = {"match", "no match", "refused at creation",
                                        "evaluation error"};
    return names[outcome];
}

int outcomeOf(const QString& expression, const OutgoingMessage& m, QString* detail) {
    auto filter = SqlFilter::compile(expression);
    if (!filter) {
        *detail = filter.error().description;
        return filter.error().code == ErrorCode::InvalidArgument ? Refused : -1;
    }
    auto result = filter->matches(m, brokerFields());
    if (!result) {
        *detail = result.error().description;
        return EvaluationError;
    }
    return *result ? Match : NoMatch;
}

int g_row = 0;

void row(const char* expression, int expected, const QVariantMap& properties = {}) {
    QTest::addRow("%03d %s", ++g_row, expression)
        << QString::fromUtf8(expression)
        << (properties.isEmpty() ? defaultProperties() : properties) << expected;
}

} // namespace

void TestSqlFilter::R3_filters_data() {
    QTest::addColumn<QString>("expression");
    QTest::addColumn<QVariantMap>("properties");
    QTest::addColumn<int>("expected");
    g_row = 0;

    // Names: plain, bracketed, quoted, scoped; case-insensitive names and keywords.
    row("color = 'red'", Match);
    row("color = 'Red'", NoMatch);
    row("user.color = 'red'", Match);
    row("COLOR = 'red'", Match);
    row("[color] = 'red'", Match);
    row("\"color\" = 'red'", Match);
    row("user.[color] = 'red'", Match);
    row("USER.Color = 'red'", Match);
    row("[col]]or] = 1", Match, {{QStringLiteral("col]or"), QVariant(qlonglong(1))}});
    row("\"my prop\" = 'x'", Match, {{QStringLiteral("my prop"), QStringLiteral("x")}});
    row("[AND] = 1", Match, {{QStringLiteral("AND"), QVariant(qlonglong(1))}});
    row("color = 'red' and quantity = 12", Match);
    row("Color = 'red' AnD Quantity = 12", Match);
    row("color = 'red'\n  AND quantity > 10", Match);
    row("user.in = 1", Match, {{QStringLiteral("IN"), QVariant(int(1))}});
    row("other.color = 'red'", Refused);
    row("AND = 1", Refused);

    // Comparisons and numeric promotion.
    row("color <> 'blue'", Match);
    row("color != 'red'", NoMatch);
    row("quantity > 10", Match);
    row("quantity >= 12", Match);
    row("quantity < 12", NoMatch);
    row("quantity <= 12", Match);
    row("quantity = 12.0", Match);
    row("price > 9", Match);
    row("price = 9.5", Match);
    row("big > 4000000000", Match);
    row("big = 5000000000", Match);
    row("a = b AND b = c", Match,
        {{QStringLiteral("a"), QVariant(int(5))},
         {QStringLiteral("b"), QVariant(qlonglong(5))},
         {QStringLiteral("c"), QVariant(5.0)}});
    row("u = s", Match,
        {{QStringLiteral("u"), QVariant(uint(7))}, {QStringLiteral("s"), QVariant(short(7))}});
    row("9223372036854775807 = 9223372036854775807", Match);
    row("'abc' < 'abd'", Match);
    row("'B' < 'a'", Match); // ordinal, case-sensitive

    // Arithmetic and precedence.
    row("quantity + 1 = 13", Match);
    row("quantity * 2 = 24", Match);
    row("quantity / 5 = 2", Match); // integer division
    row("quantity / 5.0 = 2.4", Match);
    row("quantity % 5 = 2", Match);
    row("quantity - 20 = -8", Match);
    row("-quantity = -12", Match);
    row("+quantity = 12", Match);
    row("2 + 3 * 4 = 14", Match);
    row("(2 + 3) * 4 = 20", Match);
    row("10 - 2 - 3 = 5", Match);
    row("1.5e1 = 15", Match);
    row("1E2 = 100", Match);
    row(".5 = 0.5", Match);
    row("- -3 = 3", Match);

    // Predicates, and only predicates, make a filter.
    row("1=1", Match);
    row("1=2", NoMatch);
    row("TRUE", Refused);
    row("FALSE", Refused);
    row("quantity", Refused);
    row("'red'", Refused);
    row("quantity + 1", Refused);
    row("color = 'red' AND TRUE", Refused);
    row("NOT TRUE", Refused);
    row("-(1=1) = 1", Refused);

    // AND, OR, NOT and their precedence.
    row("color = 'red' AND quantity > 10", Match);
    row("color = 'red' AND quantity > 20", NoMatch);
    row("color = 'blue' OR quantity > 10", Match);
    row("color = 'blue' OR quantity > 20", NoMatch);
    row("NOT color = 'blue'", Match);
    row("NOT (color = 'red')", NoMatch);
    row("NOT color = 'red' OR quantity = 12", Match);
    row("color = 'blue' AND quantity = 12 OR price = 9.5", Match);
    row("color = 'blue' AND (quantity = 12 OR price = 9.5)", NoMatch);
    row("NOT NOT color = 'red'", Match);

    // Three-valued logic: a missing property is NULL, a comparison with it unknown.
    row("missing = 1", NoMatch);
    row("missing <> 1", NoMatch);
    row("NOT missing = 1", NoMatch);
    row("missing = 1 OR color = 'red'", Match);
    row("missing = 1 AND color = 'red'", NoMatch);
    row("NOT (missing = 1 AND color = 'blue')", Match); // unknown AND false is false
    row("missing IS NULL", Match);
    row("missing IS NOT NULL", NoMatch);
    row("color IS NULL", NoMatch);
    row("color IS NOT NULL", Match);
    row("nothing IS NULL", Match);
    row("missing + 1 = 2", NoMatch);
    row("missing IN (1, 2)", NoMatch);
    row("missing NOT IN (1, 2)", NoMatch);
    row("missing LIKE 'a%'", NoMatch);
    row("NULL = NULL", NoMatch);
    row("NULL IS NULL", Match);
    row("quantity IN (1, NULL)", NoMatch);
    row("NOT quantity IN (1, NULL)", NoMatch);

    // EXISTS.
    row("EXISTS(color)", Match);
    row("EXISTS(missing)", NoMatch);
    row("NOT EXISTS(missing)", Match);
    row("EXISTS(nothing)", Match);
    row("exists(user.COLOR)", Match);
    row("EXISTS(sys.SessionId)", NoMatch);
    row("EXISTS(sys.MessageId)", Match);
    row("EXISTS(1)", Refused);

    // LIKE: % and _, anchored, case-sensitive, ESCAPE.
    row("color LIKE 'r%'", Match);
    row("color LIKE 'R%'", NoMatch);
    row("color LIKE '%e%'", Match);
    row("color LIKE 'r_d'", Match);
    row("color LIKE 'r_'", NoMatch);
    row("color LIKE 're'", NoMatch);
    row("color LIKE '%'", Match);
    row("color LIKE '%d'", Match);
    row("color LIKE '%%r%d%'", Match);
    row("color NOT LIKE 'b%'", Match);
    row("pct LIKE '50!%' ESCAPE '!'", Match);
    row("pct LIKE '5!%' ESCAPE '!'", NoMatch);
    row("under LIKE 'a\\_b' ESCAPE '\\'", Match);
    row("under LIKE 'a\\_b' ESCAPE '\\'", NoMatch,
        {{QStringLiteral("under"), QStringLiteral("axb")}});
    row("under LIKE 'a_b'", Match, {{QStringLiteral("under"), QStringLiteral("axb")}});
    row("name LIKE 'O''%'", Match);
    row("empty LIKE ''", Match);
    row("color LIKE 'r%' ESCAPE 'ab'", Refused);
    row("color LIKE 'r!' ESCAPE '!'", Refused);
    row("color LIKE color", Refused);
    row("quantity LIKE '1%'", EvaluationError);

    // IN.
    row("color IN ('red', 'blue')", Match);
    row("color IN ('green', 'blue')", NoMatch);
    row("color NOT IN ('green', 'blue')", Match);
    row("quantity IN (1, 12, 100)", Match);
    row("quantity IN (12.0)", Match);
    row("quantity IN (-1, -12)", NoMatch);
    row("quantity NOT IN (-1, -12)", Match);
    row("color IN (1, 2)", EvaluationError);
    row("color IN ()", Refused);
    row("color IN 'red'", Refused);

    // System properties (sys.).
    row("sys.Label = 'Store1'", Match);
    row("sys.Subject = 'Store1'", Match);
    row("sys.label = 'Store1'", Match);
    row("SYS.MessageId = 'order-1'", Match);
    row("sys.CorrelationId = 'corr-7'", Match);
    row("sys.To = 'shipping'", Match);
    row("sys.ReplyTo = 'replies'", Match);
    row("sys.ContentType LIKE 'application/%'", Match);
    row("sys.SessionId IS NULL", Match);
    row("sys.ReplyToSessionId IS NULL", Match);
    row("sys.SequenceNumber = 42", Match);
    row("sys.SequenceNumber > 40 AND sys.DeliveryCount = 1", Match);
    row("sys.Size < 1024", Match);
    row("sys.EnqueuedTimeUtc = when", Match);
    row("sys.TimeToLive = 60000", Match);
    row("sys.ScheduledEnqueueTimeUtc IS NULL", Match);
    row("sys.[Label] = 'Store1'", Match);
    row("sys.LockToken IS NULL", Match);
    row("user.Label = 'Store1'", NoMatch);
    row("sys.Colour = 'x'", Refused);
    row("sys.Label = 1", EvaluationError);

    // Typed values: Boolean, DateTime and Guid compare with their own kind.
    row("color = 1", EvaluationError);
    row("quantity = '12'", EvaluationError);
    row("flag = TRUE", Match);
    row("flag = FALSE", NoMatch);
    row("flag <> FALSE", Match);
    row("flag > FALSE", EvaluationError);
    row("flag = 1", EvaluationError);
    row("when = when", Match);
    row("when >= sys.EnqueuedTimeUtc", Match);
    row("when = 'x'", EvaluationError);
    row("id = id", Match);
    row("id = 'abc'", EvaluationError);

    // Functions.
    row("newid() = newid()", NoMatch);
    row("newid() IS NOT NULL", Match);
    row("NEWID() <> id", Match);
    row("property('color') = 'red'", Match);
    row("property('user.color') = 'red'", Match);
    row("property('sys.Label') = 'Store1'", Match);
    row("property('COL' + 'OR') = 'red'", EvaluationError); // no string arithmetic
    row("property('missing') IS NULL", Match);
    row("property(1) = 1", EvaluationError);
    row("foo(color) = 1", Refused);

    // Evaluation errors, and AND/OR deciding before them.
    row("quantity / 0 = 1", EvaluationError);
    row("price / 0 = 1", EvaluationError);
    row("quantity % 0 = 1", EvaluationError);
    row("big * big > 0", EvaluationError);
    row("color + 1 = 2", EvaluationError);
    row("-color = 1", EvaluationError);
    row("color = 'blue' AND quantity / 0 = 1", NoMatch);
    row("color = 'red' OR quantity / 0 = 1", Match);
    row("color = 'red' AND quantity / 0 = 1", EvaluationError);

    // Syntax.
    row("", Refused);
    row("   ", Refused);
    row("color =", Refused);
    row("color == 'red'", Refused);
    row("color = 'red", Refused);
    row("(color = 'red'", Refused);
    row("color = 'red')", Refused);
    row("color = 'red' AND", Refused);
    row("color = #", Refused);
    row("9223372036854775808 = 1", Refused);
    row("[unterminated = 1", Refused);
    row("color = 'red' color", Refused);
    row("1 = 1 = 1", Refused);
    row("color IS 'red'", Refused);
    row("color NOT = 'x'", Refused);
    row("12abc = 1", Refused);
}

void TestSqlFilter::R3_filters() {
    QFETCH(QString, expression);
    QFETCH(QVariantMap, properties);
    QFETCH(int, expected);
    QString detail;
    const int actual = outcomeOf(expression, message(properties), &detail);
    QVERIFY2(
        actual == expected,
        qPrintable(QStringLiteral("got %1 (%2), wanted %3")
                       .arg(QLatin1String(actual < 0 ? "a wrong error code" : outcomeName(actual)),
                            detail, QLatin1String(outcomeName(expected)))));
}

// The examples of Azure's "SQL filter syntax" and "topic filters" articles as service-bus-rules.md
// R2-R3 quote or imply them: routing by store (sys.Label / sys.To / a StoreId property), colour and
// quantity, IN lists, LIKE with ESCAPE, names with spaces.
void TestSqlFilter::R3_documented_examples_data() {
    QTest::addColumn<QString>("filter");
    QTest::addColumn<QString>("label");
    QTest::addColumn<QString>("to");
    QTest::addColumn<QVariantMap>("properties");
    QTest::addColumn<bool>("matches");

    const auto store = [](const char* id) {
        return QVariantMap{{QStringLiteral("StoreId"), QString::fromLatin1(id)},
                           {QStringLiteral("StoreName"), QString::fromLatin1(id)}};
    };
    const QString none;
    QTest::newRow("label Store1") << "sys.Label = 'Store1'"
                                  << "Store1" << none << store("") << true;
    QTest::newRow("label Store2") << "sys.Label = 'Store1'"
                                  << "Store2" << none << store("") << false;
    QTest::newRow("StoreId IN hit")
        << "StoreId IN ('Store1', 'Store2', 'Store3')" << none << none << store("Store2") << true;
    QTest::newRow("StoreId IN miss")
        << "StoreId IN ('Store1', 'Store2', 'Store3')" << none << none << store("Store4") << false;
    QTest::newRow("StoreId = Store4")
        << "StoreId = 'Store4'" << none << none << store("Store4") << true;
    QTest::newRow("StoreName IN") << "StoreName IN ('Store1','Store2')" << none << none
                                  << store("Store1") << true;
    QTest::newRow("sys.To IN or StoreId")
        << "sys.To IN ('Store5','Store6','Store7') OR StoreId = 'Store8'" << none << "Store6"
        << store("Store1") << true;
    QTest::newRow("sys.To IN or StoreId, StoreId")
        << "sys.To IN ('Store5','Store6','Store7') OR StoreId = 'Store8'" << none << "Store1"
        << store("Store8") << true;
    QTest::newRow("the rest: NOT IN")
        << "sys.To NOT IN "
           "('Store1','Store2','Store3','Store4','Store5','Store6','Store7','Store8') "
           "OR StoreId NOT IN ('Store1','Store2','Store3','Store4','Store5','Store6','Store7',"
           "'Store8')"
        << none << "Store9" << store("Store9") << true;
    QTest::newRow("the rest: NOT IN, a known store")
        << "sys.To NOT IN "
           "('Store1','Store2','Store3','Store4','Store5','Store6','Store7','Store8') "
           "OR StoreId NOT IN ('Store1','Store2','Store3','Store4','Store5','Store6','Store7',"
           "'Store8')"
        << none << "Store1" << store("Store1") << false;
    const QVariantMap redTwelve{{QStringLiteral("color"), QStringLiteral("red")},
                                {QStringLiteral("quantity"), QVariant(qlonglong(12))}};
    const QVariantMap redFive{{QStringLiteral("color"), QStringLiteral("red")},
                              {QStringLiteral("quantity"), QVariant(int(5))}};
    QTest::newRow("color and quantity")
        << "user.color = 'red' AND quantity > 10" << none << none << redTwelve << true;
    QTest::newRow("color and quantity, too few")
        << "user.color = 'red' AND quantity > 10" << none << none << redFive << false;
    QTest::newRow("blue or quantity")
        << "color = 'blue' OR quantity = 12" << none << none << redTwelve << true;
    QTest::newRow("sys.MessageId LIKE")
        << "sys.MessageId LIKE 'order-%'" << none << none << QVariantMap{} << true;
    QTest::newRow("sys.CorrelationId LIKE")
        << "sys.CorrelationId LIKE 'abc-%'" << none << none << QVariantMap{} << false;
    QTest::newRow("LIKE ESCAPE") << "code LIKE 'ABC!_%' ESCAPE '!'" << none << none
                                 << QVariantMap{{QStringLiteral("code"), QStringLiteral("ABC_123")}}
                                 << true;
    QTest::newRow("LIKE ESCAPE, no underscore")
        << "code LIKE 'ABC!_%' ESCAPE '!'" << none << none
        << QVariantMap{{QStringLiteral("code"), QStringLiteral("ABCD123")}} << false;
    QTest::newRow("name with a space, bracketed")
        << "[Message Header] = 'value'" << none << none
        << QVariantMap{{QStringLiteral("Message Header"), QStringLiteral("value")}} << true;
    QTest::newRow("name with a space, quoted")
        << "\"Message Header\" = 'value'" << none << none
        << QVariantMap{{QStringLiteral("message header"), QStringLiteral("value")}} << true;
    QTest::newRow("EXISTS and IS NULL")
        << "EXISTS(Priority) AND Priority IS NOT NULL" << none << none
        << QVariantMap{{QStringLiteral("priority"), QVariant(int(1))}} << true;
    QTest::newRow("arithmetic") << "quantity * price > 100" << none << none
                                << QVariantMap{{QStringLiteral("quantity"), QVariant(int(12))},
                                               {QStringLiteral("price"), QVariant(9.5)}}
                                << true;
}

void TestSqlFilter::R3_documented_examples() {
    QFETCH(QString, filter);
    QFETCH(QString, label);
    QFETCH(QString, to);
    QFETCH(QVariantMap, properties);
    QFETCH(bool, matches);
    auto compiled = SqlFilter::compile(filter);
    QVERIFY2(compiled.ok(), qPrintable(compiled.ok() ? QString() : compiled.error().description));
    OutgoingMessage m = message(properties);
    m.subject = label;
    m.to = to;
    auto result = compiled->matches(m);
    QVERIFY2(result.ok(), qPrintable(result.ok() ? QString() : result.error().description));
    QCOMPARE(*result, matches);
}

// A filter evaluated before the broker assigned its fields (no SqlBrokerFields) sees NULL.
void TestSqlFilter::R3_missing_broker_fields_read_as_null() {
    auto filter = SqlFilter::compile(QStringLiteral("sys.SequenceNumber IS NULL AND "
                                                    "sys.EnqueuedTimeUtc IS NULL"));
    QVERIFY(filter.ok());
    auto result = filter->matches(message({}));
    QVERIFY(result.ok());
    QVERIFY(*result);
}

// IN in three-valued logic, by SqlFilter::truth (matches() reads unknown as no match, so the
// table above cannot tell unknown from false). `x IN (a, b)` is `x = a OR x = b`: a NULL item
// makes a miss unknown, under NOT IN too; strings compare exactly (R3: case-sensitive); a string
// item next to a number is the comparison error of `x = 'red'` (R5), unless an earlier item
// already matched (OR does not evaluate past a true left side). The string fast path in the
// evaluator must give the same answers as the item-by-item comparison.
void TestSqlFilter::R3_in_with_null_and_mixed_items_data() {
    QTest::addColumn<QString>("expression");
    QTest::addColumn<QString>("expected"); // "true", "false", "unknown" or "error"

    QTest::newRow("miss with NULL") << "color IN ('green', NULL)"
                                    << "unknown";
    QTest::newRow("NOT IN miss with NULL") << "color NOT IN ('green', NULL)"
                                           << "unknown";
    QTest::newRow("NULL first, miss") << "color IN (NULL, 'green')"
                                      << "unknown";
    QTest::newRow("hit with NULL") << "color IN ('green', NULL, 'red')"
                                   << "true";
    QTest::newRow("NULL first, hit") << "color IN (NULL, 'red')"
                                     << "true";
    QTest::newRow("NOT IN hit with NULL") << "color NOT IN (NULL, 'red')"
                                          << "false";
    QTest::newRow("case differs") << "color IN ('RED')"
                                  << "false";
    QTest::newRow("NOT IN, case differs") << "color NOT IN ('RED', 'Red')"
                                          << "true";
    QTest::newRow("number: string item first") << "quantity IN ('red', 12)"
                                               << "error";
    QTest::newRow("number: number item first") << "quantity IN (12, 'red')"
                                               << "true";
    QTest::newRow("number: miss, then string") << "quantity IN (1, 'red')"
                                               << "error";
    QTest::newRow("string: hit before a number") << "color IN ('red', 1)"
                                                 << "true";
    QTest::newRow("string: miss, then number") << "color IN ('green', 1)"
                                               << "error";
    QTest::newRow("string: expression item") << "color IN ('green', sys.Label)"
                                             << "false";
    QTest::newRow("string: expression item hit") << "color IN ('x', property('color'))"
                                                 << "true";
    QTest::newRow("quote in an item") << "name IN ('x', 'O''Brien')"
                                      << "true";
}

void TestSqlFilter::R3_in_with_null_and_mixed_items() {
    QFETCH(QString, expression);
    QFETCH(QString, expected);
    auto filter = SqlFilter::compile(expression);
    QVERIFY2(filter.ok(), qPrintable(filter.ok() ? QString() : filter.error().description));
    const auto truth = filter->truth(message(defaultProperties()), brokerFields());
    QString actual = QStringLiteral("error");
    if (truth)
        actual = *truth == SqlTruth::True    ? QStringLiteral("true")
                 : *truth == SqlTruth::False ? QStringLiteral("false")
                                             : QStringLiteral("unknown");
    QCOMPARE(actual, expected);
}

// One property read under two spellings is one property (R3: names are case-insensitive), so
// the routing preview lists it once.
void TestSqlFilter::R3_property_values_list_a_name_once_ignoring_case() {
    auto filter = SqlFilter::compile(
        QStringLiteral("Color = 'green' OR color = 'blue' OR COLOR IS NULL OR sys.label = 'x' "
                       "OR sys.Label = 'y'"));
    QVERIFY(filter.ok());
    const auto values = filter->propertyValues(message(defaultProperties()), brokerFields());
    QCOMPARE(values.size(), 2);
    QCOMPARE(values.at(0).name, QStringLiteral("Color"));
    QCOMPARE(values.at(0).value, QVariant(QStringLiteral("red")));
    QCOMPARE(values.at(1).value, QVariant(QStringLiteral("Store1")));
}

QTEST_GUILESS_MAIN(TestSqlFilter)
