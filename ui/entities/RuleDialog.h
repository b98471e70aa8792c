#pragma once
// The rules of one subscription (SEMANTICS.md E4, R1-R5): the list with each rule's filter and
// action, a form to add a rule (RuleEditor: the SQL filter and action are checked as they are
// typed), and removal after a confirmation. Every change goes through the engine (BrokerClient);
// a refusal (a bad or taken name, an empty correlation filter, an SQL text that does not parse)
// is shown inline with its code and description and the form keeps what was entered. The list
// follows the engine's change notifications.
//
// Open it with open(). Object names: "ruleDialog", "ruleList" (QTreeWidget: name, filter,
// action), "addRule", "removeRule", "confirmRemoveRule" (the non-blocking confirmation),
// "ruleDialogError", "ruleDialogClose", and the fields of RuleEditor.

#include "common/BrokerClient.h"

#include <QDialog>

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

    // The columns of "ruleList".
    enum Column { NameColumn, FilterColumn, ActionColumn };

signals:
    void errorOccurred(const hourglass::Error& error);
    void statusMessage(const QString& text);

private:
    void reload();
    void showRules(const QList<Rule>& rules);
    void addRule();
    void confirmRemove();
    void removeRule(const QString& name);
    void showError(const Error& error);
    void onChanged(const ChangeBatch& batch);

    BrokerClient& m_client;
    QString m_path;
    QTreeWidget* m_list;
    QPushButton* m_remove;
    RuleEditor* m_editor;
    QPushButton* m_add;
    QLabel* m_error;
};

} // namespace hourglass::ui
