#include "hourglass/EntityPath.h"

#include <QStringList>

namespace hourglass {

namespace {
bool isNameChar(QChar c) {
    return (c >= u'a' && c <= u'z') || (c >= u'A' && c <= u'Z') || (c >= u'0' && c <= u'9') ||
           c == u'.' || c == u'-' || c == u'_';
}

Error bad(const QString& text) {
    return makeError(ErrorCode::InvalidArgument, text);
}
} // namespace

Result<void> validateQueueOrTopicPath(const QString& path) {
    if (path.isEmpty())
        return bad(QStringLiteral("An entity path cannot be empty."));
    if (path.size() > 260)
        return bad(QStringLiteral("The entity path '%1...' is %2 characters long; at most 260 "
                                  "are allowed.")
                       .arg(path.left(20))
                       .arg(path.size()));
    if (path.startsWith(u'/') || path.endsWith(u'/'))
        return bad(QStringLiteral("The entity path '%1' cannot start or end with '/'.").arg(path));
    for (const QChar c : path) {
        if (!isNameChar(c) && c != u'/')
            return bad(QStringLiteral("The entity path '%1' contains '%2'; only letters, digits, "
                                      "'.', '-', '_' and '/' are allowed.")
                           .arg(path, QString(c)));
    }
    const auto segments = path.split(u'/');
    for (const QString& segment : segments) {
        if (segment.isEmpty())
            return bad(QStringLiteral("The entity path '%1' has an empty segment.").arg(path));
        if (segment.compare(kSubscriptionsSegment, Qt::CaseInsensitive) == 0)
            return bad(QStringLiteral("The entity path '%1' cannot contain the reserved segment "
                                      "'Subscriptions'.")
                           .arg(path));
    }
    return {};
}

Result<void> validateSubscriptionName(const QString& name) {
    if (name.isEmpty())
        return bad(QStringLiteral("A subscription or rule name cannot be empty."));
    if (name.size() > 50)
        return bad(QStringLiteral("The name '%1' is %2 characters long; at most 50 are allowed.")
                       .arg(name)
                       .arg(name.size()));
    for (const QChar c : name) {
        if (!isNameChar(c))
            return bad(QStringLiteral("The name '%1' contains '%2'; only letters, digits, '.', "
                                      "'-' and '_' are allowed.")
                           .arg(name, QString(c)));
    }
    return {};
}

Result<void> validateNamespaceName(const QString& name) {
    if (name.isEmpty() || name.size() > 50)
        return bad(QStringLiteral("A namespace name must have 1 to 50 characters."));
    for (const QChar c : name) {
        const bool ok = (c >= u'a' && c <= u'z') || (c >= u'A' && c <= u'Z') ||
                        (c >= u'0' && c <= u'9') || c == u'-';
        if (!ok)
            return bad(QStringLiteral("The namespace name '%1' contains '%2'; only letters, "
                                      "digits and '-' are allowed.")
                           .arg(name, QString(c)));
    }
    return {};
}

Result<ParsedPath> parseEntityPath(const QString& text) {
    ParsedPath parsed;
    QString rest = text;
    const int colon = rest.indexOf(u':');
    if (colon >= 0) {
        parsed.namespaceName = rest.left(colon);
        if (auto ok = validateNamespaceName(parsed.namespaceName); !ok)
            return ok.error();
        rest = rest.mid(colon + 1);
    }
    if (rest.endsWith(kDeadLetterSuffix, Qt::CaseInsensitive)) {
        parsed.deadLetter = true;
        rest.chop(kDeadLetterSuffix.size());
    }
    // "topic/Subscriptions/name": the last two segments mark a subscription.
    const int last = rest.lastIndexOf(u'/');
    if (last > 0) {
        const int previous = rest.lastIndexOf(u'/', last - 1);
        const QString middle = rest.mid(previous + 1, last - previous - 1);
        if (previous > 0 && middle.compare(kSubscriptionsSegment, Qt::CaseInsensitive) == 0) {
            parsed.isSubscription = true;
            parsed.topicPath = rest.left(previous);
            parsed.subscriptionName = rest.mid(last + 1);
            if (auto ok = validateQueueOrTopicPath(parsed.topicPath); !ok)
                return ok.error();
            if (auto ok = validateSubscriptionName(parsed.subscriptionName); !ok)
                return ok.error();
            parsed.entityPath =
                parsed.topicPath + u'/' + kSubscriptionsSegment + u'/' + parsed.subscriptionName;
            return parsed;
        }
    }
    if (auto ok = validateQueueOrTopicPath(rest); !ok)
        return ok.error();
    parsed.entityPath = rest;
    return parsed;
}

} // namespace hourglass
