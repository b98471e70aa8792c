#pragma once
// The rules of one subscription (SEMANTICS.md E4, R1, R2): the list with each rule's filter, a
// form to add a rule, and removal after a confirmation. Every change goes through the engine
// (BrokerClient); a refusal (a bad name, an empty correlation filter, an SQL filter, which the
// engine does not support yet) is shown inline with its code and description and the form keeps
// what was entered. The list follows the engine's change notifications.
//
// Open it with open(). Object names: "ruleDialog", "ruleList" (QTreeWidget: name, filter),
// "addRule", "removeRule", "confirmRemoveRule" (the non-blocking confirmation), "ruleDialogError",
// "ruleDialogClose", and the fields of RuleEditor.

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
