#include "common/ThemedIcon.h"

#include <QPainter>
#include <QPixmap>
#include <QWidget>

namespace hourglass::ui {

QIcon themedStandardIcon(const QWidget* widget, QStyle::StandardPixmap pixmap) {
    const QIcon source = widget->style()->standardIcon(pixmap, nullptr, widget);
    const QColor ink = widget->palette().color(QPalette::Active, QPalette::ButtonText);
    const QColor faded = widget->palette().color(QPalette::Disabled, QPalette::ButtonText);
    QIcon tinted;
    for (const int size : {16, 24, 32}) {
        for (const auto& [mode, colour] :
             {std::pair{QIcon::Normal, ink}, std::pair{QIcon::Disabled, faded}}) {
            QPixmap image = source.pixmap(size, size);
            // Keep the glyph's shape (its alpha), paint it in the palette's colour.
            QPainter painter(&image);
            painter.setCompositionMode(QPainter::CompositionMode_SourceIn);
            painter.fillRect(image.rect(), colour);
            painter.end();
            tinted.addPixmap(image, mode);
        }
    }
    return tinted;
}

} // namespace hourglass::ui
