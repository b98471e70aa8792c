#include "messages/MessageMatcher.h"

#include <initializer_list>

namespace hourglass::ui {

MessageMatcher::MessageMatcher(const QString& text, Bodies bodies)
    : m_text(text.trimmed())
    , m_bodies(bodies) {
    // "name=value" needs a name: "=x" or "x=" alone are plain text.
    const qsizetype equals = m_text.indexOf(QLatin1Char('='));
    if (equals > 0) {
        m_propertyName = m_text.left(equals).trimmed();
        m_propertyValue = m_text.mid(equals + 1).trimmed();
    }
}

bool MessageMatcher::matches(const MessageView& message) const {
    if (isEmpty() || matchesEverything())
        return true;
    return (isPropertyPair() && matchesPropertyPair(message)) || matchesText(message);
}

bool MessageMatcher::matchesPropertyPair(const MessageView& message) const {
    // The one system property with a pair of its own: a session's messages (S1), exactly.
    if (m_propertyName.compare(QLatin1String("SessionId"), Qt::CaseInsensitive) == 0 &&
        message.sessionId == m_propertyValue)
        return true;
    for (auto it = message.applicationProperties.cbegin();
         it != message.applicationProperties.cend(); ++it) {
        if (it.key().compare(m_propertyName, Qt::CaseInsensitive) == 0 &&
            it.value().toString() == m_propertyValue)
            return true;
    }
    return false;
}

bool MessageMatcher::matchesText(const MessageView& message) const {
    auto has = [this](const QString& field) { return field.contains(m_text, Qt::CaseInsensitive); };
    for (const SystemTextProperty& property : kSystemTextProperties) {
        if (has(message.*property.member))
            return true;
    }
    for (const QString* field : {&message.deadLetterReason, &message.deadLetterErrorDescription,
                                 &message.deadLetterSource}) {
        if (has(*field))
            return true;
    }
    for (auto it = message.applicationProperties.cbegin();
         it != message.applicationProperties.cend(); ++it) {
        if (has(it.key()) || has(it.value().toString()))
            return true;
    }
    // Bodies are bytes; the ones worth searching as text are UTF-8 (JSON, XML, plain text).
    return searchesBodies() && message.hasBody && has(QString::fromUtf8(message.body));
}

} // namespace hourglass::ui
