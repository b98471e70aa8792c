#include "demo/PresentationCountTiles.h"

#include <QEvent>
#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QVBoxLayout>

namespace hourglass::ui {

namespace {
// The number is the point of a tile: much larger than the (already enlarged) view font.
constexpr double kNumberScale = 2.4;
constexpr int kAccentWidth = 8;
constexpr int kRadius = 12;

const QString kTileStyle = QStringLiteral(
    "QFrame#%1 { background-color: %2; border: 1px solid %3; border-radius: %4px; }");
const QString kStripeStyle =
    QStringLiteral("QFrame { background-color: %1; border: none; border-radius: %2px; }");
} // namespace

PresentationCountTiles::PresentationCountTiles(QWidget* parent)
    : QWidget(parent) {
    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(0, 0, 0, 0);
    row->setSpacing(24);
    addTile(charts::ActiveSeries, QStringLiteral("presentationActive"), tr("Active"));
    addTile(charts::ScheduledSeries, QStringLiteral("presentationScheduled"), tr("Scheduled"));
    addTile(charts::LockedSeries, QStringLiteral("presentationLocked"), tr("Locked"));
    addTile(charts::DeferredSeries, QStringLiteral("presentationDeferred"), tr("Deferred"));
    addTile(charts::DeadLetteredSeries, QStringLiteral("presentationDeadLettered"),
            tr("Dead-lettered"));
    applyStyle();
    clear();
}

void PresentationCountTiles::addTile(charts::CountsSeries series, const QString& objectName,
                                     const QString& caption) {
    Tile tile{series, new QFrame(this), nullptr, nullptr};
    tile.frame->setObjectName(objectName + QStringLiteral("Tile"));
    tile.number = new QLabel(tile.frame);
    tile.number->setObjectName(objectName);
    QFont big = tile.number->font();
    big.setPointSizeF(big.pointSizeF() * kNumberScale);
    big.setBold(true);
    tile.number->setFont(big);
    // Not greyed: a projector washes pale text out; the size difference is hierarchy enough.
    auto* label = new QLabel(caption, tile.frame);
    tile.stripe = new QFrame(tile.frame);
    tile.stripe->setFixedWidth(kAccentWidth);
    auto* row = new QHBoxLayout(tile.frame);
    row->setContentsMargins(12, 12, 16, 14);
    row->setSpacing(20);
    row->addWidget(tile.stripe);
    auto* column = new QVBoxLayout;
    column->setSpacing(0);
    column->addWidget(tile.number);
    column->addWidget(label);
    row->addLayout(column, 1);
    static_cast<QHBoxLayout*>(layout())->addWidget(tile.frame, 1);
    m_tiles.append(tile);
}

QColor PresentationCountTiles::accent(charts::CountsSeries series) {
    switch (series) {
    case charts::ActiveSeries:
        return QColor(0x43, 0xa0, 0x47); // green: ready to be received
    case charts::ScheduledSeries:
        return QColor(0x1e, 0x88, 0xe5); // blue: waiting for its time
    case charts::DeferredSeries:
        return QColor(0x8e, 0x6b, 0xbf); // violet: set aside
    case charts::LockedSeries:
        return QColor(0xf5, 0x9e, 0x0b); // amber: in a receiver's hands
    case charts::DeadLetteredSeries:
        return QColor(0xe5, 0x39, 0x35); // red: failed
    }
    return {};
}

void PresentationCountTiles::setCounts(const EntityCounts& counts) {
    const QLocale locale;
    for (const Tile& tile : std::as_const(m_tiles)) {
        qint64 value = 0;
        switch (tile.series) {
        case charts::ActiveSeries:
            value = counts.active;
            break;
        case charts::ScheduledSeries:
            value = counts.scheduled;
            break;
        case charts::DeferredSeries:
            value = counts.deferred;
            break;
        case charts::LockedSeries:
            value = counts.locked;
            break;
        case charts::DeadLetteredSeries:
            value = counts.deadLettered;
            break;
        }
        tile.number->setText(locale.toString(value));
    }
}

void PresentationCountTiles::clear() {
    for (const Tile& tile : std::as_const(m_tiles))
        tile.number->setText(QStringLiteral("\u2013"));
}

void PresentationCountTiles::applyStyle() {
    // A tile is a card a shade off the window (Base in both themes), edged by its accent.
    const QPalette p = palette();
    const QString background = p.color(QPalette::Base).name();
    const QString border = p.color(QPalette::Mid).name();
    for (const Tile& tile : std::as_const(m_tiles)) {
        tile.frame->setStyleSheet(
            kTileStyle.arg(tile.frame->objectName(), background, border).arg(kRadius));
        tile.stripe->setStyleSheet(
            kStripeStyle.arg(accent(tile.series).name()).arg(kAccentWidth / 2));
    }
}

void PresentationCountTiles::changeEvent(QEvent* event) {
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::ApplicationPaletteChange)
        applyStyle();
    QWidget::changeEvent(event);
}

} // namespace hourglass::ui
