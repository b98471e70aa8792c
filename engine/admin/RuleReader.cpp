// Rules from their descriptions (AtomReader.h): filters, actions, typed correlation properties
// and SQL parameters.

#include "AdminErrors.h"
#include "AtomReader.h"
#include "TypedValues.h"

#include "hourglass/PropertyTypes.h"

#include <QMap>

#include <cmath>

namespace hourglass::admin {

namespace {
// The engine's limits make more pointless: a correlation filter's properties, an expression's
// parameters.
constexpr qsizetype kMaxKeyValues = 256;

Error invalid(const QString& description) {
    return makeError(ErrorCode::InvalidArgument, description);
}

// <KeyValueOfstringanyType><Key>k</Key><Value i:type="d6p1:int">5</Value></...> items.
Result<QList<QPair<QString, QVariant>>> readKeyValues(const XmlElement& list) {
    QList<QPair<QString, QVariant>> values;
    if (list.children.size() > kMaxKeyValues)
        return invalid(
            QStringLiteral("%1 has more than %2 items.").arg(list.name).arg(kMaxKeyValues));
    for (const XmlElement& item : list.children) {
        if (item.name != QLatin1String("KeyValueOfstringanyType"))
            return invalid(QStringLiteral("%1 holds '%2' where KeyValueOfstringanyType belongs.")
                               .arg(list.name, quoted(item.name)));
        const XmlElement* key = item.child(QStringLiteral("Key"));
        const XmlElement* value = item.child(QStringLiteral("Value"));
        if (!key || !value || key->text.isEmpty())
            return invalid(QStringLiteral("An item of %1 needs a Key and a Value.").arg(list.name));
        const auto typed = typedValueFromXml(value->typeName, value->text);
        if (!typed)
            return invalid(QStringLiteral("The value of '%1' is not a valid '%2'.")
                               .arg(quoted(key->text), quoted(value->typeName)));
        values.append({key->text, *typed});
    }
    return values;
}

// A parameter's value as an SQL literal; nullopt for a type the language has no literal of.
std::optional<QString> sqlLiteral(const QVariant& value) {
    const auto type = propertyTypeOf(value);
    if (!type)
        return std::nullopt;
    switch (*type) {
    case PropertyType::String:
    case PropertyType::Char:
        return u'\'' + value.toString().replace(u'\'', QLatin1String("''")) + u'\'';
    case PropertyType::Boolean:
        return value.toBool() ? QStringLiteral("TRUE") : QStringLiteral("FALSE");
    case PropertyType::Single:
    case PropertyType::Double: {
        const double number = value.toDouble();
        if (!std::isfinite(number))
            return std::nullopt;
        QString text = QString::number(number, 'g', 17);
        if (!text.contains(u'.') && !text.contains(u'e'))
            text += QStringLiteral(".0");
        return text;
    }
    case PropertyType::Byte:
    case PropertyType::SByte:
    case PropertyType::Int16:
    case PropertyType::UInt16:
    case PropertyType::Int32:
    case PropertyType::UInt32:
    case PropertyType::Int64:
        return propertyText(value);
    default:
        return std::nullopt;
    }
}

bool isNameCharacter(QChar c) {
    return c.isLetterOrNumber() || c == u'_';
}

// `expression` with each @name outside strings, quoted and bracketed names replaced by the
// literal of its parameter.
Result<QString> withParameters(const QString& expression, const XmlElement* parameters) {
    if (!parameters || parameters->children.isEmpty())
        return expression;
    const auto items = readKeyValues(*parameters);
    if (!items)
        return items.error();
    QMap<QString, QString> literals; // lower-case name with '@' -> literal
    for (const auto& [key, value] : *items) {
        const auto literal = sqlLiteral(value);
        if (!literal)
            return invalid(QStringLiteral("The parameter '%1' has a type SQL has no literal of.")
                               .arg(quoted(key)));
        literals.insert((key.startsWith(u'@') ? key : u'@' + key).toLower(), *literal);
    }
    QString out;
    QChar closing; // the quote or bracket that ends the string or name we are in
    for (qsizetype i = 0; i < expression.size(); ++i) {
        const QChar c = expression.at(i);
        if (!closing.isNull()) {
            out += c;
            if (c == closing)
                closing = QChar();
            continue;
        }
        if (c == u'\'' || c == u'"') {
            closing = c;
        } else if (c == u'[') {
            closing = u']';
        } else if (c == u'@') {
            qsizetype end = i + 1;
            while (end < expression.size() && isNameCharacter(expression.at(end)))
                ++end;
            const QString name = expression.mid(i, end - i);
            const auto literal = literals.constFind(name.toLower());
            if (literal == literals.cend())
                return invalid(QStringLiteral("The expression uses '%1', which no parameter gives.")
                                   .arg(quoted(name)));
            out += *literal;
            i = end - 1;
            continue;
        }
        out += c;
    }
    return out;
}

Result<void> readCorrelation(const XmlElement& filter, CorrelationFilter& correlation) {
    for (const XmlElement& element : filter.children) {
        const QString& name = element.name;
        QString* field = nullptr;
        if (name == QLatin1String("CorrelationId"))
            field = &correlation.correlationId;
        else if (name == QLatin1String("MessageId"))
            field = &correlation.messageId;
        else if (name == QLatin1String("To"))
            field = &correlation.to;
        else if (name == QLatin1String("ReplyTo"))
            field = &correlation.replyTo;
        else if (name == QLatin1String("Label"))
            field = &correlation.subject;
        else if (name == QLatin1String("SessionId"))
            field = &correlation.sessionId;
        else if (name == QLatin1String("ReplyToSessionId"))
            field = &correlation.replyToSessionId;
        else if (name == QLatin1String("ContentType"))
            field = &correlation.contentType;
        if (field) {
            *field = element.text;
            continue;
        }
        if (name == QLatin1String("Properties")) {
            const auto items = readKeyValues(element);
            if (!items)
                return items.error();
            for (const auto& [key, value] : *items)
                correlation.properties.insert(key, value);
            continue;
        }
        if (name == QLatin1String("CompatibilityLevel") ||
            name == QLatin1String("RequiresPreprocessing"))
            continue;
        return invalid(
            QStringLiteral("'%1' is not part of a correlation filter.").arg(quoted(name)));
    }
    return {};
}

// An SqlFilter's or SqlRuleAction's expression with its parameters written in.
Result<QString> sqlText(const XmlElement& element, const char* what) {
    const XmlElement* expression = element.child(QStringLiteral("SqlExpression"));
    if (!expression || expression->text.trimmed().isEmpty())
        return invalid(QStringLiteral("The %1 has no SqlExpression.").arg(QLatin1String(what)));
    for (const XmlElement& child : element.children) {
        static const QStringList known{
            QStringLiteral("SqlExpression"), QStringLiteral("Parameters"),
            QStringLiteral("CompatibilityLevel"), QStringLiteral("RequiresPreprocessing")};
        if (!known.contains(child.name))
            return invalid(QStringLiteral("'%1' is not part of an %2.")
                               .arg(quoted(child.name), QLatin1String(what)));
    }
    return withParameters(expression->text, element.child(QStringLiteral("Parameters")));
}

Result<void> readFilter(const XmlElement* filter, Rule& rule) {
    if (!filter) {
        rule.filterType = FilterType::True;
        return {};
    }
    QString type = filter->typeName;
    if (type.isEmpty())
        type = filter->child(QStringLiteral("SqlExpression")) ? QStringLiteral("SqlFilter")
                                                              : QStringLiteral("CorrelationFilter");
    if (type == QLatin1String("TrueFilter")) {
        rule.filterType = FilterType::True;
    } else if (type == QLatin1String("FalseFilter")) {
        rule.filterType = FilterType::False;
    } else if (type == QLatin1String("SqlFilter")) {
        auto text = sqlText(*filter, "SQL filter");
        if (!text)
            return text.error();
        rule.filterType = FilterType::Sql;
        rule.sqlExpression = *text;
    } else if (type == QLatin1String("CorrelationFilter")) {
        rule.filterType = FilterType::Correlation;
        return readCorrelation(*filter, rule.correlation);
    } else {
        return invalid(QStringLiteral("'%1' is not a filter type (SqlFilter, CorrelationFilter, "
                                      "TrueFilter or FalseFilter).")
                           .arg(quoted(type)));
    }
    return {};
}

Result<void> readAction(const XmlElement* action, Rule& rule) {
    if (!action || action->typeName == QLatin1String("EmptyRuleAction"))
        return {};
    if (action->typeName != QLatin1String("SqlRuleAction") &&
        !(action->typeName.isEmpty() && action->child(QStringLiteral("SqlExpression"))))
        return invalid(QStringLiteral("'%1' is not an action type (EmptyRuleAction or "
                                      "SqlRuleAction).")
                           .arg(quoted(action->typeName)));
    auto text = sqlText(*action, "SQL action");
    if (!text)
        return text.error();
    rule.sqlAction = *text;
    return {};
}
} // namespace

Result<Rule> readRule(const XmlElement& ruleDescription, const QString& name,
                      UnknownElements unknown) {
    Rule rule;
    rule.name = name;
    for (const XmlElement& element : ruleDescription.children) {
        static const QStringList known{QStringLiteral("Filter"), QStringLiteral("Action"),
                                       QStringLiteral("Name"), QStringLiteral("CreatedAt")};
        if (!known.contains(element.name) && unknown == UnknownElements::Refuse)
            return invalid(QStringLiteral("'%1' is not part of a rule.").arg(quoted(element.name)));
    }
    if (auto filter = readFilter(ruleDescription.child(QStringLiteral("Filter")), rule); !filter)
        return filter.error();
    if (auto action = readAction(ruleDescription.child(QStringLiteral("Action")), rule); !action)
        return action.error();
    return rule;
}

} // namespace hourglass::admin
