#include "BrokerSnapshot.h"

#include "EngineChecks.h"

namespace hourglass::testing {

namespace {
// Far more than any test stores; the explorer read pages, the snapshot wants everything.
constexpr int kAllMessages = 1000000;

void addMessages(const Broker& broker, const QString& path, QStringList& lines) {
    const auto listed = broker.listMessages(path, 0, kAllMessages, Broker::Bodies::With);
    if (!listed) {
        lines << QStringLiteral("  %1: %2").arg(path, errorCodeName(listed.error().code));
        return;
    }
    for (const MessageView& m : listed.value())
        lines << QStringLiteral("  %1: %2").arg(path, describe(m));
}
} // namespace

BrokerSnapshot BrokerSnapshot::take(const Broker& broker) {
    BrokerSnapshot snapshot;
    QStringList& lines = snapshot.m_lines;
    for (const NamespaceInfo& ns : broker.namespaces())
        lines << QStringLiteral("namespace %1 tier=%2").arg(ns.name, tierName(ns.tier));
    for (const EntityInfo& e : broker.entities()) {
        const QString qualified = e.namespaceName + QLatin1Char(':') + e.path;
        lines << QStringLiteral("entity %1 kind=%2 name=%3 topic=%4 created=%5 updated=%6 "
                                "activity=%7 autoDeleteAt=%8")
                     .arg(qualified, entityKindName(e.kind), e.name, e.topicPath)
                     .arg(e.createdAt)
                     .arg(e.updatedAt)
                     .arg(e.lastActivityAt)
                     .arg(e.autoDeleteAt);
        lines << QStringLiteral("  properties %1").arg(describe(e.properties));
        lines << QStringLiteral("  counts %1").arg(describe(e.counts));
        for (const Rule& rule : e.rules)
            lines << QStringLiteral("  %1").arg(describe(rule));
        if (e.kind == EntityKind::Topic)
            continue;
        addMessages(broker, qualified, lines);
        addMessages(broker, qualified + QStringLiteral("/$deadletterqueue"), lines);
        const auto reasons = broker.deadLetterReasons(qualified);
        if (reasons) {
            for (auto it = reasons->cbegin(); it != reasons->cend(); ++it)
                lines << QStringLiteral("  reason %1=%2").arg(it.key()).arg(it.value());
        }
    }
    return snapshot;
}

BrokerSnapshot BrokerSnapshot::fromLines(const QStringList& lines) {
    BrokerSnapshot snapshot;
    snapshot.m_lines = lines;
    return snapshot;
}

QString BrokerSnapshot::differenceFrom(const BrokerSnapshot& other) const {
    if (m_lines == other.m_lines)
        return {};
    const qsizetype common = std::min(m_lines.size(), other.m_lines.size());
    for (qsizetype i = 0; i < common; ++i) {
        if (m_lines[i] != other.m_lines[i])
            return QStringLiteral("\n  before: %1\n  after:  %2").arg(m_lines[i], other.m_lines[i]);
    }
    const QStringList& longer = m_lines.size() > other.m_lines.size() ? m_lines : other.m_lines;
    return QStringLiteral("\n  %1 has an extra line: %2")
        .arg(m_lines.size() > other.m_lines.size() ? QStringLiteral("before")
                                                   : QStringLiteral("after"),
             longer[common]);
}

} // namespace hourglass::testing
