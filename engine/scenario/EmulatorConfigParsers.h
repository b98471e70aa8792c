#pragma once
// The emulator config's member parsers, shared by the config.json importer and the scenario file
// parser (whose Create steps take the same objects). Private to scenario playback.

#include "JsonReader.h"
#include "hourglass/scenario/EmulatorConfig.h"

namespace hourglass {

// Whether the parsers check E3 bounds and rule sanity. A scenario step that expects an error
// skips the check so that the broker's own refusal can be observed.
enum class BoundsCheck { Check, Skip };

// ---- Parsing. Each records the first problem in `error` with its JSON path.
UserConfig parseUserConfig(const QJsonObject& json, const QString& path, ParseError& error);
ConfigQueue parseConfigQueue(const QJsonObject& json, const QString& path, Tier tier,
                             BoundsCheck check, ParseError& error);
ConfigTopic parseConfigTopic(const QJsonObject& json, const QString& path, Tier tier,
                             BoundsCheck check, ParseError& error);
// With an empty `topic` the object must name its topic in a "Topic" member (the scenario Create
// step); inside a topic's "Subscriptions" array it must not.
ConfigSubscription parseConfigSubscription(const QJsonObject& json, const QString& path,
                                           const QString& topic, Tier tier, BoundsCheck check,
                                           ParseError& error);

} // namespace hourglass
