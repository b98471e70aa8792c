#pragma once
// A line edit for an ISO-8601 duration ("PT30S", "P14D"), or "infinite" where the property allows
// it, with the value in readable form next to it ("30s", "14d 0h", "never"). Text that does not
// parse is marked and the readable label says why, so a form can refuse it before anything is
// sent. Parsing and formatting are the engine's (Time.h), so the UI accepts exactly what config
// files and scenarios accept.
//
// Object names: setObjectName("x") names the inner line edit "xText" and the label "xReadable".

#include "Time.h"

#include <QWidget>

#include <optional>

class QLabel;
class QLineEdit;

namespace hourglass::ui {

class DurationEdit : public QWidget {
    Q_OBJECT
public:
    enum class Infinite { Refused, Allowed };

    explicit DurationEdit(Infinite infinite = Infinite::Refused, QWidget* parent = nullptr);

    // Shows `duration` as ISO-8601, kInfinite as "infinite".
    void setDuration(Millis duration);
    // The parsed value, or nullopt while the text is not a duration (see problem()).
    std::optional<Millis> duration() const;
    bool isValid() const { return duration().has_value(); }
    // Why the text is not a duration; empty when it is.
    QString problem() const { return m_problem; }
    // Marks the field as refused by a validator although it parses (an out-of-bound value).
    void setRefused(bool refused);

    QLineEdit* lineEdit() const { return m_edit; }
    QLabel* readableLabel() const { return m_readable; }

signals:
    // After every edit, valid or not.
    void durationEdited();

private:
    void reparse();
    void updateMark();

    Infinite m_infinite;
    QLineEdit* m_edit;
    QLabel* m_readable;
    std::optional<Millis> m_value;
    QString m_problem;
    bool m_refused = false;
};

// How a duration is written in the UI: ISO-8601, and "infinite" for kInfinite.
QString durationText(Millis duration);

} // namespace hourglass::ui
