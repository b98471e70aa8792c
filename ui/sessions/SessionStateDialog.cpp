#include "sessions/SessionStateDialog.h"

#include "common/FixedPitchFont.h"
#include "common/InlineError.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalBlocker>
#include <QVBoxLayout>

namespace hourglass::ui {

namespace {
QString sizeText(const std::optional<QByteArray>& state) {
    if (!state)
        return QObject::tr("no state");
    return state->size() == 1 ? QObject::tr("1 byte") : QObject::tr("%1 bytes").arg(state->size());
}
} // namespace

SessionStateDialog::SessionStateDialog(const QString& entityPath, const QString& sessionId,
                                       const std::optional<QByteArray>& current,
                                       const QString& note, QWidget* parent)
    : QDialog(parent)
    , m_entityPath(entityPath)
    , m_sessionId(sessionId)
    , m_current(current)
    , m_format(new QComboBox(this))
    , m_edit(new QPlainTextEdit(this))
    , m_remove(new QCheckBox(tr("No state (remove it)"), this))
    , m_error(makeInlineErrorLabel(QStringLiteral("stateError"), this))
    , m_editButtons(new QWidget(this))
    , m_confirmRow(new QWidget(this))
    , m_confirmText(new QLabel(m_confirmRow))
    , m_apply(new QPushButton(tr("Set state…"), m_editButtons))
    , m_confirm(new QPushButton(tr("Confirm"), m_confirmRow)) {
    setObjectName(QStringLiteral("sessionStateDialog"));
    setWindowTitle(tr("State of session %1").arg(sessionId));
    setAttribute(Qt::WA_DeleteOnClose);
    resize(560, 380);

    auto* heading = new QLabel(
        tr("Session <b>%1</b> of %2 · now %3")
            .arg(sessionId.toHtmlEscaped(), entityPath.toHtmlEscaped(), sizeText(current)),
        this);
    auto* noteLabel = new QLabel(note, this);
    noteLabel->setObjectName(QStringLiteral("stateNote"));
    noteLabel->setWordWrap(true);
    // The note is what the operator must know before writing (who may write, what happens to the
    // lock): in the palette's normal text colour, not greyed out as if it were disabled, so that
    // it reads in the light and the dark theme alike.
    noteLabel->setForegroundRole(QPalette::WindowText);

    m_format->setObjectName(QStringLiteral("stateFormat"));
    m_format->addItem(tr("Text"), int(StateFormat::Text));
    m_format->addItem(tr("JSON"), int(StateFormat::Json));
    m_format->addItem(tr("Hex"), int(StateFormat::Hex));
    m_edit->setObjectName(QStringLiteral("stateEdit"));
    m_edit->setFont(fixedPitchFont());
    m_edit->setPlaceholderText(tr("The new state"));
    m_remove->setObjectName(QStringLiteral("stateRemove"));
    m_remove->setToolTip(tr("Sets the state to null: the session keeps no state"));

    auto* formatRow = new QHBoxLayout;
    formatRow->addWidget(new QLabel(tr("Show and type as:"), this));
    formatRow->addWidget(m_format);
    formatRow->addStretch(1);
    formatRow->addWidget(m_remove);

    m_apply->setObjectName(QStringLiteral("stateApply"));
    m_apply->setDefault(true);
    auto* cancel = new QPushButton(tr("Cancel"), m_editButtons);
    cancel->setObjectName(QStringLiteral("stateCancel"));
    auto* editButtons = new QHBoxLayout(m_editButtons);
    editButtons->setContentsMargins(0, 0, 0, 0);
    editButtons->addStretch(1);
    editButtons->addWidget(cancel);
    editButtons->addWidget(m_apply);

    m_confirmText->setObjectName(QStringLiteral("stateConfirmText"));
    m_confirmText->setWordWrap(true);
    m_confirm->setObjectName(QStringLiteral("stateConfirm"));
    auto* back = new QPushButton(tr("Back"), m_confirmRow);
    back->setObjectName(QStringLiteral("stateBack"));
    auto* confirmLayout = new QHBoxLayout(m_confirmRow);
    confirmLayout->setContentsMargins(0, 0, 0, 0);
    confirmLayout->addWidget(m_confirmText, 1);
    confirmLayout->addWidget(back);
    confirmLayout->addWidget(m_confirm);
    m_confirmRow->hide();

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(heading);
    layout->addWidget(noteLabel);
    layout->addLayout(formatRow);
    layout->addWidget(m_edit, 1);
    layout->addWidget(m_error);
    layout->addWidget(m_editButtons);
    layout->addWidget(m_confirmRow);

    const StateFormat initial = current ? bestStateFormat(*current) : StateFormat::Text;
    m_shownFormat = initial;
    {
        const QSignalBlocker blocker(m_format);
        m_format->setCurrentIndex(m_format->findData(int(initial)));
    }
    m_edit->setPlainText(current ? stateToText(*current, initial).text : QString());

    connect(m_format, &QComboBox::currentIndexChanged, this, &SessionStateDialog::onFormatChanged);
    connect(m_remove, &QCheckBox::toggled, m_edit, &QWidget::setDisabled);
    connect(m_remove, &QCheckBox::toggled, m_format, &QWidget::setDisabled);
    connect(m_edit, &QPlainTextEdit::textChanged, m_error, &QWidget::hide);
    connect(m_apply, &QPushButton::clicked, this, &SessionStateDialog::askConfirmation);
    connect(cancel, &QPushButton::clicked, this, &QDialog::reject);
    connect(back, &QPushButton::clicked, this, &SessionStateDialog::backToEditing);
    connect(m_confirm, &QPushButton::clicked, this, [this] {
        m_confirm->setEnabled(false); // one write at a time
        m_confirmText->setText(tr("Writing…"));
        emit confirmed(m_pending);
    });
}

StateFormat SessionStateDialog::format() const {
    return StateFormat(m_format->currentData().toInt());
}

void SessionStateDialog::setFormat(StateFormat format) {
    m_format->setCurrentIndex(m_format->findData(int(format)));
}

void SessionStateDialog::onFormatChanged() {
    // What is typed is read in the format it was typed in, then shown in the new one; text that
    // does not read (bad hex) stays as it is and the refusal says why.
    const auto typed = stateFromText(m_edit->toPlainText(), m_shownFormat);
    if (!typed) {
        showInlineError(m_error, typed.error());
        const QSignalBlocker blocker(m_format);
        m_format->setCurrentIndex(m_format->findData(int(m_shownFormat)));
        return;
    }
    if (typed->isEmpty()) { // nothing typed yet: any format will do
        m_shownFormat = format();
        return;
    }
    const StateText shown = stateToText(*typed, format());
    if (!shown.ok) {
        showInlineError(m_error, makeError(ErrorCode::InvalidArgument, shown.text));
        const QSignalBlocker blocker(m_format);
        m_format->setCurrentIndex(m_format->findData(int(m_shownFormat)));
        return;
    }
    m_shownFormat = format();
    m_edit->setPlainText(shown.text);
}

Result<std::optional<QByteArray>> SessionStateDialog::typedState() const {
    if (m_remove->isChecked())
        return std::optional<QByteArray>();
    auto bytes = stateFromText(m_edit->toPlainText(), m_shownFormat);
    if (!bytes)
        return bytes.error();
    return std::optional<QByteArray>(std::move(bytes).value());
}

void SessionStateDialog::askConfirmation() {
    const auto typed = typedState();
    if (!typed) {
        showInlineError(m_error, typed.error());
        return;
    }
    m_pending = *typed;
    m_error->hide();
    m_confirmText->setText(
        tr("Replace the state of session %1 on %2 (%3) with %4?")
            .arg(m_sessionId, m_entityPath, sizeText(m_current), sizeText(m_pending)));
    m_edit->setReadOnly(true);
    m_editButtons->hide();
    m_confirm->setEnabled(true);
    m_confirmRow->show();
    m_confirm->setFocus();
}

void SessionStateDialog::backToEditing() {
    m_confirmRow->hide();
    m_editButtons->show();
    m_edit->setReadOnly(false);
    m_edit->setFocus();
}

void SessionStateDialog::finish() {
    accept();
}

void SessionStateDialog::showWriteError(const Error& error) {
    backToEditing();
    showInlineError(m_error, error);
}

} // namespace hourglass::ui
