#pragma once
// Highlights the SQL filter and action language (service-bus-rules.md R3, R4) in a plain-text
// editor: keywords (AND OR NOT LIKE ESCAPE IN IS NULL EXISTS TRUE FALSE, and SET REMOVE in an
// action), 'string' constants (across lines too), numbers, and the sys./user. scopes. A [bracketed]
// or "quoted" name is a name, never a keyword, and so is any name after a '.' (user.in). The
// tokens are the engine's own cut (hourglass/SqlTokens.h, what its compiler reads), so a string
// or a number is coloured exactly where the compiler reads one. The colours follow the editor's
// palette (light or dark), and change with it.
//
// Each highlighted range's format carries its kind under kSqlTokenProperty (a TokenKind), so a
// test can tell a keyword from a string without knowing the colours.

#include "hourglass/SqlTokens.h"

#include <QSyntaxHighlighter>
#include <QTextCharFormat>

#include <optional>

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
    // Block states: inside a token that continues on the next line. A change that leaves a
    // line's state as it was leaves every later line's tokens as they were.
    enum State { Normal = -1, InString = 1, InBracketName, InQuotedName };

    void updateFormats();
    // The document cut into tokens, again only when its text changed.
    void cutDocument();
    // How token `i` of the cut is shown; none for plain text (names, operators, quoted names).
    std::optional<TokenKind> kindOf(qsizetype i) const;
    // Whether token `i` of the cut is the operator '.' (false out of range).
    bool isDot(qsizetype i) const;
    // Whether token `i` is a plain identifier "sys" or "user" right before its '.', not itself
    // after one.
    bool isScope(qsizetype i) const;
    bool isKeyword(const QString& word) const;

    QPlainTextEdit* m_editor;
    Language m_language;
    QTextCharFormat m_keyword;
    QTextCharFormat m_string;
    QTextCharFormat m_number;
    QTextCharFormat m_scope;
    QString m_cutText;            // the document's text as last cut
    QList<SqlTextToken> m_tokens; // its tokens
};

} // namespace hourglass::ui
