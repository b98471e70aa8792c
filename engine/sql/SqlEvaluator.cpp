#include "SqlEvaluator.h"

#include "SqlError.h"
#include "hourglass/PropertyTypes.h"

#include <QDateTime>
#include <QUuid>

#include <algorithm>
#include <cmath>
#include <limits>

namespace hourglass {

namespace {

// How an operator sees a value: every integer type is one Integer, Single and Double are Double.
enum class Kind { Null, Boolean, Integer, Double, String, DateTime, Guid, Other };

Kind kindOf(const QVariant& value) {
    const auto type = propertyTypeOf(value);
    if (!type)
        return Kind::Other;
    switch (*type) {
    case PropertyType::Null:
        return Kind::Null;
    case PropertyType::Boolean:
        return Kind::Boolean;
    case PropertyType::Byte:
    case PropertyType::SByte:
    case PropertyType::Int16:
    case PropertyType::UInt16:
    case PropertyType::Int32:
    case PropertyType::UInt32:
    case PropertyType::Int64:
        return Kind::Integer;
    case PropertyType::UInt64:
        // Past Int64 an unsigned value is only comparable as a Double.
        return value.toULongLong() <= quint64(std::numeric_limits<qint64>::max()) ? Kind::Integer
                                                                                  : Kind::Double;
    case PropertyType::Single:
    case PropertyType::Double:
        return Kind::Double;
    case PropertyType::String:
    case PropertyType::Char:
        return Kind::String;
    case PropertyType::DateTime:
        return Kind::DateTime;
    case PropertyType::Guid:
        return Kind::Guid;
    case PropertyType::Binary:
        return Kind::Other;
    }
    return Kind::Other;
}

bool isNumber(Kind kind) {
    return kind == Kind::Integer || kind == Kind::Double;
}

QString typeName(const QVariant& value) {
    return propertyTypeNameOf(value);
}

Error errorAt(const SqlNode& node, const QString& what) {
    return sqlEvaluationError(QStringLiteral("%1 (at line %2, column %3)")
                                  .arg(what)
                                  .arg(node.position.line)
                                  .arg(node.position.column));
}

QVariant unknown() {
    return QVariant();
}

// -1, 0, 1 for two values of comparable kinds; nullopt when the kinds do not compare.
std::optional<int> order(const QVariant& a, Kind ka, const QVariant& b, Kind kb) {
    auto sign = [](auto x, auto y) { return x < y ? -1 : (y < x ? 1 : 0); };
    if (ka == Kind::Integer && kb == Kind::Integer)
        return sign(a.toLongLong(), b.toLongLong());
    if (isNumber(ka) && isNumber(kb))
        return sign(a.toDouble(), b.toDouble());
    if (ka != kb)
        return std::nullopt;
    switch (ka) {
    case Kind::String:
        return sign(a.toString().compare(b.toString(), Qt::CaseSensitive), 0);
    case Kind::Boolean:
        return sign(int(a.toBool()), int(b.toBool()));
    case Kind::DateTime:
        return sign(a.toDateTime().toMSecsSinceEpoch(), b.toDateTime().toMSecsSinceEpoch());
    case Kind::Guid:
        return sign(a.toUuid(), b.toUuid());
    case Kind::Other:
        if (propertyTypeOf(a) != propertyTypeOf(b))
            return std::nullopt;
        return sign(a.toByteArray(), b.toByteArray());
    default:
        return std::nullopt;
    }
}

Result<QVariant> compare(const SqlNode& node, SqlOperator op, const QVariant& a,
                         const QVariant& b) {
    const Kind ka = kindOf(a);
    const Kind kb = kindOf(b);
    if (ka == Kind::Null || kb == Kind::Null)
        return unknown();
    const auto o = order(a, ka, b, kb);
    if (!o)
        return errorAt(node,
                       QStringLiteral("Cannot compare %1 with %2.").arg(typeName(a), typeName(b)));
    const bool equality = op == SqlOperator::Equal || op == SqlOperator::NotEqual;
    if (!equality && (ka == Kind::Boolean || ka == Kind::Other))
        return errorAt(
            node, QStringLiteral("%1 values can only be compared for equality.").arg(typeName(a)));
    switch (op) {
    case SqlOperator::Equal:
        return QVariant(*o == 0);
    case SqlOperator::NotEqual:
        return QVariant(*o != 0);
    case SqlOperator::Less:
        return QVariant(*o < 0);
    case SqlOperator::LessOrEqual:
        return QVariant(*o <= 0);
    case SqlOperator::Greater:
        return QVariant(*o > 0);
    case SqlOperator::GreaterOrEqual:
        return QVariant(*o >= 0);
    default:
        break;
    }
    return unknown();
}

Result<QVariant> integerArithmetic(const SqlNode& node, SqlOperator op, qint64 a, qint64 b) {
    qint64 result = 0;
    bool overflow = false;
    switch (op) {
    case SqlOperator::Add:
        overflow = __builtin_add_overflow(a, b, &result);
        break;
    case SqlOperator::Subtract:
        overflow = __builtin_sub_overflow(a, b, &result);
        break;
    case SqlOperator::Multiply:
        overflow = __builtin_mul_overflow(a, b, &result);
        break;
    case SqlOperator::Divide:
    case SqlOperator::Modulo:
        if (b == 0)
            return errorAt(node, QStringLiteral("Division by zero."));
        overflow = a == std::numeric_limits<qint64>::min() && b == -1;
        if (!overflow)
            result = op == SqlOperator::Divide ? a / b : a % b;
        break;
    default:
        break;
    }
    if (overflow)
        return errorAt(node, QStringLiteral("The integer result is past 64 bits."));
    return QVariant(qlonglong(result));
}

Result<QVariant> arithmetic(const SqlNode& node, SqlOperator op, const QVariant& a,
                            const QVariant& b) {
    const Kind ka = kindOf(a);
    const Kind kb = kindOf(b);
    if (ka == Kind::Null || kb == Kind::Null)
        return unknown();
    if (!isNumber(ka) || !isNumber(kb))
        return errorAt(node, QStringLiteral("Arithmetic takes numbers, not %1 and %2.")
                                 .arg(typeName(a), typeName(b)));
    if (ka == Kind::Integer && kb == Kind::Integer)
        return integerArithmetic(node, op, a.toLongLong(), b.toLongLong());
    const double x = a.toDouble();
    const double y = b.toDouble();
    switch (op) {
    case SqlOperator::Add:
        return QVariant(x + y);
    case SqlOperator::Subtract:
        return QVariant(x - y);
    case SqlOperator::Multiply:
        return QVariant(x * y);
    case SqlOperator::Divide:
    case SqlOperator::Modulo:
        if (y == 0)
            return errorAt(node, QStringLiteral("Division by zero."));
        return QVariant(op == SqlOperator::Divide ? x / y : std::fmod(x, y));
    default:
        break;
    }
    return unknown();
}

// LIKE: `%` any run, `_` one character, `escape` makes the next character literal; anchored at
// both ends and case-sensitive. Greedy matching with one backtrack point (the last `%`).
bool likeMatches(const QString& text, const QString& pattern, std::optional<QChar> escape) {
    struct Element {
        enum { Literal, One, Any } kind;
        QChar c;
    };
    std::vector<Element> elements;
    for (qsizetype i = 0; i < pattern.size(); ++i) {
        const QChar c = pattern.at(i);
        if (escape && c == *escape && i + 1 < pattern.size())
            elements.push_back({Element::Literal, pattern.at(++i)});
        else if (c == u'%')
            elements.push_back({Element::Any, c});
        else if (c == u'_')
            elements.push_back({Element::One, c});
        else
            elements.push_back({Element::Literal, c});
    }
    size_t p = 0;
    qsizetype t = 0;
    std::optional<size_t> star;
    qsizetype starText = 0;
    while (t < text.size()) {
        if (p < elements.size() && elements[p].kind == Element::Any) {
            star = p++;
            starText = t;
        } else if (p < elements.size() &&
                   (elements[p].kind == Element::One || elements[p].c == text.at(t))) {
            ++p;
            ++t;
        } else if (star) {
            p = *star + 1;
            t = ++starText;
        } else {
            return false;
        }
    }
    while (p < elements.size() && elements[p].kind == Element::Any)
        ++p;
    return p == elements.size();
}

QVariant readProperty(const SqlPropertyRef& ref, const OutgoingMessage& message,
                      const SqlBrokerFields& broker) {
    if (ref.system)
        return ref.system->read(message, broker);
    const QVariant* value = findApplicationProperty(message.applicationProperties, ref.name);
    return value ? *value : QVariant();
}

bool propertyExists(const SqlPropertyRef& ref, const OutgoingMessage& message,
                    const SqlBrokerFields& broker) {
    if (ref.system)
        return ref.system->read(message, broker).isValid();
    return findApplicationProperty(message.applicationProperties, ref.name) != nullptr;
}

// True, false, or nullopt for unknown.
std::optional<bool> truth(const QVariant& value) {
    if (kindOf(value) != Kind::Boolean)
        return std::nullopt;
    return value.toBool();
}

class Evaluator {
public:
    Evaluator(const OutgoingMessage& message, const SqlBrokerFields& broker)
        : m_message(message)
        , m_broker(broker) {}

    Result<QVariant> eval(const SqlNode& node) const {
        switch (node.kind) {
        case SqlNodeKind::Constant:
            return node.constant;
        case SqlNodeKind::Property:
            return readProperty(node.property, m_message, m_broker);
        case SqlNodeKind::NewId:
            return QVariant(QUuid::createUuid());
        case SqlNodeKind::PropertyFunction:
            return propertyFunction(node);
        case SqlNodeKind::Exists:
            return QVariant(propertyExists(node.property, m_message, m_broker));
        case SqlNodeKind::Not: {
            auto v = eval(*node.operands[0]);
            if (!v)
                return v;
            const auto t = truth(*v);
            return t ? QVariant(!*t) : unknown();
        }
        case SqlNodeKind::And:
            return logical(node, false);
        case SqlNodeKind::Or:
            return logical(node, true);
        case SqlNodeKind::Compare: {
            auto a = eval(*node.operands[0]);
            if (!a)
                return a;
            auto b = eval(*node.operands[1]);
            if (!b)
                return b;
            return compare(node, node.op, *a, *b);
        }
        case SqlNodeKind::Arithmetic: {
            auto a = eval(*node.operands[0]);
            if (!a)
                return a;
            auto b = eval(*node.operands[1]);
            if (!b)
                return b;
            return arithmetic(node, node.op, *a, *b);
        }
        case SqlNodeKind::Negate:
            return negate(node);
        case SqlNodeKind::Like:
            return like(node);
        case SqlNodeKind::In:
            return in(node);
        case SqlNodeKind::IsNull: {
            auto v = eval(*node.operands[0]);
            if (!v)
                return v;
            return QVariant((kindOf(*v) == Kind::Null) != node.negated);
        }
        }
        return unknown();
    }

private:
    // AND (`stopOn` false) and OR (`stopOn` true) in three-valued logic. The right side is not
    // evaluated when the left decides, so `EXISTS(a) AND a / 2 > 1` cannot fail on a missing a.
    Result<QVariant> logical(const SqlNode& node, bool stopOn) const {
        auto a = eval(*node.operands[0]);
        if (!a)
            return a;
        const auto left = truth(*a);
        if (left == stopOn)
            return QVariant(stopOn);
        auto b = eval(*node.operands[1]);
        if (!b)
            return b;
        const auto right = truth(*b);
        if (right == stopOn)
            return QVariant(stopOn);
        if (left && right)
            return QVariant(!stopOn);
        return unknown();
    }

    Result<QVariant> negate(const SqlNode& node) const {
        auto v = eval(*node.operands[0]);
        if (!v)
            return v;
        switch (kindOf(*v)) {
        case Kind::Null:
            return unknown();
        case Kind::Integer:
            return integerArithmetic(node, SqlOperator::Subtract, 0, v->toLongLong());
        case Kind::Double:
            return QVariant(-v->toDouble());
        default:
            return errorAt(node,
                           QStringLiteral("A sign applies to a number, not %1.").arg(typeName(*v)));
        }
    }

    Result<QVariant> like(const SqlNode& node) const {
        auto v = eval(*node.operands[0]);
        if (!v)
            return v;
        const Kind kind = kindOf(*v);
        if (kind == Kind::Null)
            return unknown();
        if (kind != Kind::String)
            return errorAt(node,
                           QStringLiteral("LIKE applies to a String, not %1.").arg(typeName(*v)));
        return QVariant(likeMatches(v->toString(), node.pattern, node.escape) != node.negated);
    }

    Result<QVariant> in(const SqlNode& node) const {
        auto v = eval(*node.operands[0]);
        if (!v)
            return v;
        if (kindOf(*v) == Kind::Null)
            return unknown();
        // The common case, `StoreId IN ('Store1', ...)`: a string against string constants is
        // an exact comparison of each, without building a Boolean per item.
        if (v->typeId() == QMetaType::QString) {
            const QString& text = *static_cast<const QString*>(v->constData());
            bool onlyStrings = true;
            for (size_t i = 1; i < node.operands.size() && onlyStrings; ++i) {
                const SqlNode& item = *node.operands[i];
                onlyStrings = item.kind == SqlNodeKind::Constant &&
                              item.constant.typeId() == QMetaType::QString;
                if (onlyStrings && text == *static_cast<const QString*>(item.constant.constData()))
                    return QVariant(!node.negated);
            }
            if (onlyStrings)
                return QVariant(node.negated);
        }
        bool sawUnknown = false;
        for (size_t i = 1; i < node.operands.size(); ++i) {
            auto item = eval(*node.operands[i]);
            if (!item)
                return item;
            auto equal = compare(*node.operands[i], SqlOperator::Equal, *v, *item);
            if (!equal)
                return equal;
            const auto t = truth(*equal);
            if (t == true)
                return QVariant(!node.negated);
            if (!t)
                sawUnknown = true;
        }
        return sawUnknown ? unknown() : QVariant(node.negated);
    }

    // property(name): the property a string names, `sys.` and `user.` scopes included.
    Result<QVariant> propertyFunction(const SqlNode& node) const {
        auto v = eval(*node.operands[0]);
        if (!v)
            return v;
        const Kind kind = kindOf(*v);
        if (kind == Kind::Null)
            return unknown();
        if (kind != Kind::String)
            return errorAt(node,
                           QStringLiteral("property() takes a String, not %1.").arg(typeName(*v)));
        const QString name = v->toString();
        SqlPropertyRef ref;
        if (name.startsWith(QLatin1String("sys."), Qt::CaseInsensitive)) {
            ref.system = findSqlSystemProperty(QStringView(name).mid(4));
            if (!ref.system)
                return unknown();
        } else if (name.startsWith(QLatin1String("user."), Qt::CaseInsensitive)) {
            ref.name = name.mid(5);
        } else {
            ref.name = name;
        }
        return readProperty(ref, m_message, m_broker);
    }

    const OutgoingMessage& m_message;
    const SqlBrokerFields& m_broker;
};

} // namespace

const QVariant* findApplicationProperty(const QVariantMap& properties, const QString& name) {
    if (const auto exact = properties.constFind(name); exact != properties.constEnd())
        return &exact.value();
    for (auto it = properties.constBegin(); it != properties.constEnd(); ++it) {
        if (it.key().compare(name, Qt::CaseInsensitive) == 0)
            return &it.value();
    }
    return nullptr;
}

Result<QVariant> sqlEvaluate(const SqlNode& node, const OutgoingMessage& message,
                             const SqlBrokerFields& broker) {
    return Evaluator(message, broker).eval(node);
}

namespace {
void collectValues(const SqlNode& node, const OutgoingMessage& message,
                   const SqlBrokerFields& broker, QList<SqlPropertyValue>& values) {
    if (node.kind == SqlNodeKind::Property || node.kind == SqlNodeKind::Exists) {
        // An application property by its name alone: how the message's properties list it.
        // Names are case-insensitive (R3; readProperty finds `Color` for `color`), so one
        // property read under two spellings is listed once, as first written.
        const QString name = node.property.system ? node.property.display() : node.property.name;
        const bool seen =
            std::any_of(values.cbegin(), values.cend(), [&name](const SqlPropertyValue& v) {
                return v.name.compare(name, Qt::CaseInsensitive) == 0;
            });
        if (!seen)
            values.append({name, readProperty(node.property, message, broker)});
    }
    for (const SqlNodePtr& operand : node.operands)
        collectValues(*operand, message, broker, values);
}
} // namespace

QList<SqlPropertyValue> sqlPropertyValues(const SqlNode& node, const OutgoingMessage& message,
                                          const SqlBrokerFields& broker) {
    QList<SqlPropertyValue> values;
    collectValues(node, message, broker, values);
    return values;
}

} // namespace hourglass
