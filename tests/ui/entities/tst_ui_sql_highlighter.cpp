// The rule dialog's SQL highlighter shows the engine's own tokens (R3): on a tricky text (strings
// with doubled quotes and over two lines, numbers of every form, operators, keywords in mixed
// case, delimited names, names after a '.'), every character is coloured as a string exactly
// where the engine's lexer reads a string, as a number where it reads a number, as a keyword
// where it reads a reserved word that is not a name after a '.', as a scope for sys./user.,
// and not at all elsewhere.

#include "entities/SqlExpressionField.h"
#include "entities/SqlHighlighter.h"
#include "sql/SqlLexer.h"

#include <QPlainTextEdit>
#include <QTest>
#include <QTextBlock>
#include <QTextLayout>

using namespace hourglass;
using namespace hourglass::ui;

namespace {

// The kind the highlighter gave the character at `position` of `editor` (0: plain).
int shownKindAt(QPlainTextEdit* editor, int position) {
    const QTextBlock block = editor->document()->findBlock(position);
    const int inBlock = position - block.position();
    for (const QTextLayout::FormatRange& range : block.layout()->formats())
        if (inBlock >= range.start && inBlock < range.start + range.length)
            return range.format.property(SqlHighlighter::kSqlTokenProperty).toInt();
    return 0;
}

// The index in `text` of a 1-based line and column as the lexer counts them.
qsizetype indexOf(const QString& text, SqlPosition position) {
    qsizetype i = 0;
    for (int line = 1; line < position.line; ++i)
        if (text.at(i) == u'\n')
            ++line;
    return i + position.column - 1;
}

bool isScopeName(const SqlToken& token) {
    return token.kind == SqlTokenKind::Identifier &&
           (token.text.compare(QLatin1String("sys"), Qt::CaseInsensitive) == 0 ||
            token.text.compare(QLatin1String("user"), Qt::CaseInsensitive) == 0);
}

} // namespace

class TestUiSqlHighlighter : public QObject {
    Q_OBJECT
private slots:
    void R3_highlightedAsTheEngineLexes();
};

void TestUiSqlHighlighter::R3_highlightedAsTheEngineLexes() {
    SqlExpressionField field(SqlExpressionField::Language::Filter, QStringLiteral("sqlExpression"));
    auto* editor = field.findChild<QPlainTextEdit*>(QStringLiteral("sqlExpression"));
    QVERIFY(editor);
    const QString text = QStringLiteral(
        "Color = 'it''s' aNd \"a \"\"b\"\"\" IN (1, .5, 7., 2e-3, 1E+2) oR NOT user.Is IS NULL\n"
        "AND sys.Label LIKE 'x!%' ESCAPE '!' AND q % 3 <> -4 AND [in] != 'two\n"
        "lines' AnD [a]]b] = 5.x OR user.\n"
        "in >= 1.e5 AND sys . nOt = 2");
    editor->setPlainText(text);
    // The highlighter's first pass over a new document runs from the event loop.
    QTRY_COMPARE(shownKindAt(editor, int(text.indexOf(u'\''))),
                 int(SqlHighlighter::TokenKind::String));

    // What each character should show, from the engine's own lexer.
    const auto tokens = sqlTokenize(text);
    QVERIFY(tokens);
    QList<int> expected(text.size(), 0);
    for (qsizetype i = 0; i < tokens->size(); ++i) {
        const SqlToken& token = tokens->at(i);
        const qsizetype start = indexOf(text, token.position);
        const bool afterDot = i > 0 && tokens->at(i - 1).isOperator(".");
        const bool dotNext =
            i + 1 < tokens->size() && tokens->at(i + 1).isOperator(".") &&
            indexOf(text, tokens->at(i + 1).position) == start + token.source.size();
        int kind = 0;
        if (token.kind == SqlTokenKind::String)
            kind = int(SqlHighlighter::TokenKind::String);
        else if (token.kind == SqlTokenKind::Integer || token.kind == SqlTokenKind::Decimal)
            kind = int(SqlHighlighter::TokenKind::Number);
        else if (isScopeName(token) && dotNext && !afterDot)
            kind = int(SqlHighlighter::TokenKind::Scope);
        else if (token.isOperator(".") && i > 0 && isScopeName(tokens->at(i - 1)) &&
                 indexOf(text, tokens->at(i - 1).position) + tokens->at(i - 1).source.size() ==
                     start &&
                 !(i > 1 && tokens->at(i - 2).isOperator(".")))
            kind = int(SqlHighlighter::TokenKind::Scope);
        else if (token.kind == SqlTokenKind::Identifier && !afterDot &&
                 isSqlReservedWord(token.text))
            kind = int(SqlHighlighter::TokenKind::Keyword);
        for (qsizetype c = start; c < start + token.source.size(); ++c)
            if (text.at(c) != u'\n')
                expected[c] = kind;
    }
    for (qsizetype c = 0; c < text.size(); ++c) {
        if (text.at(c) == u'\n')
            continue;
        QVERIFY2(shownKindAt(editor, int(c)) == expected[c],
                 qPrintable(QStringLiteral("at %1 ('%2' in \"%3\"): shown %4, the lexer says %5")
                                .arg(c)
                                .arg(text.at(c))
                                .arg(text.mid(qMax<qsizetype>(0, c - 8), 16))
                                .arg(shownKindAt(editor, int(c)))
                                .arg(expected[c])));
    }
    // The text has each kind at least once.
    for (const auto kind : {SqlHighlighter::TokenKind::String, SqlHighlighter::TokenKind::Number,
                            SqlHighlighter::TokenKind::Keyword, SqlHighlighter::TokenKind::Scope})
        QVERIFY(expected.contains(int(kind)));
}

QTEST_MAIN(TestUiSqlHighlighter)
#include "tst_ui_sql_highlighter.moc"
