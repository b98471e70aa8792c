#pragma once
// Light and dark themes: follow the system (the platform's own palette and style), or choose
// one. A chosen theme uses the Fusion style with its own palette, so that it looks the same on
// every desktop and in offscreen screenshots; the countdown colours are picked to read on both.
// The choice is remembered (QSettings "view/theme").

#include <QString>

namespace hourglass::ui {

enum class ThemeChoice { System, Light, Dark };

QString themeChoiceName(ThemeChoice choice); // "system", "light", "dark"
ThemeChoice themeChoiceFromName(const QString& name);

// Applies a theme to the running application (QApplication only).
void applyTheme(ThemeChoice choice);
// The remembered choice (System when none), and remembering one.
ThemeChoice savedTheme();
void saveTheme(ThemeChoice choice);
// Whether the palette in force is dark (text lighter than the window), whatever the choice.
bool paletteIsDark();

} // namespace hourglass::ui
