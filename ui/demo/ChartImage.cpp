#include "demo/ChartImage.h"

#include <QDateTime>
#include <QFontMetrics>
#include <QPainter>
#include <QPixmap>
#include <QRegularExpression>
#include <QWidget>

#include <algorithm>
#include <cmath>

namespace hourglass::ui::charts {

namespace {
// The title's pixel size per pixel of image width: 29 px on a 1600-pixel picture.
constexpr double kTitleScale = 1.0 / 55.0;

QDateTime local(Instant at) {
    return QDateTime::fromMSecsSinceEpoch(at).toLocalTime();
}
} // namespace

QImage titledImage(QWidget* widget, const QString& title) {
    const QSize logical = widget->size().expandedTo(QSize(1, 1));
    const qreal ratio = std::max<qreal>(1.0, qreal(kMinImageWidth) / qreal(logical.width()));
    const QSize physical(int(std::ceil(logical.width() * ratio)),
                         int(std::ceil(logical.height() * ratio)));
    QPixmap body(physical);
    body.setDevicePixelRatio(ratio);
    body.fill(widget->palette().color(QPalette::Window));
    widget->render(&body);

    QFont font = widget->font();
    font.setPixelSize(std::max(18, int(physical.width() * kTitleScale)));
    font.setBold(true);
    const QFontMetrics metrics(font);
    const int margin = metrics.height() / 2;
    const int band = metrics.height() + 2 * margin;
    QImage image(physical.width(), band + physical.height(), QImage::Format_ARGB32_Premultiplied);
    image.fill(widget->palette().color(QPalette::Window));
    QPainter painter(&image);
    painter.setRenderHint(QPainter::TextAntialiasing);
    painter.setFont(font);
    painter.setPen(widget->palette().color(QPalette::WindowText));
    const QRect titleBox(margin, 0, physical.width() - 2 * margin, band);
    painter.drawText(titleBox, Qt::AlignLeft | Qt::AlignVCenter,
                     metrics.elidedText(title, Qt::ElideMiddle, titleBox.width()));
    QImage drawn = body.toImage();
    drawn.setDevicePixelRatio(1.0);
    painter.drawImage(QPoint(0, band), drawn);
    painter.end();
    return image;
}

QString rangeText(Instant first, Instant last) {
    const QDateTime from = local(first);
    const QDateTime to = local(last);
    const QString end = from.date() == to.date()
                            ? to.toString(QStringLiteral("HH:mm:ss"))
                            : to.toString(QStringLiteral("d MMM yyyy HH:mm:ss"));
    return QStringLiteral("%1 \u2013 %2")
        .arg(from.toString(QStringLiteral("d MMM yyyy HH:mm:ss")), end);
}

QString imageFileBase(const QString& entityPath, const QString& chart, Instant first,
                      Instant last) {
    QString entity = entityPath;
    // Only what every file system takes: "webshop:jobs/$deadletterqueue" -> "webshop-jobs-..."
    entity.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9._-]+")), QStringLiteral("-"));
    const QDateTime from = local(first);
    const QDateTime to = local(last);
    const QString end = from.date() == to.date() ? to.toString(QStringLiteral("HHmmss"))
                                                 : to.toString(QStringLiteral("yyyy-MM-dd_HHmmss"));
    return QStringLiteral("%1%2_%3-%4")
        .arg(entity, chart.isEmpty() ? QString() : u'-' + chart,
             from.toString(QStringLiteral("yyyy-MM-dd_HHmmss")), end);
}

} // namespace hourglass::ui::charts
