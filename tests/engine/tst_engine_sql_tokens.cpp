// The public cut of the SQL language into tokens (hourglass/SqlTokens.h) and the public check of
// a filter or action (hourglass/SqlCheck.h), what the rule dialog uses: cutting never fails (what
// the compiler refuses is a token marked with its problem, and the text after it is cut as
// usual), every token knows where it is, and the check refuses what the compiler refuses, at the
// same position.
#include "hourglass/SqlCheck.h"
#include "hourglass/SqlTokens.h"
#include "sql/SqlAction.h"
#include "sql/SqlFilter.h"
#include "sql/SqlLexer.h"

#include <QTest>

using namespace hourglass;

Q_DECLARE_METATYPE(hourglass::SqlTokenKind)
Q_DECLARE_METATYPE(hourglass::SqlTokenProblem)

class TestSqlTokens : public QObject {
    Q_OBJECT
private slots:
    void R3_everyTokenWithItsPlace();
    void R5_aBadTokenIsCutAndTheRestToo_data();
    void R5_aBadTokenIsCutAndTheRestToo();
    void R3_theLexerReadsTheSameCut();
    void R5_theCheckRefusesAsTheCompilerDoes_data();
    void R5_theCheckRefusesAsTheCompilerDoes();
};

// Each token's kind, place and text, quotes undone; the last one End at the text's end.
void TestSqlTokens::R3_everyTokenWithItsPlace() {
    const QString text = QStringLiteral("a <> 'it''s'\n AND [x]]y] >= 2.5E+3");
    const QList<SqlTextToken> tokens = sqlTokens(text);
    QCOMPARE(tokens.size(), 8);
    const struct {
        SqlTokenKind kind;
        qsizetype start;
        qsizetype length;
        int line;
        int column;
        const char* text;
    } expected[] = {
        {SqlTokenKind::Identifier, 0, 1, 1, 1, "a"},
        {SqlTokenKind::Operator, 2, 2, 1, 3, "<>"},
        {SqlTokenKind::String, 5, 7, 1, 6, "it's"},
        {SqlTokenKind::Identifier, 14, 3, 2, 2, "AND"},
        {SqlTokenKind::QuotedIdentifier, 18, 6, 2, 6, "x]y"},
        {SqlTokenKind::Operator, 25, 2, 2, 13, ">="},
        {SqlTokenKind::Decimal, 28, 6, 2, 16, "2.5E+3"},
        {SqlTokenKind::End, 34, 0, 2, 22, ""},
    };
    for (qsizetype i = 0; i < tokens.size(); ++i) {
        const SqlTextToken& token = tokens.at(i);
        QCOMPARE(token.kind, expected[i].kind);
        QCOMPARE(token.start, expected[i].start);
        QCOMPARE(token.length, expected[i].length);
        QCOMPARE(token.position.line, expected[i].line);
        QCOMPARE(token.position.column, expected[i].column);
        QCOMPARE(token.text, QString::fromUtf8(expected[i].text));
        QCOMPARE(token.problem, SqlTokenProblem::None);
    }
}

void TestSqlTokens::R5_aBadTokenIsCutAndTheRestToo_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("bad"); // which token has the problem
    QTest::addColumn<SqlTokenKind>("kind");
    QTest::addColumn<SqlTokenProblem>("problem");
    QTest::addColumn<int>("count"); // tokens, End included

    QTest::newRow("unterminated string")
        << QStringLiteral("a = 'red AND b") << 2 << SqlTokenKind::String
        << SqlTokenProblem::Unterminated << 4;
    QTest::newRow("unterminated name")
        << QStringLiteral("[a = 1") << 0 << SqlTokenKind::QuotedIdentifier
        << SqlTokenProblem::Unterminated << 2;
    QTest::newRow("a character outside the language")
        << QStringLiteral("a # 1 AND b") << 1 << SqlTokenKind::Invalid
        << SqlTokenProblem::NotLanguage << 6;
    QTest::newRow("a number into a name")
        << QStringLiteral("a = 5abc OR b") << 2 << SqlTokenKind::Integer
        << SqlTokenProblem::RunsIntoName << 7;
}

void TestSqlTokens::R5_aBadTokenIsCutAndTheRestToo() {
    QFETCH(QString, text);
    QFETCH(int, bad);
    QFETCH(SqlTokenKind, kind);
    QFETCH(SqlTokenProblem, problem);
    QFETCH(int, count);
    const QList<SqlTextToken> tokens = sqlTokens(text);
    QCOMPARE(tokens.size(), count);
    QCOMPARE(tokens.at(bad).kind, kind);
    QCOMPARE(tokens.at(bad).problem, problem);
    QCOMPARE(tokens.last().kind, SqlTokenKind::End);
    QCOMPARE(tokens.last().start, text.size());
    for (qsizetype i = 0; i < tokens.size(); ++i) {
        if (i != bad)
            QCOMPARE(tokens.at(i).problem, SqlTokenProblem::None);
    }
    // The compiler refuses it, at the bad token.
    const auto read = sqlTokenize(text);
    QVERIFY(!read);
    const auto location = sqlParseErrorLocation(read.error());
    QVERIFY(location);
    QCOMPARE(location->position.line, tokens.at(bad).position.line);
    QCOMPARE(location->position.column, tokens.at(bad).position.column);
}

// The compiler's lexer is the cut with values: the same tokens, at the same places.
void TestSqlTokens::R3_theLexerReadsTheSameCut() {
    const QString text = QStringLiteral(
        "Color = 'it''s' aNd \"a \"\"b\"\"\" IN (1, .5, 7., 2e-3) oR NOT user.Is IS NULL\n"
        "AND sys.Label LIKE 'x!%' ESCAPE '!' AND q % 3 <> -4 AND [in] != 'two\nlines'");
    const QList<SqlTextToken> cut = sqlTokens(text);
    const auto read = sqlTokenize(text);
    QVERIFY(read);
    QCOMPARE(read->size(), cut.size());
    for (qsizetype i = 0; i < cut.size(); ++i) {
        const SqlToken& token = read->at(i);
        QCOMPARE(token.kind, cut.at(i).kind);
        QCOMPARE(token.text, cut.at(i).text);
        QCOMPARE(token.source, text.mid(cut.at(i).start, cut.at(i).length));
        QCOMPARE(token.position.line, cut.at(i).position.line);
        QCOMPARE(token.position.column, cut.at(i).position.column);
    }
    QCOMPARE(read->at(9).decimal, 0.5);
    QCOMPARE(read->at(13).decimal, 0.002);
}

void TestSqlTokens::R5_theCheckRefusesAsTheCompilerDoes_data() {
    QTest::addColumn<bool>("action");
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("statements"); // 0: refused

    QTest::newRow("filter") << false << QStringLiteral("color = 'red' AND n > 2") << 1;
    QTest::newRow("bad filter") << false << QStringLiteral("color == 'red'") << 0;
    QTest::newRow("unterminated filter") << false << QStringLiteral("color = 'red") << 0;
    QTest::newRow("action of two") << true << QStringLiteral("SET a = 1; REMOVE b") << 2;
    QTest::newRow("bad action") << true << QStringLiteral("SET = 1") << 0;
}

void TestSqlTokens::R5_theCheckRefusesAsTheCompilerDoes() {
    QFETCH(bool, action);
    QFETCH(QString, text);
    QFETCH(int, statements);
    std::optional<Error> compiled;
    std::optional<Error> checked;
    if (action) {
        if (auto a = SqlAction::compile(text); !a)
            compiled = a.error();
        const auto c = checkSqlAction(text);
        if (!c)
            checked = c.error();
        else
            QCOMPARE(*c, statements);
    } else {
        if (auto f = SqlFilter::compile(text); !f)
            compiled = f.error();
        if (auto c = checkSqlFilter(text); !c)
            checked = c.error();
    }
    QCOMPARE(checked.has_value(), statements == 0);
    QCOMPARE(compiled.has_value(), checked.has_value());
    if (!checked)
        return;
    QCOMPARE(checked->code, ErrorCode::InvalidArgument);
    QCOMPARE(checked->description, compiled->description);
    QVERIFY(sqlParseErrorLocation(*checked));
}

QTEST_GUILESS_MAIN(TestSqlTokens)
#include "tst_engine_sql_tokens.moc"
