#include "common/InlineError.h"

#include "common/Theme.h"

#include <QLabel>
#include <QPalette>
#include <QWidget>

namespace hourglass::ui {

QColor errorTextColor() {
    return paletteIsDark() ? QColor(0xff, 0x8a, 0x80) : QColor(0xb7, 0x1c, 0x1c);
}

QLabel* makeInlineErrorLabel(const QString& objectName, QWidget* parent, int reservedLines) {
    auto* label = new QLabel(parent);
    label->setObjectName(objectName);
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QPalette palette = label->palette();
    palette.setColor(QPalette::WindowText, errorTextColor());
    label->setPalette(palette);
    QSizePolicy policy = label->sizePolicy();
    policy.setRetainSizeWhenHidden(true);
    label->setSizePolicy(policy);
    label->setMinimumHeight(label->fontMetrics().lineSpacing() * reservedLines);
    // A one-line problem in a taller room sits at its top, under the field it is about.
    label->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    label->hide();
    return label;
}

void showInlineError(QLabel* label, const Error& error) {
    label->setText(errorCodeName(error.code) + QStringLiteral(": ") + error.description);
    label->setToolTip(error.toString());
    label->show();
}

void markInvalid(QWidget* field, bool invalid) {
    // A tinted base, not a style sheet, so the platform style keeps drawing the frame.
    QPalette palette = field->parentWidget() ? field->parentWidget()->palette() : QPalette();
    if (invalid)
        palette.setColor(QPalette::Base,
                         paletteIsDark() ? QColor(0x5c, 0x25, 0x25) : QColor(0xfd, 0xe7, 0xe7));
    field->setPalette(palette);
    field->setProperty("invalid", invalid);
}

} // namespace hourglass::ui
