#include "SqlFilter.h"

#include "SqlEvaluator.h"
#include "SqlParser.h"

namespace hourglass {

Result<SqlFilter> SqlFilter::compile(const QString& text) {
    auto tree = parseSqlFilter(text);
    if (!tree)
        return tree.error();
    SqlFilter filter;
    filter.m_text = text;
    filter.m_tree = std::move(*tree);
    return filter;
}

Result<bool> SqlFilter::matches(const OutgoingMessage& message,
                                const SqlBrokerFields& broker) const {
    auto value = truth(message, broker);
    if (!value)
        return value.error();
    return *value == SqlTruth::True;
}

Result<SqlTruth> SqlFilter::truth(const OutgoingMessage& message,
                                  const SqlBrokerFields& broker) const {
    if (!m_tree) // a default-constructed filter was never compiled: it matches nothing
        return SqlTruth::False;
    auto value = sqlEvaluate(*m_tree, message, broker);
    if (!value)
        return value.error();
    if (value->typeId() != QMetaType::Bool)
        return SqlTruth::Unknown; // NULL: a predicate is Boolean or NULL
    return value->toBool() ? SqlTruth::True : SqlTruth::False;
}

QList<SqlPropertyValue> SqlFilter::propertyValues(const OutgoingMessage& message,
                                                  const SqlBrokerFields& broker) const {
    return m_tree ? sqlPropertyValues(*m_tree, message, broker) : QList<SqlPropertyValue>();
}

} // namespace hourglass
