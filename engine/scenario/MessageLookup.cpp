#include "MessageLookup.h"

#include "hourglass/EntityPath.h"

namespace hourglass {

namespace {
constexpr int kPageSize = 256;
} // namespace

std::optional<MessageView> findInPath(const Broker& broker, const QString& path,
                                      const std::function<bool(const MessageView&)>& wanted) {
    qint64 from = 0;
    for (;;) {
        const auto page = broker.listMessages(path, from, kPageSize);
        if (!page || page->isEmpty())
            return std::nullopt;
        for (const MessageView& view : *page) {
            if (wanted(view))
                return view;
        }
        if (page->size() < kPageSize)
            return std::nullopt;
        from = page->last().sequenceNumber + 1;
    }
}

std::optional<FoundMessage> findMessage(const Broker& broker, const QString& entityPath,
                                        const QString& messageId,
                                        std::optional<MessagePlace> preferred) {
    const auto hasId = [&](const MessageView& view) { return view.messageId == messageId; };
    if (EntityPath::of(entityPath).isDeadLetterQueue()) {
        if (auto view = findInPath(broker, entityPath, hasId))
            return FoundMessage{*view, MessagePlace::DeadLetter};
        return std::nullopt;
    }
    const auto inEntity = findInPath(broker, entityPath, hasId);
    if (inEntity && preferred != MessagePlace::DeadLetter)
        return FoundMessage{*inEntity, MessagePlace::Entity};
    if (auto view =
            findInPath(broker, EntityPath::of(entityPath).deadLetterQueue().toString(), hasId))
        return FoundMessage{*view, MessagePlace::DeadLetter};
    if (inEntity)
        return FoundMessage{*inEntity, MessagePlace::Entity};
    return std::nullopt;
}

} // namespace hourglass
