#pragma once
// The message list's filter bar: the filter text (applied after a short pause in typing, at once
// on Enter), "Search bodies", a Clear button and a status note. It only asks: the panel decides
// what a filter does and writes the status.
//
// Object names for tests: "messageFilter", "searchBodies", "messageFilterClear", "filterStatus".

#include "messages/MessageMatcher.h"

#include <QWidget>

class QCheckBox;
class QLabel;
class QLineEdit;
class QTimer;
class QToolButton;

namespace hourglass::ui {

class MessageFilterBar : public QWidget {
    Q_OBJECT
public:
    // How long the filter waits after the last keystroke.
    static constexpr int kDelayMs = 300;
    // Enter asks again even for the same text (the list may have changed since).
    enum class Apply { IfChanged, Again };

    explicit MessageFilterBar(QWidget* parent = nullptr);

    MessageMatcher matcher() const;
    QLineEdit* edit() const { return m_edit; }
    void setStatus(const QString& text);
    // Whether a filter is in force (Clear stays enabled while one is, even with the text gone).
    void setActive(bool active);

signals:
    void applyRequested(hourglass::ui::MessageFilterBar::Apply apply);

private:
    void request(Apply apply);
    void updateClear();

    QLineEdit* m_edit;
    QCheckBox* m_bodies;
    QToolButton* m_clear;
    QLabel* m_status;
    QTimer* m_delay;
    bool m_active = false;
};

} // namespace hourglass::ui
