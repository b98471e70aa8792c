#include "entities/SqlExpressionField.h"

#include "common/FixedPitchFont.h"
#include "common/InlineError.h"
#include "hourglass/SqlCheck.h"

#include <QLabel>
#include <QPlainTextEdit>
#include <QTextBlock>
#include <QTimer>
#include <QVBoxLayout>

namespace hourglass::ui {

namespace {

// Long enough that a word typed at normal speed is checked once, short enough to feel live.
constexpr int kCheckDelayMs = 300;
// Room for a parse error's description (about two lines at the dialog's width), kept while the
// text is valid, so the form does not jump as the check flips with each keystroke.
constexpr int kStatusLines = 2;

// The index in `text` of a 1-based line and column as the lexer counts them ('\n' ends a line,
// columns are UTF-16 units), clipped to the text.
qsizetype indexOf(const QString& text, SqlPosition position) {
    qsizetype i = 0;
    for (int line = 1; line < position.line && i < text.size(); ++i)
        if (text.at(i) == u'\n')
            ++line;
    return qMin(text.size(), i + qMax(0, position.column - 1));
}

} // namespace

SqlExpressionField::SqlExpressionField(Language language, const QString& name, QWidget* parent)
    : QWidget(parent)
    , m_language(language)
    , m_editor(new QPlainTextEdit(this))
    , m_highlighter(new SqlHighlighter(m_editor, language))
    , m_status(makeInlineErrorLabel(name + QStringLiteral("Status"), this, kStatusLines))
    , m_debounce(new QTimer(this)) {
    setObjectName(name + QStringLiteral("Field"));
    m_editor->setObjectName(name);
    // Columns in the error line up with what is on screen, and code reads as code.
    m_editor->setFont(fixedPitchFont(font()));
    m_editor->setTabChangesFocus(true); // Tab leaves the field, as in the rest of the form
    m_editor->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    m_debounce->setObjectName(name + QStringLiteral("CheckTimer"));
    m_debounce->setSingleShot(true);
    m_debounce->setInterval(kCheckDelayMs);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(m_editor, 1);
    layout->addWidget(m_status);

    connect(m_editor, &QPlainTextEdit::textChanged, m_debounce, qOverload<>(&QTimer::start));
    connect(m_debounce, &QTimer::timeout, this, &SqlExpressionField::check);
}

QString SqlExpressionField::text() const {
    return m_editor->toPlainText().trimmed();
}

void SqlExpressionField::clear() {
    m_editor->clear();
    check();
}

void SqlExpressionField::check() {
    m_debounce->stop();
    const QString text = this->text();
    m_problem.reset();
    m_valid.clear();
    if (!text.isEmpty()) {
        if (m_language == Language::Filter) {
            if (auto filter = checkSqlFilter(text); !filter)
                m_problem = filter.error();
            else
                m_valid = tr("Valid");
        } else {
            if (auto statements = checkSqlAction(text); !statements)
                m_problem = statements.error();
            else
                m_valid = *statements == 1 ? tr("Valid · 1 statement")
                                           : tr("Valid · %1 statements").arg(*statements);
        }
    }
    showOutcome();
}

void SqlExpressionField::showOutcome() {
    if (m_problem) {
        m_status->setForegroundRole(QPalette::WindowText); // the error colour
        showInlineError(m_status, *m_problem);
        underline(*m_problem);
        return;
    }
    m_editor->setExtraSelections({});
    m_status->setToolTip(QString());
    m_status->setText(m_valid);
    m_status->setForegroundRole(QPalette::PlaceholderText); // calm: not a finding
    m_status->setVisible(!m_valid.isEmpty());
}

void SqlExpressionField::underline(const Error& error) {
    const auto location = sqlParseErrorLocation(error);
    if (!location) {
        m_editor->setExtraSelections({});
        return;
    }
    // Positions count in the text as checked, which is the editor's without its leading space.
    const QString full = m_editor->toPlainText();
    qsizetype leading = 0;
    while (leading < full.size() && full.at(leading).isSpace())
        ++leading;
    const QString text = full.mid(leading).trimmed();
    qsizetype start = indexOf(text, location->position);
    qsizetype end = start + location->token.size();
    if (location->token == QLatin1String("<end of text>")) {
        // Nothing is there to underline: mark the last word, the one that wanted a sequel.
        end = start;
        while (end > 0 && text.at(end - 1).isSpace())
            --end;
        start = end;
        while (start > 0 && !text.at(start - 1).isSpace())
            --start;
    }
    end = qMin(end, text.size());
    if (end <= start) {
        m_editor->setExtraSelections({});
        return;
    }
    QTextEdit::ExtraSelection selection;
    selection.cursor = QTextCursor(m_editor->document());
    selection.cursor.setPosition(int(leading + start));
    selection.cursor.setPosition(int(leading + end), QTextCursor::KeepAnchor);
    selection.format.setUnderlineStyle(QTextCharFormat::WaveUnderline);
    const QColor red = m_status->palette().color(QPalette::WindowText);
    selection.format.setUnderlineColor(red);
    // A one-character token ('=') is hard to find by its underline alone: tint it too.
    QColor tint = red;
    tint.setAlpha(56);
    selection.format.setBackground(tint);
    m_editor->setExtraSelections({selection});
}

} // namespace hourglass::ui
