#pragma once
// A line edit for a duration as people type it ("2m", "90s", "1h30m", "00:02:00", "1.00:00:00",
// ISO-8601 "PT2M"), or "infinite" where the property allows it. Beside it, what was understood:
// the ISO-8601 form when something else was typed ("= PT1H30M"), the readable form when ISO was
// ("30s", "14d 0h"), "never" for infinite. Text that does not parse is marked and the label's
// tooltip says why, so a form can refuse it before anything is sent. The parser is the one every
// duration field shares (parseHumanDuration); ISO-8601 goes to the engine's own (Time.h), so
// whatever a config file or scenario accepts is accepted here too.
//
// Object names: setObjectName("x") names the inner line edit "xText" and the label "xReadable".

#include "hourglass/Time.h"

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
