#pragma once
// The rules of one subscription (service-bus-rules.md E4, R1-R5): the list with each rule's filter
// and action, a form to add a rule or edit the one chosen in the list (RuleEditor: the SQL filter
// and action are checked as they are typed), and removal after a confirmation. Saving an edited
// rule replaces it in one engine call (Broker::replaceRule): a refused edit leaves the old rule
// as it was. Every change goes through the engine (BrokerClient); a refusal (a bad or taken
// name, an empty correlation filter, an SQL text that does not parse) is shown inline with its
// code and description and the form keeps what was entered. The list follows the engine's
// change notifications; a reload never overwrites the form.
//
// Open it with open(). Object names: "ruleDialog", "ruleList" (QTreeWidget: name, filter,
// action), "newRule" (back to adding), "removeRule", "confirmRemoveRule" (the non-blocking
// confirmation), "ruleEditorBox" (the form's frame, titled for what it does), "saveRule" (shown
// while a rule is edited), "addRule", "ruleDialogError", "ruleDialogClose", and the fields of
// RuleEditor.

#include "common/BrokerClient.h"

#include <QDialog>

class QGroupBox;
class QLabel;
class QPushButton;
class QTreeWidget;

namespace hourglass::ui {

class RuleEditor;

class RuleDialog : public QDialog {
    Q_OBJECT
public:
    // `subscriptionPath` is qualified: "ns:topic/Subscriptions/sub".
    RuleDialog(BrokerClient& client, const QString& subscriptionPath, QWidget* parent = nullptr);

    RuleEditor* editor() const { return m_editor; }
    // The rule names as listed, in the engine's order.
    QStringList ruleNames() const;
    // The name of the rule being edited; empty while a new rule is entered.
    QString editedRule() const { return m_edited; }

    // The columns of "ruleList".
    enum Column { NameColumn, FilterColumn, ActionColumn };

signals:
    void errorOccurred(const hourglass::Error& error);
    void statusMessage(const QString& text);

private:
    void reload();
    void showRules(const QList<Rule>& rules);
    void addRule();
    // Fills the form with the rule chosen in the list, or empties it for a new rule.
    void editCurrent();
    void startNewRule();
    void saveRule();
    void setEdited(const QString& name);
    void confirmRemove();
    void removeRule(const QString& name);
    void showError(const Error& error);
    void onChanged(const ChangeBatch& batch);

    BrokerClient& m_client;
    QString m_path;
    QTreeWidget* m_list;
    QPushButton* m_remove;
    QPushButton* m_new;
    QGroupBox* m_editorBox;
    RuleEditor* m_editor;
    QPushButton* m_save;
    QPushButton* m_add;
    QList<Rule> m_rules; // as last listed
    QString m_edited;    // the rule in the form, by its name in the engine; empty: a new one
    QLabel* m_error;
};

} // namespace hourglass::ui
