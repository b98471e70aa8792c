#pragma once
// A style's standard icon (play, pause, step...) drawn in the widget's text colour. Fusion's
// media glyphs are black whatever the palette, so on the dark theme they all but vanish; tinting
// them with the palette's ButtonText keeps them readable on light and dark alike.

#include <QIcon>
#include <QStyle>

class QWidget;

namespace hourglass::ui {

QIcon themedStandardIcon(const QWidget* widget, QStyle::StandardPixmap pixmap);

} // namespace hourglass::ui
