#include "SqlLexer.h"

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
class Lexer {
public:
    explicit Lexer(const QString& text)
        : m_text(text) {}

    Result<QList<SqlToken>> run() {
        QList<SqlToken> tokens;
        for (;;) {
            skipSpace();
            SqlToken token;
            token.position = m_position;
            const qsizetype start = m_index;
            if (atEnd()) {
                token.kind = SqlTokenKind::End;
                tokens.append(token);
                return tokens;
            }
            const QChar c = peek();
            if (c == u'\'') {
                auto text = delimited(u'\'', QStringLiteral("a string constant"));
                if (!text)
                    return text.error();
                token.kind = SqlTokenKind::String;
                token.text = *text;
            } else if (c == u'[' || c == u'"') {
                auto text = delimited(c == u'[' ? u']' : u'"', QStringLiteral("a delimited name"));
                if (!text)
                    return text.error();
                token.kind = SqlTokenKind::QuotedIdentifier;
                token.text = *text;
            } else if (isDigit(c) || (c == u'.' && isDigit(peek(1)))) {
                if (auto r = number(token); !r)
                    return r.error();
            } else if (isIdentifierStart(c)) {
                while (!atEnd() && isIdentifierPart(peek()))
                    advance();
                token.kind = SqlTokenKind::Identifier;
                token.text = m_text.mid(start, m_index - start);
            } else if (auto op = operatorAt(); !op.isEmpty()) {
                for (qsizetype i = 0; i < op.size(); ++i)
                    advance();
                token.kind = SqlTokenKind::Operator;
                token.text = op;
            } else {
                return sqlParseError(token.position, QString(c),
                                     QStringLiteral("The character '%1' is not part of the "
                                                    "language.")
                                         .arg(c));
            }
            token.source = m_text.mid(start, m_index - start);
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

    // The text between `close` and the opening character at the current position, with a
    // doubled `close` standing for one.
    Result<QString> delimited(QChar close, const QString& what) {
        const SqlPosition position = m_position;
        const qsizetype start = m_index;
        advance();
        QString text;
        for (;;) {
            if (atEnd())
                return sqlParseError(position, m_text.mid(start),
                                     QStringLiteral("Unterminated %1.").arg(what));
            const QChar c = peek();
            advance();
            if (c == close) {
                if (peek() != close)
                    return text;
                advance();
            }
            text.append(c);
        }
    }

    Result<void> number(SqlToken& token) {
        const qsizetype start = m_index;
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
        const QString source = m_text.mid(start, m_index - start);
        bool ok = false;
        if (decimal) {
            token.kind = SqlTokenKind::Decimal;
            token.decimal = source.toDouble(&ok);
        } else {
            token.kind = SqlTokenKind::Integer;
            token.integer = source.toLongLong(&ok);
        }
        token.text = source;
        if (!ok)
            return sqlParseError(token.position, source,
                                 QStringLiteral("The number is out of range."));
        if (isIdentifierStart(peek()))
            return sqlParseError(token.position, source + peek(),
                                 QStringLiteral("A number runs into a name."));
        return {};
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

Result<QList<SqlToken>> sqlTokenize(const QString& text) {
    return Lexer(text).run();
}

} // namespace hourglass
