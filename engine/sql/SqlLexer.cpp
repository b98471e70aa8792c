#include "SqlLexer.h"

namespace hourglass {

namespace {

// The compiler's reading of one cut token: its value, or the refusal of what it cannot read.
Result<SqlToken> read(const QString& text, const SqlTextToken& cut) {
    SqlToken token;
    token.kind = cut.kind;
    token.text = cut.text;
    token.source = text.mid(cut.start, cut.length);
    token.position = cut.position;
    switch (cut.problem) {
    case SqlTokenProblem::None:
    case SqlTokenProblem::RunsIntoName: // the number is read first: out of range comes first
        break;
    case SqlTokenProblem::Unterminated:
        return sqlParseError(cut.position, token.source,
                             QStringLiteral("Unterminated %1.")
                                 .arg(cut.kind == SqlTokenKind::String
                                          ? QStringLiteral("a string constant")
                                          : QStringLiteral("a delimited name")));
    case SqlTokenProblem::NotLanguage:
        return sqlParseError(
            cut.position, cut.text,
            QStringLiteral("The character '%1' is not part of the language.").arg(cut.text));
    }
    bool ok = true;
    if (cut.kind == SqlTokenKind::Decimal)
        token.decimal = cut.text.toDouble(&ok);
    else if (cut.kind == SqlTokenKind::Integer)
        token.integer = cut.text.toLongLong(&ok);
    if (!ok)
        return sqlParseError(cut.position, cut.text, QStringLiteral("The number is out of range."));
    if (cut.problem == SqlTokenProblem::RunsIntoName)
        return sqlParseError(cut.position, cut.text + text.at(cut.start + cut.length),
                             QStringLiteral("A number runs into a name."));
    return token;
}

} // namespace

Result<QList<SqlToken>> sqlTokenize(const QString& text) {
    QList<SqlToken> tokens;
    for (const SqlTextToken& cut : sqlTokens(text)) {
        auto token = read(text, cut);
        if (!token)
            return token.error();
        tokens.append(std::move(*token));
    }
    return tokens;
}

} // namespace hourglass
