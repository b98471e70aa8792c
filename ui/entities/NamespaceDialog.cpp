#include "entities/NamespaceDialog.h"

#include "common/InlineError.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace hourglass::ui {

NamespaceDialog::NamespaceDialog(BrokerClient& client, QWidget* parent)
    : QDialog(parent)
    , m_client(client)
    , m_name(new QLineEdit(this))
    , m_tier(new QComboBox(this))
    , m_error(makeInlineErrorLabel(QStringLiteral("namespaceDialogError"), this)) {
    setObjectName(QStringLiteral("namespaceDialog"));
    setWindowTitle(tr("New namespace"));
    setMinimumWidth(360);

    m_name->setObjectName(QStringLiteral("namespaceName"));
    m_name->setPlaceholderText(tr("1-50 letters, digits and '-'"));
    m_tier->setObjectName(QStringLiteral("namespaceTier"));
    for (const Tier tier : {Tier::Basic, Tier::Standard, Tier::Premium})
        m_tier->addItem(tierName(tier), int(tier));
    m_tier->setCurrentIndex(m_tier->findData(int(Tier::Standard)));
    m_tier->setToolTip(tr("Basic caps every message time to live at P14D"));

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_ok = buttons->button(QDialogButtonBox::Ok);
    m_ok->setObjectName(QStringLiteral("namespaceDialogOk"));
    m_ok->setText(tr("Create"));
    connect(buttons, &QDialogButtonBox::accepted, this, &NamespaceDialog::submit);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto* form = new QFormLayout;
    form->addRow(tr("Name"), m_name);
    form->addRow(tr("Tier"), m_tier);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_error);
    layout->addWidget(buttons);
}

void NamespaceDialog::submit() {
    const NamespaceInfo info{m_name->text().trimmed(), Tier(m_tier->currentData().toInt())};
    m_ok->setEnabled(false);
    m_client.call(
        this, [info](Broker& broker) { return broker.createNamespace(info); },
        [this, name = info.name](const Result<void>& result) {
            m_ok->setEnabled(true);
            if (!result) {
                showInlineError(m_error, result.error());
                emit errorOccurred(result.error());
                return;
            }
            emit created(name);
            accept();
        });
}

} // namespace hourglass::ui
