#pragma once
// The tree's icons, drawn with QPainter (the build has no SVG module): one simple glyph and colour
// per kind so that a namespace, a queue, a topic, a subscription and a dead-letter queue are told
// apart at a glance. Each icon is drawn once and cached; call from the GUI thread only.

#include <QIcon>

namespace hourglass::ui {

// An empty dead-letter queue is drawn muted so that only one holding messages catches the eye.
enum class IconKind {
    Namespace,
    Queue,
    Topic,
    Subscription,
    DeadLetterQueue,
    DeadLetterQueueEmpty
};

class EntityIcons {
public:
    // The cached icon of a kind (drawn on first use).
    static QIcon icon(IconKind kind);
};

} // namespace hourglass::ui
