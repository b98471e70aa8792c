// The public check of a filter or action text (hourglass/SqlCheck.h): the compilers Rule::validate
// uses, their compiled form dropped.
#include "hourglass/SqlCheck.h"

#include "SqlAction.h"
#include "SqlFilter.h"

namespace hourglass {

Result<void> checkSqlFilter(const QString& text) {
    if (auto filter = SqlFilter::compile(text); !filter)
        return filter.error();
    return {};
}

Result<int> checkSqlAction(const QString& text) {
    auto action = SqlAction::compile(text);
    if (!action)
        return action.error();
    return action->statementCount();
}

} // namespace hourglass
