#include "entities/SqlHighlighter.h"

#include <QEvent>
#include <QPlainTextEdit>
#include <QTextBlock>
#include <QTextDocument>

namespace hourglass::ui {

SqlHighlighter::SqlHighlighter(QPlainTextEdit* editor, Language language)
    : QSyntaxHighlighter(editor->document())
    , m_editor(editor)
    , m_language(language) {
    updateFormats();
    editor->installEventFilter(this);
}

QTextCharFormat SqlHighlighter::format(TokenKind kind) const {
    switch (kind) {
    case TokenKind::Keyword:
        return m_keyword;
    case TokenKind::String:
        return m_string;
    case TokenKind::Number:
        return m_number;
    case TokenKind::Scope:
        break;
    }
    return m_scope;
}

bool SqlHighlighter::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_editor && event->type() == QEvent::PaletteChange) {
        updateFormats();
        rehighlight();
    }
    return QSyntaxHighlighter::eventFilter(watched, event);
}

void SqlHighlighter::updateFormats() {
    // Pairs picked to read on the light and on the dark palette (the dark theme's base is
    // #1f2124), chosen by the editor's own palette: text lighter than its base is dark.
    const QPalette palette = m_editor->palette();
    const bool dark =
        palette.color(QPalette::Text).lightness() > palette.color(QPalette::Base).lightness();
    const auto make = [](TokenKind kind, const QColor& color) {
        QTextCharFormat format;
        format.setForeground(color);
        format.setProperty(kSqlTokenProperty, int(kind));
        return format;
    };
    m_keyword =
        make(TokenKind::Keyword, dark ? QColor(0x6c, 0xa8, 0xf0) : QColor(0x1f, 0x4f, 0xb0));
    m_keyword.setFontWeight(QFont::Bold);
    m_string = make(TokenKind::String, dark ? QColor(0x9c, 0xd6, 0x8a) : QColor(0x2e, 0x7d, 0x32));
    m_number = make(TokenKind::Number, dark ? QColor(0xf0, 0xc0, 0x5a) : QColor(0x9a, 0x5b, 0x00));
    m_scope = make(TokenKind::Scope, dark ? QColor(0xc7, 0x92, 0xea) : QColor(0x7b, 0x3f, 0xb8));
}

bool SqlHighlighter::isKeyword(const QString& word) const {
    if (isSqlReservedWord(word))
        return true;
    return m_language == Language::Action &&
           (word.compare(QLatin1String("SET"), Qt::CaseInsensitive) == 0 ||
            word.compare(QLatin1String("REMOVE"), Qt::CaseInsensitive) == 0);
}

void SqlHighlighter::cutDocument() {
    // A rule's text is short (the engine takes 1,024 characters): cutting it whole on each change
    // is cheap, and a string that opens on one line and closes on another is then one token.
    const QString text = document()->toPlainText();
    if (text == m_cutText && !m_tokens.isEmpty())
        return;
    m_cutText = text;
    m_tokens = sqlTokens(text);
}

bool SqlHighlighter::isDot(qsizetype i) const {
    return i >= 0 && i < m_tokens.size() && m_tokens.at(i).kind == SqlTokenKind::Operator &&
           m_tokens.at(i).text == QLatin1String(".");
}

bool SqlHighlighter::isScope(qsizetype i) const {
    const SqlTextToken& token = m_tokens.at(i);
    return token.kind == SqlTokenKind::Identifier && !isDot(i - 1) && isDot(i + 1) &&
           m_tokens.at(i + 1).start == token.start + token.length &&
           (token.text.compare(QLatin1String("sys"), Qt::CaseInsensitive) == 0 ||
            token.text.compare(QLatin1String("user"), Qt::CaseInsensitive) == 0);
}

std::optional<SqlHighlighter::TokenKind> SqlHighlighter::kindOf(qsizetype i) const {
    const SqlTextToken& token = m_tokens.at(i);
    switch (token.kind) {
    case SqlTokenKind::String:
        return TokenKind::String;
    case SqlTokenKind::Integer:
    case SqlTokenKind::Decimal:
        return TokenKind::Number;
    case SqlTokenKind::Identifier:
        if (isScope(i))
            return TokenKind::Scope;
        // A name after a '.' is a name, whatever it spells (user.in).
        if (!isDot(i - 1) && isKeyword(token.text))
            return TokenKind::Keyword;
        return std::nullopt;
    case SqlTokenKind::Operator:
        if (isDot(i) && i > 0 && isScope(i - 1))
            return TokenKind::Scope; // a scope's '.' is shown with it
        return std::nullopt;
    case SqlTokenKind::QuotedIdentifier:
    case SqlTokenKind::Invalid:
    case SqlTokenKind::End:
        break;
    }
    return std::nullopt;
}

void SqlHighlighter::highlightBlock(const QString& text) {
    cutDocument();
    const qsizetype blockStart = currentBlock().position();
    const qsizetype blockEnd = blockStart + text.size();
    int state = Normal;
    for (qsizetype i = 0; i < m_tokens.size(); ++i) {
        const SqlTextToken& token = m_tokens.at(i);
        const qsizetype end = token.start + token.length;
        if (token.start >= blockEnd)
            break;
        if (end <= blockStart)
            continue;
        if (end > blockEnd) { // runs on into the next line: a string or a delimited name
            const QChar open = m_cutText.at(token.start);
            state = open == u'\'' ? InString : open == u'[' ? InBracketName : InQuotedName;
        }
        const auto kind = kindOf(i);
        if (!kind)
            continue;
        const qsizetype from = qMax(token.start, blockStart);
        setFormat(int(from - blockStart), int(qMin(end, blockEnd) - from), format(*kind));
    }
    setCurrentBlockState(state);
}

} // namespace hourglass::ui
