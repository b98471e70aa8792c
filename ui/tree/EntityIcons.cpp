#include "tree/EntityIcons.h"

#include <QHash>
#include <QPainter>
#include <QPainterPath>
#include <QPixmap>

namespace hourglass::ui {

namespace {

// Drawn at two sizes so that high-DPI screens and large-icon views stay crisp.
constexpr int kSizes[] = {16, 32};

// Every glyph is drawn in a 16x16 box; the painter is scaled for larger sizes.
void drawNamespace(QPainter& p) {
    // A rounded box: the container of everything else.
    p.setPen(QPen(QColor(0x45, 0x5a, 0x64), 1.2));
    p.setBrush(QColor(0xcf, 0xd8, 0xdc));
    p.drawRoundedRect(QRectF(1.5, 2.5, 13, 11), 2, 2);
    p.drawLine(QPointF(1.5, 5.5), QPointF(14.5, 5.5));
}

void drawQueue(QPainter& p) {
    // Three stacked cells: messages waiting in line.
    p.setPen(QPen(QColor(0x15, 0x65, 0xc0), 1.0));
    p.setBrush(QColor(0x64, 0xb5, 0xf6));
    for (int i = 0; i < 3; ++i)
        p.drawRect(QRectF(1.5 + i * 4.5, 4.5, 3.5, 7));
}

void drawTopic(QPainter& p) {
    // One source fanning out to three: publish / subscribe.
    p.setPen(QPen(QColor(0x2e, 0x7d, 0x32), 1.4));
    p.setBrush(Qt::NoBrush);
    const QPointF source(3.5, 8);
    for (double y : {3.0, 8.0, 13.0})
        p.drawLine(source, QPointF(12.5, y));
    p.setBrush(QColor(0x81, 0xc7, 0x84));
    p.drawEllipse(source, 2.5, 2.5);
}

void drawSubscription(QPainter& p) {
    // An inbox tray: a topic's copy of the messages.
    p.setPen(QPen(QColor(0x6a, 0x1b, 0x9a), 1.2));
    p.setBrush(QColor(0xce, 0x93, 0xd8));
    QPainterPath tray;
    tray.moveTo(1.5, 7.5);
    tray.lineTo(5.5, 7.5);
    tray.lineTo(6.5, 9.5);
    tray.lineTo(9.5, 9.5);
    tray.lineTo(10.5, 7.5);
    tray.lineTo(14.5, 7.5);
    tray.lineTo(14.5, 13.5);
    tray.lineTo(1.5, 13.5);
    tray.closeSubpath();
    p.drawPath(tray);
    p.drawLine(QPointF(8, 1.5), QPointF(8, 6));
    p.drawLine(QPointF(6, 4), QPointF(8, 6));
    p.drawLine(QPointF(10, 4), QPointF(8, 6));
}

void drawDeadLetter(QPainter& p, const QColor& edge, const QColor& fill) {
    // A disc with a cross: messages that could not be delivered.
    p.setPen(QPen(edge, 1.0));
    p.setBrush(fill);
    p.drawEllipse(QRectF(1.5, 1.5, 13, 13));
    p.setPen(QPen(Qt::white, 2.0, Qt::SolidLine, Qt::RoundCap));
    p.drawLine(QPointF(5.5, 5.5), QPointF(10.5, 10.5));
    p.drawLine(QPointF(10.5, 5.5), QPointF(5.5, 10.5));
}

QIcon draw(IconKind kind) {
    QIcon icon;
    for (int size : kSizes) {
        QPixmap pixmap(size, size);
        pixmap.fill(Qt::transparent);
        QPainter painter(&pixmap);
        painter.setRenderHint(QPainter::Antialiasing);
        painter.scale(size / 16.0, size / 16.0);
        switch (kind) {
        case IconKind::Namespace:
            drawNamespace(painter);
            break;
        case IconKind::Queue:
            drawQueue(painter);
            break;
        case IconKind::Topic:
            drawTopic(painter);
            break;
        case IconKind::Subscription:
            drawSubscription(painter);
            break;
        case IconKind::DeadLetterQueue:
            drawDeadLetter(painter, QColor(0xb7, 0x1c, 0x1c), QColor(0xe5, 0x39, 0x35));
            break;
        case IconKind::DeadLetterQueueEmpty:
            drawDeadLetter(painter, QColor(0x75, 0x75, 0x75), QColor(0xbd, 0xbd, 0xbd));
            break;
        }
        painter.end();
        icon.addPixmap(pixmap);
    }
    return icon;
}

} // namespace

QIcon EntityIcons::icon(IconKind kind) {
    static QHash<int, QIcon> cache; // GUI thread only
    auto it = cache.find(int(kind));
    if (it == cache.end())
        it = cache.insert(int(kind), draw(kind));
    return *it;
}

} // namespace hourglass::ui
