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
    if (!m_tree) // a default-constructed filter was never compiled: it matches nothing
        return false;
    auto value = sqlEvaluate(*m_tree, message, broker);
    if (!value)
        return value.error();
    return value->typeId() == QMetaType::Bool && value->toBool();
}

} // namespace hourglass
