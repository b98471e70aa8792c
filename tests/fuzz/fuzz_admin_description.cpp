// An administration API request as AdminApi reads it: the target's path and query (AdminRoutes
// parseRoute), and the body's entity description (AtomReader: the XML tree with its limits, a
// queue's, topic's or subscription's properties over the engine's defaults, a rule with its
// typed properties and SQL parameters), validated as the broker validates it and written back
// as a reply entry (AtomWriter). The same body is also read as a reply, as the administration
// client reads what a remote namespace answers (AtomCodec.h: entries, feeds, the namespace's
// entry, an error's detail), and the entry written back must read as one.

#include "AdminRoutes.h"
#include "AtomReader.h"
#include "AtomWriter.h"
#include "FuzzInput.h"

#include "hourglass/admin/AtomCodec.h"

#include <cstdlib>

using namespace hourglass;
using namespace hourglass::admin;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    // A first line, when there is one, is also read as a request target.
    const QByteArray bytes = fuzz::bytesOf(data, size);
    const qsizetype newline = bytes.indexOf('\n');
    (void)parseRoute(newline < 0 ? bytes : bytes.left(newline));

    const QByteArray body = newline < 0 ? bytes : bytes.mid(newline + 1);
    (void)readEntityReply(body);
    (void)readEntityFeed(body);
    (void)readRuleFeed(body);
    (void)readNamespaceReply(body);
    (void)readErrorDetail(body);

    const auto description = readDescription(body);
    if (!description)
        return 0;
    const ReplyContext context{QStringLiteral("https://localhost:5671"),
                               QStringLiteral("localhost:5671"), QStringLiteral("fuzz"), 0};
    EntityInfo entity;
    entity.path = QStringLiteral("t/Subscriptions/s");
    entity.name = QStringLiteral("s");
    entity.kind = EntityKind::Subscription;
    if (description->kind == DescriptionKind::Rule) {
        const auto rule = readRule(description->element, QStringLiteral("r"));
        if (rule && rule->validate())
            (void)ruleEntry(context, entity, *rule);
        return 0;
    }
    const EntityKind kind = description->kind == DescriptionKind::Queue ? EntityKind::Queue
                            : description->kind == DescriptionKind::Topic
                                ? EntityKind::Topic
                                : EntityKind::Subscription;
    const auto properties =
        readProperties(description->element, kind, EntityProperties::defaults(Tier::Standard));
    if (kind == EntityKind::Subscription) {
        const auto rule = readDefaultRule(description->element);
        if (rule && *rule && (*rule)->validate())
            entity.rules.append(**rule);
    }
    if (!properties || !properties->validate(kind, Tier::Standard))
        return 0;
    entity.kind = kind;
    entity.properties = *properties;
    const QByteArray entry = entityEntry(context, entity, 1);
    const auto back = readEntityReply(entry);
    if (!back || back->kind != kind)
        std::abort(); // what the server writes, its client must read
    return 0;
}
