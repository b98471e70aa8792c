#include "common/DurationEdit.h"

#include "common/DurationText.h"
#include "common/InlineError.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>

namespace hourglass::ui {

namespace {
const QString kInfiniteWord = QStringLiteral("infinite");
// Wide enough for "= PT1H30M", "14d 0h" and "never", so the column of understood forms lines up
// and a toolbar's neighbours do not move as the user types.
const QString kWidestUsualReading = QStringLiteral("= PT1H30M");

// The ISO-8601 form when the text was written another way; the readable form when it was ISO.
QString understood(const QString& typed, Millis value) {
    if (value == kInfinite)
        return QStringLiteral("never");
    const QString iso = formatIsoDuration(value);
    return typed.compare(iso, Qt::CaseInsensitive) == 0 ? shortDuration(value)
                                                        : QStringLiteral("= ") + iso;
}
} // namespace

QString durationText(Millis duration) {
    return duration == kInfinite ? kInfiniteWord : formatIsoDuration(duration);
}

DurationEdit::DurationEdit(Infinite infinite, QWidget* parent)
    : QWidget(parent)
    , m_infinite(infinite)
    , m_edit(new QLineEdit(this))
    , m_readable(new QLabel(this)) {
    m_edit->setPlaceholderText(infinite == Infinite::Allowed
                                   ? tr("e.g. 2m, 1h30m, P14D or infinite")
                                   : tr("e.g. 30s, 2m or 1h30m"));
    m_readable->setMinimumWidth(m_readable->fontMetrics().horizontalAdvance(kWidestUsualReading));
    m_readable->setEnabled(false); // greyed: a reading aid, not the value

    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_edit, 1);
    layout->addWidget(m_readable);

    connect(m_edit, &QLineEdit::textChanged, this, [this] {
        reparse();
        emit durationEdited();
    });
    // Tests and callers find the parts by the name given to the whole.
    connect(this, &QObject::objectNameChanged, this, [this](const QString& name) {
        m_edit->setObjectName(name + QStringLiteral("Text"));
        m_readable->setObjectName(name + QStringLiteral("Readable"));
    });
    setFocusProxy(m_edit);
    reparse();
}

void DurationEdit::setDuration(Millis duration) {
    m_edit->setText(durationText(duration));
}

std::optional<Millis> DurationEdit::duration() const {
    return m_value;
}

void DurationEdit::setRefused(bool refused) {
    if (m_refused == refused)
        return;
    m_refused = refused;
    updateMark();
}

void DurationEdit::reparse() {
    const QString text = m_edit->text().trimmed();
    m_value.reset();
    m_problem.clear();
    QString why;
    const std::optional<Millis> parsed = parseHumanDuration(text, &why);
    if (!parsed)
        m_problem = why;
    else if (*parsed == kInfinite && m_infinite == Infinite::Refused)
        m_problem = tr("this property cannot be infinite");
    else
        m_value = parsed;
    m_readable->setText(m_value ? understood(text, *m_value) : tr("invalid"));
    const QString tip =
        m_value ? tr("Understood as %1 (%2)").arg(durationText(*m_value), shortDuration(*m_value))
                : m_problem;
    m_readable->setToolTip(tip);
    m_edit->setToolTip(tip);
    updateMark();
}

void DurationEdit::updateMark() {
    markInvalid(m_edit, !m_value || m_refused);
}

} // namespace hourglass::ui
