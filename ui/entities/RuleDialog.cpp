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
#include <QSignalBlocker>
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
    , m_new(new QPushButton(tr("New rule"), this))
    , m_editorBox(new QGroupBox(this))
    , m_editor(new RuleEditor(this))
    , m_save(new QPushButton(tr("Save rule"), this))
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
    m_save->setObjectName(QStringLiteral("saveRule"));
    m_new->setObjectName(QStringLiteral("newRule"));
    m_new->setToolTip(tr("Empty the form to add a new rule"));
    // Return in the form adds or saves the rule; it never removes one or closes the dialog.
    m_remove->setAutoDefault(false);
    m_new->setAutoDefault(false);

    auto* howToEdit = new QLabel(tr("Choose a rule to edit it."), this);
    howToEdit->setEnabled(false); // greyed: guidance, not content
    auto* listButtons = new QHBoxLayout;
    listButtons->addWidget(howToEdit);
    listButtons->addStretch(1);
    listButtons->addWidget(m_new);
    listButtons->addWidget(m_remove);

    m_editorBox->setObjectName(QStringLiteral("ruleEditorBox"));
    auto* addLayout = new QVBoxLayout(m_editorBox);
    addLayout->addWidget(m_editor);
    addLayout->addSpacing(4); // the buttons apart from the action's status line
    auto* addButtons = new QHBoxLayout;
    addButtons->addStretch(1);
    addButtons->addWidget(m_add);
    addButtons->addWidget(m_save);
    addLayout->addLayout(addButtons);

    auto* close = new QDialogButtonBox(QDialogButtonBox::Close, this);
    close->button(QDialogButtonBox::Close)->setObjectName(QStringLiteral("ruleDialogClose"));
    close->button(QDialogButtonBox::Close)->setAutoDefault(false);
    connect(close, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_list, 1);
    layout->addLayout(listButtons);
    layout->addWidget(m_editorBox, 2);
    layout->addWidget(m_error);
    layout->addWidget(close);

    // Only the user's choice loads a rule: a reload rebuilds the list with its signals blocked,
    // and the current row the view sets on getting focus is not selected (nor loaded).
    connect(m_list, &QTreeWidget::itemSelectionChanged, this, [this] {
        m_remove->setEnabled(!m_list->selectedItems().isEmpty());
        editCurrent();
    });
    connect(m_add, &QPushButton::clicked, this, &RuleDialog::addRule);
    connect(m_save, &QPushButton::clicked, this, &RuleDialog::saveRule);
    connect(m_new, &QPushButton::clicked, this, &RuleDialog::startNewRule);
    connect(m_remove, &QPushButton::clicked, this, &RuleDialog::confirmRemove);
    connect(&m_client, &BrokerClient::changed, this, &RuleDialog::onChanged);
    setEdited({});
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
    m_rules = rules;
    bool editedListed = false;
    {
        const QSignalBlocker blocker(m_list); // a reload is not the user choosing a rule
        m_list->clear();
        for (const Rule& rule : rules) {
            auto* item =
                new QTreeWidgetItem(m_list, {rule.name, filterSummary(rule), actionSummary(rule)});
            // The whole filter: the SQL text as written, a correlation filter one line a value.
            item->setToolTip(FilterColumn, filterDescription(rule));
            item->setToolTip(ActionColumn, rule.sqlAction);
            if (!m_edited.isEmpty() && rule.name.compare(m_edited, Qt::CaseInsensitive) == 0) {
                m_list->setCurrentItem(item);
                editedListed = true;
            }
        }
    }
    m_remove->setEnabled(!m_list->selectedItems().isEmpty());
    // The rule in the form went away (removed elsewhere): what was entered stays, to be added.
    if (!m_edited.isEmpty() && !editedListed)
        setEdited({});
}

void RuleDialog::setEdited(const QString& name) {
    m_edited = name;
    const bool editing = !name.isEmpty();
    m_editorBox->setTitle(editing ? tr("Edit rule '%1'").arg(name) : tr("Add a rule"));
    m_save->setVisible(editing);
    m_save->setDefault(editing);
    m_add->setDefault(!editing);
    m_add->setText(editing ? tr("Add as new rule") : tr("Add rule"));
    m_add->setToolTip(editing ? tr("Add the form as another rule; '%1' stays as it is").arg(name)
                              : QString());
}

void RuleDialog::editCurrent() {
    const QList<QTreeWidgetItem*> chosen = m_list->selectedItems();
    if (chosen.isEmpty())
        return; // nothing chosen: the form keeps what it holds
    const QTreeWidgetItem* item = chosen.first();
    for (const Rule& rule : std::as_const(m_rules)) {
        if (rule.name != item->text(NameColumn))
            continue;
        m_editor->setRule(rule);
        setEdited(rule.name);
        m_error->hide();
        return;
    }
}

void RuleDialog::startNewRule() {
    {
        const QSignalBlocker blocker(m_list);
        m_list->clearSelection();
        m_list->setCurrentItem(nullptr);
    }
    m_remove->setEnabled(false);
    m_editor->clear();
    m_error->hide();
    setEdited({});
}

void RuleDialog::saveRule() {
    if (m_edited.isEmpty())
        return;
    m_editor->checkSql(); // the marks in the editors agree with what is sent
    auto rule = m_editor->rule();
    if (!rule) {
        showError(rule.error());
        return;
    }
    const QString path = m_path;
    const QString old = m_edited;
    const Rule replacement = *rule;
    m_save->setEnabled(false);
    m_client.call(
        this,
        [path, old, replacement](Broker& broker) {
            return broker.replaceRule(path, old, replacement);
        },
        [this, name = replacement.name](const Result<void>& saved) {
            m_save->setEnabled(true);
            if (!saved) {
                showError(saved.error()); // the form keeps what was entered, the rule its old self
                return;
            }
            m_error->hide();
            setEdited(name); // renamed or not, the form now shows this rule
            emit statusMessage(tr("Rule '%1' saved").arg(name));
            reload();
        });
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
            startNewRule(); // an empty form for the next one
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
            if (name.compare(m_edited, Qt::CaseInsensitive) == 0)
                startNewRule(); // the form no longer shows a rule that exists
            emit statusMessage(tr("Rule '%1' removed").arg(name));
            reload();
        });
}

void RuleDialog::showError(const Error& error) {
    showInlineError(m_error, error);
    emit errorOccurred(error);
}

} // namespace hourglass::ui
