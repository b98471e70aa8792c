#include "hourglass/Message.h"

namespace hourglass {

QString messageStateName(MessageState state) {
    switch (state) {
    case MessageState::Active:
        return QStringLiteral("Active");
    case MessageState::Deferred:
        return QStringLiteral("Deferred");
    case MessageState::Scheduled:
        return QStringLiteral("Scheduled");
    }
    return QStringLiteral("Active");
}

} // namespace hourglass
