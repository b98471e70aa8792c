#include "SqlParser.h"

#include "SqlLexer.h"

#include <QLocale>

namespace hourglass {

namespace {

Result<void> checkLength(const QString& text) {
    if (text.size() <= kSqlMaxTextLength)
        return {};
    // Grouped like the service's own limits text ("1,024").
    const QLocale english(QLocale::English, QLocale::UnitedStates);
    return makeError(ErrorCode::InvalidArgument,
                     QStringLiteral("The SQL expression is %1 characters long; at most %2 are "
                                    "allowed.")
                         .arg(english.toString(text.size()), english.toString(kSqlMaxTextLength)));
}

class Parser {
public:
    explicit Parser(QList<SqlToken> tokens)
        : m_tokens(std::move(tokens)) {}

    const SqlToken& current() const { return m_tokens.at(m_index); }
    bool atEnd() const { return current().kind == SqlTokenKind::End; }
    void advance() {
        if (!atEnd())
            ++m_index;
    }

    Error unexpected(const QString& details) const {
        const SqlToken& token = current();
        return sqlParseError(token.position,
                             token.kind == SqlTokenKind::End ? QStringLiteral("<end of text>")
                                                             : token.source,
                             details);
    }

    Result<void> expectOperator(const char* op) {
        if (!current().isOperator(op))
            return unexpected(QStringLiteral("Expected '%1'.").arg(QLatin1String(op)));
        advance();
        return {};
    }

    // The whole text, or a nested expression (in parentheses, a function's argument): refused
    // past kSqlMaxNesting levels, before the recursion can exhaust the stack.
    Result<SqlNodePtr> expression() {
        if (m_depth > kSqlMaxNesting)
            return unexpected(
                QStringLiteral("Expressions nest more than %1 levels deep.").arg(kSqlMaxNesting));
        ++m_depth;
        auto result = orExpression();
        --m_depth;
        return result;
    }

    // A predicate operand of NOT, AND, OR, or a whole filter.
    static Result<SqlNodePtr> predicate(Result<SqlNodePtr> node) {
        if (!node)
            return node;
        if (!(*node)->isPredicate())
            return sqlParseError((*node)->position, (*node)->token,
                                 QStringLiteral("Expected a predicate (a comparison, LIKE, IN, "
                                                "IS NULL or EXISTS), not a value."));
        return node;
    }

    Result<SqlPropertyRef> propertyName() {
        SqlPropertyRef ref;
        const SqlToken& first = current();
        if (first.kind == SqlTokenKind::Identifier && m_tokens.at(m_index + 1).isOperator(".")) {
            const bool system = first.isKeyword("sys");
            if (!system && !first.isKeyword("user"))
                return unexpected(QStringLiteral("A property's scope is 'sys' or 'user'."));
            advance();
            advance();
            const SqlToken& name = current();
            if (name.kind != SqlTokenKind::Identifier &&
                name.kind != SqlTokenKind::QuotedIdentifier)
                return unexpected(QStringLiteral("Expected a property name."));
            ref.name = name.text;
            if (system) {
                ref.system = findSqlSystemProperty(name.text);
                if (!ref.system)
                    return unexpected(
                        QStringLiteral("'%1' is not a system property.").arg(name.text));
            }
            advance();
            return ref;
        }
        if (first.kind == SqlTokenKind::QuotedIdentifier ||
            (first.kind == SqlTokenKind::Identifier && !isSqlReservedWord(first.text))) {
            ref.name = first.text;
            advance();
            return ref;
        }
        return unexpected(QStringLiteral("Expected a property name."));
    }

private:
    SqlNodePtr node(SqlNodeKind kind, const SqlToken& at) const {
        auto n = std::make_unique<SqlNode>();
        n->kind = kind;
        n->position = at.position;
        n->token = at.source;
        return n;
    }

    // A node whose first operand is `left`, found at left's place (errors point there).
    SqlNodePtr after(SqlNodeKind kind, SqlNodePtr left) const {
        auto n = std::make_unique<SqlNode>();
        n->kind = kind;
        n->position = left->position;
        n->token = left->token;
        n->operands.push_back(std::move(left));
        return n;
    }

    SqlNodePtr binary(SqlNodeKind kind, SqlNodePtr left, SqlNodePtr right) const {
        auto n = after(kind, std::move(left));
        n->operands.push_back(std::move(right));
        return n;
    }

    // OR over ANDs, AND over NOTs: one loop for both levels, each side a predicate.
    Result<SqlNodePtr> orExpression() {
        return logical("OR", SqlNodeKind::Or, &Parser::andExpression);
    }

    Result<SqlNodePtr> andExpression() {
        return logical("AND", SqlNodeKind::And, &Parser::notExpression);
    }

    Result<SqlNodePtr> logical(const char* keyword, SqlNodeKind kind,
                               Result<SqlNodePtr> (Parser::*operand)()) {
        auto left = (this->*operand)();
        while (left && current().isKeyword(keyword)) {
            if (!(*left)->isPredicate())
                return predicate(std::move(left));
            advance();
            auto right = predicate((this->*operand)());
            if (!right)
                return right;
            left = binary(kind, std::move(*left), std::move(*right));
        }
        return left;
    }

    Result<SqlNodePtr> notExpression() {
        if (!current().isKeyword("NOT"))
            return comparison();
        auto n = node(SqlNodeKind::Not, current());
        advance();
        auto operand = predicate(notExpression());
        if (!operand)
            return operand;
        n->operands.push_back(std::move(*operand));
        return n;
    }

    std::optional<SqlOperator> comparisonOperator() const {
        static const std::pair<const char*, SqlOperator> operators[] = {
            {"=", SqlOperator::Equal},           {"<>", SqlOperator::NotEqual},
            {"!=", SqlOperator::NotEqual},       {"<", SqlOperator::Less},
            {"<=", SqlOperator::LessOrEqual},    {">", SqlOperator::Greater},
            {">=", SqlOperator::GreaterOrEqual},
        };
        for (const auto& [text, op] : operators) {
            if (current().isOperator(text))
                return op;
        }
        return std::nullopt;
    }

    Result<SqlNodePtr> comparison() {
        auto left = additive();
        if (!left)
            return left;
        if (const auto op = comparisonOperator()) {
            advance();
            auto right = additive();
            if (!right)
                return right;
            auto n = binary(SqlNodeKind::Compare, std::move(*left), std::move(*right));
            n->op = *op;
            return n;
        }
        bool negated = false;
        if (current().isKeyword("NOT")) {
            const SqlToken& next = m_tokens.at(m_index + 1);
            if (!next.isKeyword("LIKE") && !next.isKeyword("IN")) {
                advance();
                return unexpected(QStringLiteral("Expected LIKE or IN after NOT."));
            }
            negated = true;
            advance();
        }
        if (current().isKeyword("LIKE"))
            return like(std::move(*left), negated);
        if (current().isKeyword("IN"))
            return in(std::move(*left), negated);
        if (current().isKeyword("IS"))
            return isNull(std::move(*left));
        return left;
    }

    Result<SqlNodePtr> like(SqlNodePtr left, bool negated) {
        advance();
        auto n = after(SqlNodeKind::Like, std::move(left));
        n->negated = negated;
        if (current().kind != SqlTokenKind::String)
            return unexpected(QStringLiteral("LIKE takes a string constant as its pattern."));
        n->pattern = current().text;
        advance();
        if (current().isKeyword("ESCAPE")) {
            advance();
            if (current().kind != SqlTokenKind::String || current().text.size() != 1)
                return unexpected(QStringLiteral("ESCAPE takes a string of one character."));
            n->escape = current().text.at(0);
            // A pattern ending in the escape character escapes nothing.
            bool escaping = false;
            for (const QChar c : std::as_const(n->pattern))
                escaping = !escaping && c == *n->escape;
            if (escaping)
                return unexpected(QStringLiteral("The LIKE pattern ends with its escape "
                                                 "character."));
            advance();
        }
        return n;
    }

    Result<SqlNodePtr> in(SqlNodePtr left, bool negated) {
        advance();
        auto n = after(SqlNodeKind::In, std::move(left));
        n->negated = negated;
        if (auto r = expectOperator("("); !r)
            return r.error();
        for (;;) {
            auto item = additive();
            if (!item)
                return item;
            n->operands.push_back(std::move(*item));
            if (current().isOperator(",")) {
                advance();
                continue;
            }
            if (auto r = expectOperator(")"); !r)
                return r.error();
            return n;
        }
    }

    Result<SqlNodePtr> isNull(SqlNodePtr left) {
        advance();
        auto n = after(SqlNodeKind::IsNull, std::move(left));
        if (current().isKeyword("NOT")) {
            n->negated = true;
            advance();
        }
        if (!current().isKeyword("NULL"))
            return unexpected(QStringLiteral("Expected NULL after IS."));
        advance();
        return n;
    }

    Result<SqlNodePtr> additive() {
        auto left = multiplicative();
        while (left && (current().isOperator("+") || current().isOperator("-"))) {
            const SqlOperator op =
                current().isOperator("+") ? SqlOperator::Add : SqlOperator::Subtract;
            advance();
            auto right = multiplicative();
            if (!right)
                return right;
            left = binary(SqlNodeKind::Arithmetic, std::move(*left), std::move(*right));
            (*left)->op = op;
        }
        return left;
    }

    Result<SqlNodePtr> multiplicative() {
        auto left = unary();
        while (left && (current().isOperator("*") || current().isOperator("/") ||
                        current().isOperator("%"))) {
            const SqlOperator op = current().isOperator("*")   ? SqlOperator::Multiply
                                   : current().isOperator("/") ? SqlOperator::Divide
                                                               : SqlOperator::Modulo;
            advance();
            auto right = unary();
            if (!right)
                return right;
            left = binary(SqlNodeKind::Arithmetic, std::move(*left), std::move(*right));
            (*left)->op = op;
        }
        return left;
    }

    Result<SqlNodePtr> unary() {
        const SqlToken sign = current();
        if (!sign.isOperator("+") && !sign.isOperator("-"))
            return primary();
        advance();
        auto operand = unary();
        if (!operand)
            return operand;
        if ((*operand)->isPredicate())
            return sqlParseError((*operand)->position, (*operand)->token,
                                 QStringLiteral("A sign applies to a number, not a predicate."));
        if (sign.isOperator("+"))
            return operand;
        // A negative constant is a constant, so that -9 reads as one value in IN lists.
        SqlNode& value = **operand;
        if (value.kind == SqlNodeKind::Constant && value.constant.typeId() == QMetaType::LongLong &&
            value.constant.toLongLong() != std::numeric_limits<qlonglong>::min()) {
            value.constant = QVariant(-value.constant.toLongLong());
            value.position = sign.position;
            value.token = sign.source;
            return operand;
        }
        if (value.kind == SqlNodeKind::Constant && value.constant.typeId() == QMetaType::Double) {
            value.constant = QVariant(-value.constant.toDouble());
            value.position = sign.position;
            value.token = sign.source;
            return operand;
        }
        auto n = node(SqlNodeKind::Negate, sign);
        n->operands.push_back(std::move(*operand));
        return n;
    }

    Result<SqlNodePtr> constant(const SqlToken& at, QVariant value) {
        auto n = node(SqlNodeKind::Constant, at);
        n->constant = std::move(value);
        advance();
        return n;
    }

    Result<SqlNodePtr> primary() {
        const SqlToken at = current();
        switch (at.kind) {
        case SqlTokenKind::Integer:
            return constant(at, QVariant(qlonglong(at.integer)));
        case SqlTokenKind::Decimal:
            return constant(at, QVariant(at.decimal));
        case SqlTokenKind::String:
            return constant(at, QVariant(at.text));
        case SqlTokenKind::End:
        case SqlTokenKind::Invalid: // never read: the lexer refuses it
            return unexpected(QStringLiteral("Expected an expression."));
        case SqlTokenKind::Operator:
            if (at.isOperator("(")) {
                advance();
                auto inner = expression();
                if (!inner)
                    return inner;
                if (auto r = expectOperator(")"); !r)
                    return r.error();
                return inner;
            }
            return unexpected(QStringLiteral("Expected an expression."));
        case SqlTokenKind::Identifier:
            if (at.isKeyword("TRUE"))
                return constant(at, QVariant(true));
            if (at.isKeyword("FALSE"))
                return constant(at, QVariant(false));
            if (at.isKeyword("NULL"))
                return constant(at, QVariant());
            if (at.isKeyword("EXISTS"))
                return exists();
            if (m_tokens.at(m_index + 1).isOperator("("))
                return function();
            if (isSqlReservedWord(at.text))
                return unexpected(QStringLiteral("Expected an expression."));
            break;
        case SqlTokenKind::QuotedIdentifier:
            break;
        }
        auto n = node(SqlNodeKind::Property, at);
        auto ref = propertyName();
        if (!ref)
            return ref.error();
        n->property = *ref;
        return n;
    }

    Result<SqlNodePtr> exists() {
        auto n = node(SqlNodeKind::Exists, current());
        advance();
        if (auto r = expectOperator("("); !r)
            return r.error();
        auto ref = propertyName();
        if (!ref)
            return ref.error();
        n->property = *ref;
        if (auto r = expectOperator(")"); !r)
            return r.error();
        return n;
    }

    Result<SqlNodePtr> function() {
        const SqlToken at = current();
        if (at.isKeyword("newid")) {
            auto n = node(SqlNodeKind::NewId, at);
            advance();
            advance();
            if (auto r = expectOperator(")"); !r)
                return r.error();
            return n;
        }
        if (at.isKeyword("property")) {
            auto n = node(SqlNodeKind::PropertyFunction, at);
            advance();
            advance();
            auto argument = expression();
            if (!argument)
                return argument;
            n->operands.push_back(std::move(*argument));
            if (auto r = expectOperator(")"); !r)
                return r.error();
            return n;
        }
        return unexpected(QStringLiteral("'%1' is not a function (newid, property).").arg(at.text));
    }

    QList<SqlToken> m_tokens;
    qsizetype m_index = 0;
    int m_depth = 0; // expressions being parsed, nested (expression())
};

} // namespace

Result<SqlTree> parseSqlFilter(const QString& text) {
    if (auto r = checkLength(text); !r)
        return r.error();
    auto tokens = sqlTokenize(text);
    if (!tokens)
        return tokens.error();
    Parser parser(std::move(*tokens));
    auto tree = Parser::predicate(parser.expression());
    if (!tree)
        return tree.error();
    if (!parser.atEnd())
        return parser.unexpected(QStringLiteral("Expected the end of the expression."));
    return SqlTree(std::move(*tree));
}

Result<std::vector<SqlStatement>> parseSqlAction(const QString& text) {
    if (auto r = checkLength(text); !r)
        return r.error();
    auto tokens = sqlTokenize(text);
    if (!tokens)
        return tokens.error();
    Parser parser(std::move(*tokens));
    std::vector<SqlStatement> statements;
    for (;;) {
        while (parser.current().isOperator(";"))
            parser.advance();
        if (parser.atEnd())
            break;
        SqlStatement statement;
        if (parser.current().isKeyword("REMOVE")) {
            statement.remove = true;
        } else if (!parser.current().isKeyword("SET")) {
            return parser.unexpected(QStringLiteral("Expected SET or REMOVE."));
        }
        parser.advance();
        const SqlToken target = parser.current();
        auto ref = parser.propertyName();
        if (!ref)
            return ref.error();
        if (ref->system && !ref->system->write)
            return sqlParseError(target.position, target.source,
                                 QStringLiteral("The system property '%1' cannot be changed by "
                                                "an action.")
                                     .arg(ref->name));
        statement.target = *ref;
        if (!statement.remove) {
            if (auto r = parser.expectOperator("="); !r)
                return r.error();
            auto value = parser.expression();
            if (!value)
                return value.error();
            statement.value = SqlTree(std::move(*value));
        }
        statements.push_back(std::move(statement));
        if (statements.size() > size_t(kSqlMaxStatements))
            return makeError(
                ErrorCode::InvalidArgument,
                QStringLiteral("An action has at most %1 statements.").arg(kSqlMaxStatements));
    }
    if (statements.empty())
        return parser.unexpected(QStringLiteral("Expected SET or REMOVE."));
    return statements;
}

} // namespace hourglass
