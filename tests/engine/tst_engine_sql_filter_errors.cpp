// The SQL filter language's errors (service-bus-rules.md R5): where a parse error is and how it
// reads, the text limit, an evaluation error told from false, the deepest texts the limit allows,
// and the nesting limit that keeps unclosed parentheses from exhausting the stack.
#include "SqlTestMessages.h"
#include "TestSqlFilter.h"
#include "sql/SqlAction.h"
#include "sql/SqlError.h"
#include "sql/SqlFilter.h"
#include "sql/SqlParser.h"

#include <QTest>

using namespace hourglass;
using namespace hourglass::sqltest;

void TestSqlFilter::R5_parse_error_positions_data() {
    QTest::addColumn<QString>("expression");
    QTest::addColumn<int>("line");
    QTest::addColumn<int>("column");
    QTest::addColumn<QString>("token");

    QTest::newRow("==") << "color == 'red'" << 1 << 8 << "=";
    QTest::newRow("end") << "color = 'red' AND" << 1 << 18 << "<end of text>";
    QTest::newRow("unknown sys") << "sys.Colour = 'x'" << 1 << 5 << "Colour";
    QTest::newRow("bad character") << "color = #" << 1 << 9 << "#";
    QTest::newRow("second line") << "a = 1\nAND b == 2" << 2 << 8 << "=";
    QTest::newRow("third line, tabs") << "a = 1\r\nAND\n\tb = 'x' c" << 3 << 10 << "c";
    QTest::newRow("not a predicate") << "TRUE" << 1 << 1 << "TRUE";
    QTest::newRow("not a predicate after AND") << "quantity > 10 AND color" << 1 << 19 << "color";
    QTest::newRow("unterminated string") << "color = 'red" << 1 << 9 << "'red";
    QTest::newRow("trailing name") << "x = 1 y" << 1 << 7 << "y";
    QTest::newRow("bad scope") << "other.color = 1" << 1 << 1 << "other";
    QTest::newRow("escape too long") << "a LIKE 'x' ESCAPE 'ab'" << 1 << 19 << "'ab'";
    QTest::newRow("unknown function") << "foo(1) = 1" << 1 << 1 << "foo";
    QTest::newRow("integer too big")
        << "a = 99999999999999999999" << 1 << 5 << "99999999999999999999";
}

void TestSqlFilter::R5_parse_error_positions() {
    QFETCH(QString, expression);
    QFETCH(int, line);
    QFETCH(int, column);
    QFETCH(QString, token);
    auto filter = SqlFilter::compile(expression);
    QVERIFY(!filter.ok());
    QCOMPARE(filter.error().code, ErrorCode::InvalidArgument);
    const QString expected = QStringLiteral("[Token line=%1, column=%2, Token in error= %3, "
                                            "Additional details= ")
                                 .arg(line)
                                 .arg(column)
                                 .arg(token);
    QVERIFY2(filter.error().description.contains(expected),
             qPrintable(filter.error().description + QStringLiteral("\nwanted ") + expected));
    // What the window underlines: the same position and token, read back from the error.
    const auto location = sqlParseErrorLocation(filter.error());
    QVERIFY(location);
    QCOMPARE(location->position.line, line);
    QCOMPARE(location->position.column, column);
    QCOMPARE(location->token, token);
}

// sqlParseErrorLocation reads the position wherever the shape sits in the description, and
// nothing from an error of another shape.
void TestSqlFilter::R5_parse_error_location_read_back_data() {
    QTest::addColumn<int>("code");
    QTest::addColumn<QString>("description");
    QTest::addColumn<int>("line"); // 0: no location
    QTest::addColumn<int>("column");
    QTest::addColumn<QString>("token");

    const auto parse = [](int line, int column, const QString& token) {
        return sqlParseError(SqlPosition{line, column}, token, QStringLiteral("Why.")).description;
    };
    const int invalid = int(ErrorCode::InvalidArgument);
    QTest::newRow("as written") << invalid << parse(2, 14, QStringLiteral("==")) << 2 << 14 << "==";
    QTest::newRow("after Rule::validate's prefix")
        << invalid << QStringLiteral("rule 'r1': ") + parse(1, 7, QStringLiteral("AND")) << 1 << 7
        << "AND";
    QTest::newRow("token with a comma and a line break")
        << invalid << parse(1, 5, QStringLiteral("'a, b\nc")) << 1 << 5 << "'a, b\nc";
    QTest::newRow("end of text") << invalid << parse(1, 18, QStringLiteral("<end of text>")) << 1
                                 << 18 << "<end of text>";
    QTest::newRow("text too long")
        << invalid
        << QStringLiteral("The SQL expression is 1,025 characters long; at most 1,024 are allowed.")
        << 0 << 0 << QString();
    QTest::newRow("evaluation error, not InvalidArgument")
        << int(ErrorCode::GeneralError) << parse(1, 1, QStringLiteral("x")) << 0 << 0 << QString();
}

void TestSqlFilter::R5_parse_error_location_read_back() {
    QFETCH(int, code);
    QFETCH(QString, description);
    QFETCH(int, line);
    QFETCH(int, column);
    QFETCH(QString, token);
    const auto location = sqlParseErrorLocation(makeError(ErrorCode(code), description));
    QCOMPARE(location.has_value(), line > 0);
    if (!location)
        return;
    QCOMPARE(location->position.line, line);
    QCOMPARE(location->position.column, column);
    QCOMPARE(location->token, token);
}

void TestSqlFilter::R5_parse_error_shape() {
    auto filter = SqlFilter::compile(QStringLiteral("color == 'red'"));
    QVERIFY(!filter.ok());
    const QString description = filter.error().description;
    QVERIFY2(description.startsWith(QStringLiteral("There was an error parsing the SQL "
                                                   "expression. [Token line=1, column=8, Token in "
                                                   "error= =, Additional details= ")),
             qPrintable(description));
    QVERIFY(description.endsWith(u']'));
    QVERIFY(description.size() > 110); // the details say why
    QVERIFY(!filter.error().retryable);
}

void TestSqlFilter::R5_filter_text_limit() {
    // 1,024 characters are allowed; one more is refused.
    QString text = QStringLiteral("color = '");
    text += QString(kSqlMaxTextLength - text.size() - 1, u'x');
    text += u'\'';
    QCOMPARE(text.size(), 1024);
    auto atLimit = SqlFilter::compile(text);
    QVERIFY2(atLimit.ok(), qPrintable(atLimit.ok() ? QString() : atLimit.error().description));
    auto result = atLimit->matches(message(defaultProperties()));
    QVERIFY(result.ok());
    QVERIFY(!*result);

    text.insert(9, u'x');
    QCOMPARE(text.size(), 1025);
    auto past = SqlFilter::compile(text);
    QVERIFY(!past.ok());
    QCOMPARE(past.error().code, ErrorCode::InvalidArgument);
    QVERIFY2(past.error().description.contains(QStringLiteral("1,024")),
             qPrintable(past.error().description));
}

// An evaluation error is its own result, with a description a FilterException dead-letter can
// carry, and is not InvalidArgument (the filter itself was fine).
void TestSqlFilter::R5_evaluation_error_is_not_false() {
    auto filter = SqlFilter::compile(QStringLiteral("color = 1"));
    QVERIFY(filter.ok());
    auto result = filter->matches(message(defaultProperties()));
    QVERIFY(!result.ok());
    QVERIFY(result.error().code != ErrorCode::InvalidArgument);
    QVERIFY2(result.error().description.contains(QStringLiteral("String")) &&
                 result.error().description.contains(QStringLiteral("Int64")),
             qPrintable(result.error().description));

    auto division = SqlFilter::compile(QStringLiteral("quantity / 0 = 1"));
    QVERIFY(division.ok());
    auto divided = division->matches(message(defaultProperties()));
    QVERIFY(!divided.ok());
    QVERIFY2(divided.error().description.contains(QStringLiteral("Division by zero")),
             qPrintable(divided.error().description));
}

// The deepest texts 1,024 characters allow parse and run (the parser and evaluator recurse).
void TestSqlFilter::R5_deep_nesting_within_limit() {
    const QString parentheses = QString(510, u'(') + QStringLiteral("1=1") + QString(510, u')');
    const QString nots = QStringLiteral("NOT ").repeated(254) + QStringLiteral("1=1");
    const QString signs = QStringLiteral("-").repeated(1018) + QStringLiteral("1 = 1");
    for (const QString& text : {parentheses, nots, signs}) {
        QVERIFY(text.size() <= kSqlMaxTextLength);
        auto filter = SqlFilter::compile(text);
        QVERIFY2(filter.ok(), qPrintable(filter.ok() ? QString() : filter.error().description));
        auto result = filter->matches(message({}));
        QVERIFY(result.ok());
        QCOMPARE(*result, true);
    }
}

// 1,024 characters can open 1,000 parentheses that are never closed; each level recurses through
// the whole parser, so past kSqlMaxNesting the text is refused where the expression that goes too
// deep starts (a fuzzer's input overflowed the stack there). Filters and actions share the parser.
void TestSqlFilter::R5_nesting_past_the_limit_is_refused() {
    const QString unclosed = QString(1000, u'(') + QStringLiteral("a");
    const auto filter = SqlFilter::compile(unclosed);
    const auto action = SqlAction::compile(QStringLiteral("SET a = ") + unclosed);
    QVERIFY(!filter.ok());
    QVERIFY(!action.ok());
    // The expression past the limit starts at column 514 (inside the 513th parenthesis) of the
    // filter, 8 columns later in the action.
    const std::pair<Error, int> refusals[] = {{filter.error(), kSqlMaxNesting + 2},
                                              {action.error(), kSqlMaxNesting + 10}};
    for (const auto& [error, column] : refusals) {
        QCOMPARE(error.code, ErrorCode::InvalidArgument);
        QVERIFY2(error.description.contains(QStringLiteral("nest more than 512")),
                 qPrintable(error.description));
        const auto location = sqlParseErrorLocation(error);
        QVERIFY(location);
        QCOMPARE(location->position.column, column);
        QCOMPARE(location->token, QStringLiteral("("));
    }
}
