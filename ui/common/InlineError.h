#pragma once
// The inline problem line of the entity dialogs and form (errors inline, with the
// engine's code and description), and the tint of a field that holds a refused value. Colours
// follow the palette in force, so both read on the light and the dark theme.

#include "hourglass/Status.h"

#include <QColor>

class QLabel;
class QWidget;

namespace hourglass::ui {

// A hidden, word-wrapped, selectable label in the error colour, named for tests. It keeps the
// room of `reservedLines` lines while hidden, so the form around it does not jump as a problem
// comes and goes with each keystroke (a longer problem still pushes what follows).
QLabel* makeInlineErrorLabel(const QString& objectName, QWidget* parent, int reservedLines = 1);
// "Code: description" (the tracking id in the tooltip), shown.
void showInlineError(QLabel* label, const Error& error);
// The colour of problem text on the palette in force.
QColor errorTextColor();
// A reddish background for a refused field; the normal one otherwise.
void markInvalid(QWidget* field, bool invalid);

} // namespace hourglass::ui
