#include "common/Theme.h"

#include <QApplication>
#include <QPalette>
#include <QSettings>
#include <QStyle>
#include <QStyleFactory>

namespace hourglass::ui {

namespace {
const QString kThemeKey = QStringLiteral("view/theme");

// The platform's own style and palette, captured before a chosen theme replaces them, so that
// "follow the system" can return to them without a restart.
struct SystemLook {
    QString styleName;
    QPalette palette;
};

SystemLook& systemLook() {
    static SystemLook look = [] {
        SystemLook l;
        l.styleName = QApplication::style() ? QApplication::style()->name() : QString();
        l.palette = QApplication::palette();
        return l;
    }();
    return look;
}

QPalette darkPalette() {
    QPalette p;
    const QColor window(0x2b, 0x2d, 0x31);
    const QColor base(0x1f, 0x21, 0x24);
    const QColor text(0xe6, 0xe6, 0xe6);
    const QColor disabledText(0x80, 0x84, 0x8a);
    const QColor highlight(0x3d, 0x7e, 0xd6);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, QColor(0x26, 0x28, 0x2c));
    p.setColor(QPalette::ToolTipBase, QColor(0x3a, 0x3d, 0x42));
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, disabledText);
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, QColor(0x35, 0x38, 0x3d));
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, QColor(0xff, 0x6b, 0x6b));
    p.setColor(QPalette::Link, QColor(0x6c, 0xa8, 0xf0));
    p.setColor(QPalette::Highlight, highlight);
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Light, QColor(0x45, 0x48, 0x4e));
    p.setColor(QPalette::Midlight, QColor(0x3a, 0x3d, 0x42));
    p.setColor(QPalette::Mid, QColor(0x30, 0x32, 0x36));
    p.setColor(QPalette::Dark, QColor(0x18, 0x19, 0x1b));
    p.setColor(QPalette::Shadow, Qt::black);
    for (auto role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        p.setColor(QPalette::Disabled, role, disabledText);
    p.setColor(QPalette::Disabled, QPalette::Highlight, QColor(0x4a, 0x4d, 0x52));
    return p;
}

QPalette lightPalette() {
    QStyle* fusion = QStyleFactory::create(QStringLiteral("Fusion"));
    QPalette p = fusion ? fusion->standardPalette() : QPalette();
    delete fusion;
    p.setColor(QPalette::Highlight, QColor(0x2f, 0x6f, 0xc6));
    p.setColor(QPalette::AlternateBase, QColor(0xf4, 0xf6, 0xf8));
    return p;
}
} // namespace

QString themeChoiceName(ThemeChoice choice) {
    switch (choice) {
    case ThemeChoice::Light:
        return QStringLiteral("light");
    case ThemeChoice::Dark:
        return QStringLiteral("dark");
    case ThemeChoice::System:
        break;
    }
    return QStringLiteral("system");
}

ThemeChoice themeChoiceFromName(const QString& name) {
    if (name == QLatin1String("light"))
        return ThemeChoice::Light;
    if (name == QLatin1String("dark"))
        return ThemeChoice::Dark;
    return ThemeChoice::System;
}

void applyTheme(ThemeChoice choice) {
    const SystemLook& system = systemLook();
    switch (choice) {
    case ThemeChoice::System:
        if (!system.styleName.isEmpty())
            QApplication::setStyle(system.styleName);
        QApplication::setPalette(system.palette);
        return;
    case ThemeChoice::Light:
        QApplication::setStyle(QStringLiteral("Fusion"));
        QApplication::setPalette(lightPalette());
        return;
    case ThemeChoice::Dark:
        QApplication::setStyle(QStringLiteral("Fusion"));
        QApplication::setPalette(darkPalette());
        return;
    }
}

ThemeChoice savedTheme() {
    return themeChoiceFromName(QSettings().value(kThemeKey).toString());
}

void saveTheme(ThemeChoice choice) {
    QSettings().setValue(kThemeKey, themeChoiceName(choice));
}

bool paletteIsDark() {
    const QPalette p = QApplication::palette();
    return p.color(QPalette::WindowText).lightness() > p.color(QPalette::Window).lightness();
}

} // namespace hourglass::ui
