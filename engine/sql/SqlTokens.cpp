// The one cut of an SQL filter or action text into tokens (hourglass/SqlTokens.h): the compiler
// reads it through SqlLexer, the rule dialog highlights it.
#include "hourglass/SqlTokens.h"

#include <QStringList>

namespace hourglass {

bool isSqlReservedWord(const QString& word) {
    static const QStringList words{
        QStringLiteral("AND"),   QStringLiteral("OR"),     QStringLiteral("NOT"),
        QStringLiteral("LIKE"),  QStringLiteral("ESCAPE"), QStringLiteral("IN"),
        QStringLiteral("IS"),    QStringLiteral("NULL"),   QStringLiteral("TRUE"),
        QStringLiteral("FALSE"), QStringLiteral("EXISTS"),
    };
    return words.contains(word, Qt::CaseInsensitive);
}

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

// Walks the text once, keeping the line and column of the next character.
class Cutter {
public:
    explicit Cutter(const QString& text)
        : m_text(text) {}

    QList<SqlTextToken> run() {
        QList<SqlTextToken> tokens;
        for (;;) {
            skipSpace();
            SqlTextToken token;
            token.position = m_position;
            token.start = m_index;
            if (atEnd()) {
                token.kind = SqlTokenKind::End;
                tokens.append(token);
                return tokens;
            }
            const QChar c = peek();
            if (c == u'\'') {
                token.kind = SqlTokenKind::String;
                delimited(u'\'', token);
            } else if (c == u'[' || c == u'"') {
                token.kind = SqlTokenKind::QuotedIdentifier;
                delimited(c == u'[' ? u']' : u'"', token);
            } else if (isDigit(c) || (c == u'.' && isDigit(peek(1)))) {
                number(token);
            } else if (isIdentifierStart(c)) {
                while (!atEnd() && isIdentifierPart(peek()))
                    advance();
                token.kind = SqlTokenKind::Identifier;
                token.text = m_text.mid(token.start, m_index - token.start);
            } else if (const QString op = operatorAt(); !op.isEmpty()) {
                for (qsizetype i = 0; i < op.size(); ++i)
                    advance();
                token.kind = SqlTokenKind::Operator;
                token.text = op;
            } else {
                advance();
                token.kind = SqlTokenKind::Invalid;
                token.problem = SqlTokenProblem::NotLanguage;
                token.text = QString(c);
            }
            token.length = m_index - token.start;
            tokens.append(token);
        }
    }

private:
    bool atEnd() const { return m_index >= m_text.size(); }
    QChar peek(qsizetype ahead = 0) const {
        return m_index + ahead < m_text.size() ? m_text.at(m_index + ahead) : QChar();
    }
    void advance() {
        if (m_text.at(m_index) == u'\n') {
            ++m_position.line;
            m_position.column = 1;
        } else {
            ++m_position.column;
        }
        ++m_index;
    }
    void skipSpace() {
        while (!atEnd() && peek().isSpace())
            advance();
    }

    // The text between the opening character at the current position and `close`, a doubled
    // `close` standing for one; unterminated when the text ends first.
    void delimited(QChar close, SqlTextToken& token) {
        advance();
        for (;;) {
            if (atEnd()) {
                token.problem = SqlTokenProblem::Unterminated;
                return;
            }
            const QChar c = peek();
            advance();
            if (c == close) {
                if (peek() != close)
                    return;
                advance();
            }
            token.text.append(c);
        }
    }

    void number(SqlTextToken& token) {
        bool decimal = false;
        while (isDigit(peek()))
            advance();
        if (peek() == u'.' && isDigit(peek(1))) {
            decimal = true;
            advance();
            while (isDigit(peek()))
                advance();
        } else if (peek() == u'.' && !isIdentifierStart(peek(1))) {
            // "5." is a decimal; "5.x" is left for the parser to refuse.
            decimal = true;
            advance();
        }
        if ((peek() == u'e' || peek() == u'E') &&
            (isDigit(peek(1)) || ((peek(1) == u'+' || peek(1) == u'-') && isDigit(peek(2))))) {
            decimal = true;
            advance();
            advance();
            while (isDigit(peek()))
                advance();
        }
        token.kind = decimal ? SqlTokenKind::Decimal : SqlTokenKind::Integer;
        token.text = m_text.mid(token.start, m_index - token.start);
        if (isIdentifierStart(peek()))
            token.problem = SqlTokenProblem::RunsIntoName;
    }

    QString operatorAt() const {
        static const char* const twoCharacters[] = {"<>", "!=", ">=", "<="};
        for (const char* op : twoCharacters) {
            if (peek() == QLatin1Char(op[0]) && peek(1) == QLatin1Char(op[1]))
                return QLatin1String(op);
        }
        static const QString single = QStringLiteral("=<>+-*/%(),.;");
        if (single.contains(peek()))
            return QString(peek());
        return {};
    }

    const QString& m_text;
    qsizetype m_index = 0;
    SqlPosition m_position;
};

} // namespace

QList<SqlTextToken> sqlTokens(const QString& text) {
    return Cutter(text).run();
}

} // namespace hourglass
