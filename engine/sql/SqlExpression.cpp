#include "SqlExpression.h"

namespace hourglass {

QString SqlPropertyRef::display() const {
    return (system ? QStringLiteral("sys.") : QStringLiteral("user.")) + name;
}

bool SqlNode::isPredicate() const {
    switch (kind) {
    case SqlNodeKind::Exists:
    case SqlNodeKind::Not:
    case SqlNodeKind::And:
    case SqlNodeKind::Or:
    case SqlNodeKind::Compare:
    case SqlNodeKind::Like:
    case SqlNodeKind::In:
    case SqlNodeKind::IsNull:
        return true;
    case SqlNodeKind::Constant:
    case SqlNodeKind::Property:
    case SqlNodeKind::NewId:
    case SqlNodeKind::PropertyFunction:
    case SqlNodeKind::Arithmetic:
    case SqlNodeKind::Negate:
        return false;
    }
    return false;
}

} // namespace hourglass
