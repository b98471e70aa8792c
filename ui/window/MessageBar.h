#pragma once
// The inline message bar at the top of the window (DESIGN.md: errors appear inline, never as a
// crash or a modal box): an engine error with its code, description and tracking id, or a short
// notice. Hidden when there is nothing to say; closed by its button or replaced by the next one.

#include "Status.h"

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
    void showError(const Error& error, const QString& context = {});
    QString text() const;

private:
    QLabel* m_label;
    QToolButton* m_close;
};

} // namespace hourglass::ui
