#pragma once
// Highlights the SQL filter and action language (service-bus-rules.md R3, R4) in a plain-text
// editor: keywords (AND OR NOT LIKE ESCAPE IN IS NULL EXISTS TRUE FALSE, and SET REMOVE in an
// action), 'string' constants (across lines too), numbers, and the sys./user. scopes. A [bracketed]
// or "quoted" name is a name, never a keyword, and so is any name after a scope (user.in). The
// colours follow the editor's palette (light or dark), and change with it.
//
// Each highlighted range's format carries its kind under kSqlTokenProperty (a TokenKind), so a
// test can tell a keyword from a string without knowing the colours.

#include <QSyntaxHighlighter>
#include <QTextCharFormat>

class QPlainTextEdit;

namespace hourglass::ui {

class SqlHighlighter : public QSyntaxHighlighter {
    Q_OBJECT
public:
    enum class Language { Filter, Action };
    enum class TokenKind { Keyword = 1, String, Number, Scope };
    static constexpr int kSqlTokenProperty = QTextFormat::UserProperty + 1;

    // Highlights `editor`'s document and follows its palette.
    SqlHighlighter(QPlainTextEdit* editor, Language language);

    QTextCharFormat format(TokenKind kind) const;

protected:
    void highlightBlock(const QString& text) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    // Block states: inside a construct that continues on the next line.
    enum State { Normal = -1, InString = 1, InBracketName, InQuotedName };

    void updateFormats();
    // From `from` (just past the opening character, or 0 when continuing a line), the index just
    // past the closing `close`, a doubled one standing for itself; -1 when the line ends first.
    static int closingIndex(const QString& text, int from, QChar close);
    bool isKeyword(const QString& word) const;

    QPlainTextEdit* m_editor;
    Language m_language;
    QTextCharFormat m_keyword;
    QTextCharFormat m_string;
    QTextCharFormat m_number;
    QTextCharFormat m_scope;
};

} // namespace hourglass::ui
