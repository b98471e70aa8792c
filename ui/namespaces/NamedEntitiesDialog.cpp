#include "namespaces/NamedEntitiesDialog.h"

#include "common/InlineError.h"
#include "hourglass/remote/NamedEntities.h"

#include <QDialogButtonBox>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace hourglass::ui {

NamedEntitiesDialog::NamedEntitiesDialog(const SavedNamespace& saved, QWidget* parent)
    : QDialog(parent)
    , m_edit(new QPlainTextEdit(this))
    , m_problem(makeInlineErrorLabel(QStringLiteral("namedEntitiesProblem"), this))
    , m_buttons(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this)) {
    setObjectName(QStringLiteral("namedEntitiesDialog"));
    setWindowTitle(tr("Entities to browse on %1").arg(saved.name));
    auto* layout = new QVBoxLayout(this);
    auto* why = new QLabel(
        tr("A key without the Manage right (Listen or Send only, or a signature for one "
           "entity) cannot list the namespace, but it can peek, receive or send on the entities "
           "it covers. Name them here, one per line:"),
        this);
    why->setWordWrap(true);
    layout->addWidget(why);
    auto* examples = new QLabel(tr("<tt>orders</tt> a queue · <tt>topic events</tt> a topic · "
                                   "<tt>events/subscriptions/audit</tt> a subscription"),
                                this);
    examples->setWordWrap(true);
    examples->setEnabled(false);
    layout->addWidget(examples);
    m_edit->setObjectName(QStringLiteral("namedEntitiesText"));
    m_edit->setPlainText(saved.namedEntities);
    m_edit->setTabChangesFocus(true);
    m_edit->setMinimumSize(m_edit->fontMetrics().averageCharWidth() * 56,
                           m_edit->fontMetrics().lineSpacing() * 8);
    layout->addWidget(m_edit, 1);
    layout->addWidget(m_problem);
    if (!saved.connection.entityPath.isEmpty()) {
        auto* fromString = new QLabel(
            tr("The connection string names %1 already.").arg(saved.connection.entityPath), this);
        fromString->setEnabled(false);
        layout->addWidget(fromString);
    }
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("Save and reconnect"));
    layout->addWidget(m_buttons);
    connect(m_edit, &QPlainTextEdit::textChanged, this, &NamedEntitiesDialog::check);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    check();
}

void NamedEntitiesDialog::check() {
    const auto named = remote::parseNamedEntities(m_edit->toPlainText());
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(bool(named));
    if (!named) {
        showInlineError(m_problem, named.error());
        return;
    }
    m_problem->hide();
    m_text = remote::namedEntitiesText(*named);
}

} // namespace hourglass::ui
