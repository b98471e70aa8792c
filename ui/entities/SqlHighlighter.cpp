#include "entities/SqlHighlighter.h"

#include "sql/SqlToken.h"

#include <QEvent>
#include <QPlainTextEdit>

namespace hourglass::ui {

namespace {

bool isIdentifierStart(QChar c) {
    return c.isLetter() || c == u'_';
}

bool isIdentifierPart(QChar c) {
    return c.isLetterOrNumber() || c == u'_';
}

bool isDigit(QChar c) {
    return c >= u'0' && c <= u'9';
}

QChar at(const QString& text, int i) {
    return i >= 0 && i < text.size() ? text.at(i) : QChar();
}

} // namespace

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

int SqlHighlighter::closingIndex(const QString& text, int from, QChar close) {
    for (int i = from; i < text.size(); ++i) {
        if (text.at(i) != close)
            continue;
        if (at(text, i + 1) != close)
            return i + 1;
        ++i; // doubled: the character itself
    }
    return -1;
}

bool SqlHighlighter::isKeyword(const QString& word) const {
    if (isSqlReservedWord(word))
        return true;
    return m_language == Language::Action &&
           (word.compare(QLatin1String("SET"), Qt::CaseInsensitive) == 0 ||
            word.compare(QLatin1String("REMOVE"), Qt::CaseInsensitive) == 0);
}

void SqlHighlighter::highlightBlock(const QString& text) {
    setCurrentBlockState(Normal);
    int i = 0;
    // A string or delimited name that the line before left open.
    if (const int state = previousBlockState(); state != Normal) {
        const QChar close = state == InString ? u'\'' : state == InBracketName ? u']' : u'"';
        const int end = closingIndex(text, 0, close);
        if (state == InString)
            setFormat(0, end < 0 ? int(text.size()) : end, m_string);
        if (end < 0) {
            setCurrentBlockState(state);
            return;
        }
        i = end;
    }
    bool afterDot = false; // a name after a scope's '.' is a name, whatever it spells
    while (i < text.size()) {
        const QChar c = text.at(i);
        if (c.isSpace()) {
            ++i;
            continue;
        }
        const int start = i;
        if (c == u'\'' || c == u'[' || c == u'"') {
            const QChar close = c == u'[' ? u']' : c;
            const int end = closingIndex(text, i + 1, close);
            if (c == u'\'')
                setFormat(start, (end < 0 ? int(text.size()) : end) - start, m_string);
            if (end < 0) {
                setCurrentBlockState(c == u'\''  ? InString
                                     : c == u'[' ? InBracketName
                                                 : InQuotedName);
                return;
            }
            i = end;
            afterDot = false;
            continue;
        }
        if (isDigit(c) || (c == u'.' && isDigit(at(text, i + 1)))) {
            while (isDigit(at(text, i)))
                ++i;
            if (at(text, i) == u'.' && !isIdentifierStart(at(text, i + 1))) {
                ++i;
                while (isDigit(at(text, i)))
                    ++i;
            }
            const QChar sign = at(text, i + 1);
            if ((at(text, i) == u'e' || at(text, i) == u'E') &&
                (isDigit(sign) || ((sign == u'+' || sign == u'-') && isDigit(at(text, i + 2))))) {
                i += 2;
                while (isDigit(at(text, i)))
                    ++i;
            }
            setFormat(start, i - start, m_number);
            afterDot = false;
            continue;
        }
        if (isIdentifierStart(c)) {
            while (isIdentifierPart(at(text, i)))
                ++i;
            const QString word = text.mid(start, i - start);
            const bool scope = at(text, i) == u'.' &&
                               (word.compare(QLatin1String("sys"), Qt::CaseInsensitive) == 0 ||
                                word.compare(QLatin1String("user"), Qt::CaseInsensitive) == 0);
            if (scope && !afterDot) {
                setFormat(start, i - start + 1, m_scope); // with its '.'
                ++i;
                afterDot = true;
                continue;
            }
            if (!afterDot && isKeyword(word))
                setFormat(start, i - start, m_keyword);
            afterDot = false;
            continue;
        }
        afterDot = c == u'.';
        ++i;
    }
}

} // namespace hourglass::ui
