#pragma once
// An SQL filter or rule action as it is typed (service-bus-rules.md R3-R5): a plain-text editor
// with the language highlighted (SqlHighlighter), checked a moment after each edit with the
// engine's own compiler (hourglass/SqlCheck.h: checkSqlFilter or checkSqlAction; pure, and a text
// is at most 1,024 characters, so it runs on the GUI thread). A refusal shows under the editor with
// its code and description, as the engine words it, and the token in error gets a wavy underline at
// the line and column the description names (sqlParseErrorLocation). A valid text shows a calm
// "Valid"; an empty one shows nothing (an empty action is no action; the engine refuses an empty
// filter when the rule is added).
//
// Object names, from the `name` given: the editor `name` (QPlainTextEdit), the status line
// `name + "Status"`, the debounce timer `name + "CheckTimer"`.

#include "entities/SqlHighlighter.h"
#include "hourglass/Status.h"

#include <QWidget>

#include <optional>

class QLabel;
class QPlainTextEdit;
class QTimer;

namespace hourglass::ui {

class SqlExpressionField : public QWidget {
    Q_OBJECT
public:
    using Language = SqlHighlighter::Language;

    SqlExpressionField(Language language, const QString& name, QWidget* parent = nullptr);

    QPlainTextEdit* editor() const { return m_editor; }
    SqlHighlighter* highlighter() const { return m_highlighter; }
    // The text as a rule carries it: leading and trailing white space dropped.
    QString text() const;
    void clear();

    // Checks the text now (what the debounce timer does when it fires) and shows the outcome.
    void check();
    // The engine's refusal of the text as last checked; nullopt when it passed or is empty.
    const std::optional<Error>& problem() const { return m_problem; }

private:
    void showOutcome();
    // The document range of the token the parse error names; an empty cursor when it has no
    // position (a text too long).
    void underline(const Error& error);

    Language m_language;
    QPlainTextEdit* m_editor;
    SqlHighlighter* m_highlighter;
    QLabel* m_status;
    QTimer* m_debounce;
    std::optional<Error> m_problem;
    QString m_valid; // the calm text of a valid check; empty when nothing was checked or empty
};

} // namespace hourglass::ui
