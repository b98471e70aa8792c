#include "FixedPitchFont.h"

#include <QFontInfo>
#include <QStringList>

namespace hourglass::ui {

namespace {

// What counts is the face the font resolves to on this machine, not what the QFont asks for.
bool resolvesFixedPitch(const QFont& font) {
    return QFontInfo(font).fixedPitch();
}

} // namespace

QFont fixedPitchFont(const QFont& base) {
    if (resolvesFixedPitch(base))
        return base;

    QFont font = base;
    font.setFixedPitch(true);
    for (const QFont::StyleHint hint : {QFont::Monospace, QFont::TypeWriter}) {
        font.setStyleHint(hint);
        if (resolvesFixedPitch(font))
            return font;
    }

    // Families that are fixed-pitch wherever they exist; a missing one resolves to a substitute,
    // which the check judges like any other face.
    const QStringList families = {
        QStringLiteral("DejaVu Sans Mono"), QStringLiteral("Liberation Mono"),
        QStringLiteral("Noto Mono"),        QStringLiteral("Noto Sans Mono"),
        QStringLiteral("monospace"),        QStringLiteral("Courier New"),
        QStringLiteral("Courier"),
    };
    for (const QString& family : families) {
        font.setFamily(family);
        if (resolvesFixedPitch(font))
            return font;
    }
    for (const QString& family : QFontDatabase::families()) {
        if (!QFontDatabase::isFixedPitch(family))
            continue;
        font.setFamily(family);
        if (resolvesFixedPitch(font))
            return font;
    }
    return base;
}

} // namespace hourglass::ui
