#pragma once
// Decides whether a message matches the message list's filter text. Two forms:
//  - plain text: a case-insensitive substring of any system property (message id, correlation
//    id, session id, reply-to session id, subject, to, reply-to, content type, dead-letter reason,
//    description and source) or of any application property's name or value; and of the body
//    (read as UTF-8) when bodies are searched;
//  - "name=value": an application property named `name` whose value reads exactly `value`
//    (names compare case-insensitively as an operator types them, values exactly). The same
//    text as a plain substring matches too, so "a=b" written in a subject or body is still found;
//    "SessionId=value" also matches the messages of that session (the Sessions view's "Show
//    messages" filters the list so);
//  - "*": every message. The list then holds them all (up to the search cap) and sorts by any
//    column, which the windowed list of a whole entity cannot.
//
// Threads: a matcher is an immutable value; copies may be used on any thread at once.

#include "hourglass/Message.h"

#include <QString>

namespace hourglass::ui {

class MessageMatcher {
public:
    enum class Bodies { Skip, Search };

    // The empty matcher: matches every message.
    MessageMatcher() = default;
    // The text is trimmed; an empty text matches every message.
    MessageMatcher(const QString& text, Bodies bodies);

    QString text() const { return m_text; }
    bool isEmpty() const { return m_text.isEmpty(); }
    // Whether matching reads bodies (so a scan must load them).
    bool searchesBodies() const { return m_bodies == Bodies::Search; }
    // True for "*": every message matches.
    bool matchesEverything() const { return m_text == QLatin1String("*"); }
    // True when the text has the "name=value" form.
    bool isPropertyPair() const { return !m_propertyName.isEmpty(); }

    bool matches(const MessageView& message) const;

    bool operator==(const MessageMatcher&) const = default;

private:
    bool matchesText(const MessageView& message) const;
    bool matchesPropertyPair(const MessageView& message) const;

    QString m_text;
    Bodies m_bodies = Bodies::Skip;
    QString m_propertyName;
    QString m_propertyValue;
};

} // namespace hourglass::ui
