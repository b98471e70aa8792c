#include "common/DurationEdit.h"

#include "common/DurationText.h"
#include "common/InlineError.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>

namespace hourglass::ui {

namespace {
const QString kInfiniteWord = QStringLiteral("infinite");
// Wide enough for "14d 0h" and "never" so the column of readable forms lines up.
constexpr int kReadableWidthChars = 8;
} // namespace

QString durationText(Millis duration) {
    return duration == kInfinite ? kInfiniteWord : formatIsoDuration(duration);
}

DurationEdit::DurationEdit(Infinite infinite, QWidget* parent)
    : QWidget(parent)
    , m_infinite(infinite)
    , m_edit(new QLineEdit(this))
    , m_readable(new QLabel(this)) {
    m_edit->setPlaceholderText(infinite == Infinite::Allowed ? tr("e.g. PT30S, P14D or infinite")
                                                             : tr("e.g. PT30S or P14D"));
    m_readable->setMinimumWidth(m_readable->fontMetrics().averageCharWidth() * kReadableWidthChars);
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
    if (text.compare(kInfiniteWord, Qt::CaseInsensitive) == 0 ||
        text.compare(QStringLiteral("never"), Qt::CaseInsensitive) == 0) {
        if (m_infinite == Infinite::Allowed)
            m_value = kInfinite;
        else
            m_problem = tr("this property cannot be infinite");
    } else if (text.isEmpty()) {
        m_problem = tr("enter a duration");
    } else {
        QString why;
        m_value = parseIsoDuration(text, &why);
        if (!m_value)
            m_problem = why.isEmpty() ? tr("not an ISO-8601 duration") : why;
        else if (*m_value == kInfinite && m_infinite == Infinite::Refused) {
            m_value.reset();
            m_problem = tr("this property cannot be infinite");
        }
    }
    m_readable->setText(m_value ? shortDuration(*m_value) : tr("invalid"));
    m_readable->setToolTip(m_problem);
    m_edit->setToolTip(m_problem);
    updateMark();
}

void DurationEdit::updateMark() {
    markInvalid(m_edit, !m_value || m_refused);
}

} // namespace hourglass::ui
