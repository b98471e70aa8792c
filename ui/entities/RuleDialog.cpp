#include "entities/RuleDialog.h"

#include "common/InlineError.h"
#include "entities/RuleEditor.h"

#include <QDialogButtonBox>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace hourglass::ui {

namespace {
bool namesPath(const QSet<QString>& paths, const QString& path) {
    for (const QString& p : paths)
        if (p.compare(path, Qt::CaseInsensitive) == 0)
            return true;
    return false;
}
} // namespace

RuleDialog::RuleDialog(BrokerClient& client, const QString& subscriptionPath, QWidget* parent)
    : QDialog(parent)
    , m_client(client)
    , m_path(subscriptionPath)
    , m_list(new QTreeWidget(this))
    , m_remove(new QPushButton(tr("Remove rule…"), this))
    , m_editor(new RuleEditor(this))
    , m_add(new QPushButton(tr("Add rule"), this))
    , m_error(makeInlineErrorLabel(QStringLiteral("ruleDialogError"), this)) {
    setObjectName(QStringLiteral("ruleDialog"));
    setWindowTitle(tr("Rules of %1").arg(subscriptionPath));
    setMinimumWidth(560);

    m_list->setObjectName(QStringLiteral("ruleList"));
    m_list->setHeaderLabels({tr("Name"), tr("Filter"), tr("Action")});
    m_list->setRootIsDecorated(false);
    m_list->setUniformRowHeights(true);
    // The filter takes the room; name and action keep a width the user can change.
    m_list->header()->setStretchLastSection(false);
    m_list->header()->setSectionResizeMode(FilterColumn, QHeaderView::Stretch);
    m_list->setColumnWidth(NameColumn, 140);
    m_list->setColumnWidth(ActionColumn, 180);
    m_remove->setObjectName(QStringLiteral("removeRule"));
    m_remove->setEnabled(false);
    m_add->setObjectName(QStringLiteral("addRule"));
    // Return in the form adds the rule; it never removes one or closes the dialog.
    m_add->setDefault(true);
    m_remove->setAutoDefault(false);

    auto* listButtons = new QHBoxLayout;
    listButtons->addStretch(1);
    listButtons->addWidget(m_remove);

    auto* addBox = new QGroupBox(tr("Add a rule"), this);
    auto* addLayout = new QVBoxLayout(addBox);
    addLayout->addWidget(m_editor);
    addLayout->addSpacing(4); // the Add button apart from the action's status line
    auto* addButtons = new QHBoxLayout;
    addButtons->addStretch(1);
    addButtons->addWidget(m_add);
    addLayout->addLayout(addButtons);

    auto* close = new QDialogButtonBox(QDialogButtonBox::Close, this);
    close->button(QDialogButtonBox::Close)->setObjectName(QStringLiteral("ruleDialogClose"));
    close->button(QDialogButtonBox::Close)->setAutoDefault(false);
    connect(close, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_list, 1);
    layout->addLayout(listButtons);
    layout->addWidget(addBox, 2);
    layout->addWidget(m_error);
    layout->addWidget(close);

    connect(m_list, &QTreeWidget::itemSelectionChanged, this,
            [this] { m_remove->setEnabled(!m_list->selectedItems().isEmpty()); });
    connect(m_add, &QPushButton::clicked, this, &RuleDialog::addRule);
    connect(m_remove, &QPushButton::clicked, this, &RuleDialog::confirmRemove);
    connect(&m_client, &BrokerClient::changed, this, &RuleDialog::onChanged);
    // Wider than the minimum at first, so the filter and action columns have room to be read.
    resize(qMax(sizeHint().width(), 760), sizeHint().height());
    reload();
}

QStringList RuleDialog::ruleNames() const {
    QStringList names;
    for (int i = 0; i < m_list->topLevelItemCount(); ++i)
        names << m_list->topLevelItem(i)->text(0);
    return names;
}

void RuleDialog::onChanged(const ChangeBatch& batch) {
    if (namesPath(batch.updated, m_path) || namesPath(batch.deleted, m_path))
        reload();
}

void RuleDialog::reload() {
    const QString path = m_path;
    m_client.call(
        this, [path](Broker& broker) { return broker.entity(path); },
        [this](const Result<EntityInfo>& entity) {
            if (!entity) {
                showError(entity.error());
                m_add->setEnabled(false); // the subscription is gone
                return;
            }
            showRules(entity->rules);
        });
}

void RuleDialog::showRules(const QList<Rule>& rules) {
    const QString selected = m_list->currentItem() ? m_list->currentItem()->text(0) : QString();
    m_list->clear();
    for (const Rule& rule : rules) {
        auto* item =
            new QTreeWidgetItem(m_list, {rule.name, filterSummary(rule), actionSummary(rule)});
        // The whole text as written, lines and all.
        item->setToolTip(FilterColumn,
                         rule.filterType == FilterType::Sql ? rule.sqlExpression : item->text(1));
        item->setToolTip(ActionColumn, rule.sqlAction);
        if (rule.name == selected)
            m_list->setCurrentItem(item);
    }
}

void RuleDialog::addRule() {
    m_editor->checkSql(); // the marks in the editors agree with what is sent
    auto rule = m_editor->rule();
    if (!rule) {
        showError(rule.error());
        return;
    }
    const QString path = m_path;
    const Rule toAdd = *rule;
    m_add->setEnabled(false);
    m_client.call(
        this, [path, toAdd](Broker& broker) { return broker.addRule(path, toAdd); },
        [this, name = toAdd.name](const Result<void>& added) {
            m_add->setEnabled(true);
            if (!added) {
                showError(added.error()); // the form keeps what was entered
                return;
            }
            m_error->hide();
            m_editor->clear();
            emit statusMessage(tr("Rule '%1' added").arg(name));
            reload();
        });
}

void RuleDialog::confirmRemove() {
    const QTreeWidgetItem* item = m_list->currentItem();
    if (!item)
        return;
    const QString name = item->text(0);
    // Non-blocking, so the dialog stays responsive and a test can find and answer it.
    auto* box = new QMessageBox(QMessageBox::Warning, tr("Remove rule"),
                                tr("Remove rule '%1' from %2?\nMessages that only this rule "
                                   "matched will no longer reach the subscription.")
                                    .arg(name, m_path),
                                QMessageBox::Ok | QMessageBox::Cancel, this);
    box->setObjectName(QStringLiteral("confirmRemoveRule"));
    box->button(QMessageBox::Ok)->setText(tr("Remove"));
    box->setDefaultButton(QMessageBox::Cancel);
    box->setAttribute(Qt::WA_DeleteOnClose);
    // By the button, not accepted(): QMessageBox finishes with the button's code, not Accepted.
    connect(box, &QMessageBox::buttonClicked, this, [this, box, name](QAbstractButton* button) {
        if (box->standardButton(button) == QMessageBox::Ok)
            removeRule(name);
    });
    box->open();
}

void RuleDialog::removeRule(const QString& name) {
    const QString path = m_path;
    m_client.call(
        this, [path, name](Broker& broker) { return broker.removeRule(path, name); },
        [this, name](const Result<void>& removed) {
            if (!removed) {
                showError(removed.error());
                return;
            }
            m_error->hide();
            emit statusMessage(tr("Rule '%1' removed").arg(name));
            reload();
        });
}

void RuleDialog::showError(const Error& error) {
    showInlineError(m_error, error);
    emit errorOccurred(error);
}

} // namespace hourglass::ui
