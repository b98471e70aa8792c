#pragma once
// The inline message bar at the top of the window (errors appear inline, never as a
// crash or a modal box): an engine error with its code, description and tracking id, or a short
// notice. Hidden when there is nothing to say; closed by its button or replaced by the next one.
//
// An error belongs to the action that raised it (its source: "locks", "entities", "clock"...):
// the next success of that source takes it down, and so does a new selection in the tree, so an
// old failure never sits above work that has since gone well. Until then it stays readable.

#include "hourglass/Status.h"

#include <QWidget>

class QLabel;
class QToolButton;

namespace hourglass::ui {

class MessageBar : public QWidget {
    Q_OBJECT
public:
    explicit MessageBar(QWidget* parent = nullptr);

    enum class Kind { Information, Error };
    void showMessage(const QString& text, Kind kind = Kind::Information);
    // "MessagingEntityNotFound: ... (TrackingId: ...)", plus whether a retry can help.
    void showError(const Error& error, const QString& context = {}, const QString& source = {});
    // `source` did something that worked: its error, if that is what the bar shows, goes.
    void sourceSucceeded(const QString& source);
    // The user moved on (a new selection): an error goes; a notice stays until closed.
    void dismissError();
    QString text() const;
    bool showsError() const { return !isHidden() && m_kind == Kind::Error; }
    QString source() const { return m_source; }

private:
    QLabel* m_label;
    QToolButton* m_close;
    Kind m_kind = Kind::Information;
    QString m_source; // the source of the error shown; empty for a notice or an unowned error
};

} // namespace hourglass::ui
