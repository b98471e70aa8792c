#pragma once
// QVERIFY2 evaluates its message even when the check passes, so a message built from
// result.error() would throw on success. errorText() is safe either way.

#include "hourglass/Status.h"

#include <QByteArray>

namespace hourglass::durability {

template <typename T> QByteArray errorText(const Result<T>& result) {
    return result.ok() ? QByteArray() : result.error().toString().toUtf8();
}

} // namespace hourglass::durability
