#include "messages/CountdownDelegate.h"

#include "common/DurationText.h"
#include "messages/MessageListModel.h"

#include <QApplication>
#include <QPainter>
#include <QPainterPath>

namespace hourglass::ui {

namespace {
constexpr double kAmberBelow = 0.25;
constexpr double kRedBelow = 0.10;
constexpr int kMargin = 3;
const QColor kGreen(0x43, 0xa0, 0x47);
const QColor kAmber(0xff, 0xa0, 0x00);
const QColor kRed(0xe5, 0x39, 0x35);
const QColor kBlue(0x42, 0x7e, 0xc9);
} // namespace

CountdownDelegate::CountdownDelegate(Meaning meaning, QObject* parent)
    : QStyledItemDelegate(parent)
    , m_meaning(meaning) {}

QColor CountdownDelegate::barColor(Meaning meaning, double fraction) {
    if (fraction < kRedBelow)
        return kRed;
    if (fraction < kAmberBelow)
        return kAmber;
    return meaning == Meaning::TimeToLive ? kGreen : kBlue;
}

void CountdownDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option,
                              const QModelIndex& index) const {
    const QVariant value = index.data(MessageListModel::CountdownRole);
    if (!value.canConvert<Countdown>()) {
        QStyledItemDelegate::paint(painter, option, index);
        return;
    }
    // The item background (selection, hover, alternate rows) as the style draws it, no text.
    QStyleOptionViewItem background = option;
    initStyleOption(&background, index);
    background.text.clear();
    const QWidget* widget = option.widget;
    QStyle* style = widget ? widget->style() : QApplication::style();
    style->drawControl(QStyle::CE_ItemViewItem, &background, painter, widget);

    painter->save();
    painter->setClipRect(option.rect);
    drawCountdown(painter, option, value.value<Countdown>());
    painter->restore();
}

void CountdownDelegate::drawCountdown(QPainter* painter, const QStyleOptionViewItem& option,
                                      const Countdown& countdown) const {
    const QRect box = option.rect.adjusted(kMargin, kMargin, -kMargin, -kMargin);
    const bool selected = option.state.testFlag(QStyle::State_Selected);
    QColor textColor = option.palette.color(selected ? QPalette::HighlightedText : QPalette::Text);
    QRect textBox = box.adjusted(kMargin, 0, -kMargin, 0);

    switch (countdown.kind) {
    case Countdown::Kind::None:
        return;
    case Countdown::Kind::Never:
        textColor.setAlphaF(0.6f);
        break;
    case Countdown::Kind::Running: {
        const QColor color = barColor(m_meaning, countdown.fraction);
        QColor fill = color;
        fill.setAlphaF(0.45f);
        QRect bar = box;
        bar.setWidth(qMax(1, int(box.width() * countdown.fraction)));
        painter->fillRect(bar, fill);
        painter->setPen(color);
        painter->drawLine(bar.bottomLeft(), bar.bottomRight());
        break;
    }
    case Countdown::Kind::Expired:
    case Countdown::Kind::HeldByLock: {
        QColor hatch = kRed;
        hatch.setAlphaF(0.5f);
        painter->fillRect(box, QBrush(hatch, Qt::BDiagPattern));
        painter->setPen(kRed);
        painter->drawRect(box.adjusted(0, 0, -1, -1));
        // Darker than the hatch on a light base, lighter on a dark one: readable on either.
        if (!selected)
            textColor = option.palette.color(QPalette::Base).lightness() < 128 ? kRed.lighter(140)
                                                                               : kRed.darker(130);
        break;
    }
    }

    // The lock glyph: in the TTL column it says "a lock keeps this message from expiring" (T6).
    if (m_meaning == Meaning::TimeToLive && countdown.locked &&
        countdown.kind != Countdown::Kind::Never) {
        const int side = qMin(box.height(), 14);
        const QRect glyph(textBox.left(), box.center().y() - side / 2, side, side);
        drawLockGlyph(painter, glyph, textColor);
        textBox.setLeft(glyph.right() + kMargin + 1);
    }

    QFont font = option.font;
    if (countdown.kind == Countdown::Kind::Expired || countdown.kind == Countdown::Kind::HeldByLock)
        font.setBold(true);
    painter->setFont(font);
    painter->setPen(textColor);
    const QString text =
        option.fontMetrics.elidedText(countdown.text, Qt::ElideRight, textBox.width());
    painter->drawText(textBox, Qt::AlignLeft | Qt::AlignVCenter, text);
}

void CountdownDelegate::drawLockGlyph(QPainter* painter, const QRect& box,
                                      const QColor& color) const {
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    const qreal w = box.width();
    const qreal h = box.height();
    // The shackle: an arch over the upper half; the body: a filled rounded rectangle below.
    QPainterPath shackle;
    const QRectF arch(box.left() + w * 0.25, box.top() + h * 0.05, w * 0.5, h * 0.6);
    shackle.arcMoveTo(arch, 180);
    shackle.arcTo(arch, 180, -180);
    painter->setPen(QPen(color, qMax(1.0, w / 8)));
    painter->setBrush(Qt::NoBrush);
    painter->drawPath(shackle);
    const QRectF body(box.left() + w * 0.12, box.top() + h * 0.42, w * 0.76, h * 0.55);
    painter->setPen(Qt::NoPen);
    painter->setBrush(color);
    painter->drawRoundedRect(body, w * 0.1, w * 0.1);
    painter->restore();
}

} // namespace hourglass::ui
