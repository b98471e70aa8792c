#pragma once
// Entity paths (service-bus-rules.md E1, E2): "queue", "topic", "topic/Subscriptions/sub", each
// with an optional "/$deadletterqueue" suffix, optionally qualified with a namespace as "ns:path".

#include "hourglass/Status.h"

#include <QString>

namespace hourglass {

struct ParsedPath {
    QString namespaceName; // empty: the default namespace
    QString entityPath;    // without the dead-letter suffix
    bool deadLetter = false;
    bool isSubscription = false;
    QString topicPath;        // subscriptions: the topic's path
    QString subscriptionName; // subscriptions: the last segment
};

inline const QString kDeadLetterSuffix = QStringLiteral("/$deadletterqueue");
inline const QString kSubscriptionsSegment = QStringLiteral("Subscriptions");

// Parses and checks E2; a bad path is an InvalidArgument naming what is wrong.
Result<ParsedPath> parseEntityPath(const QString& text);
// E2 for queue and topic paths: 1-260 characters of letters, digits, '.', '-', '_', '/', no
// leading or trailing '/', no empty segment, no "Subscriptions" segment (it would be ambiguous).
Result<void> validateQueueOrTopicPath(const QString& path);
// E2 for subscription and rule names: 1-50 characters of letters, digits, '.', '-', '_'.
Result<void> validateSubscriptionName(const QString& name);
// Namespace names: 1-50 characters of letters, digits and '-'.
Result<void> validateNamespaceName(const QString& name);

// "ns:path" as used by change notifications and accepted by every Broker call.
inline QString qualifiedPath(const QString& namespaceName, const QString& path) {
    return namespaceName + u':' + path;
}

} // namespace hourglass
