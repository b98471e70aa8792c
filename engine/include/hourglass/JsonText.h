#pragma once
// Words for JSON values in error messages ("expected a string, got a number").

#include <QJsonValue>
#include <QString>

namespace hourglass {

// "a string", "a number", "an object", "null", ...
QString jsonTypeName(const QJsonValue& value);

} // namespace hourglass
