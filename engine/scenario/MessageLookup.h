#pragma once
// Finds messages by MessageId for the scenario runner, through the explorer reads
// (Broker::listMessages) page by page, so that looking changes nothing (no peek, no activity).

#include "hourglass/Broker.h"
#include "hourglass/scenario/ScenarioFile.h"

#include <functional>
#include <optional>

namespace hourglass {

struct FoundMessage {
    MessageView view;
    MessagePlace place = MessagePlace::Entity;
};

// The first message of `path` (an entity or its dead-letter queue) that satisfies `wanted`.
std::optional<MessageView> findInPath(const Broker& broker, const QString& path,
                                      const std::function<bool(const MessageView&)>& wanted);

// A message with this id in the entity or its dead-letter queue. When both hold one, the place
// named by `preferred` wins, then the entity. `entityPath` may itself be a dead-letter path.
std::optional<FoundMessage> findMessage(const Broker& broker, const QString& entityPath,
                                        const QString& messageId,
                                        std::optional<MessagePlace> preferred = std::nullopt);

} // namespace hourglass
