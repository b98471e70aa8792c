#pragma once
// Creates or edits a queue, a topic or a subscription. The dialog first reads the namespace's
// tier (for the defaults and bounds the form shows), its queues and topics (forwarding targets)
// and, when editing, the entity's current properties, all through BrokerClient. OK checks the
// form with the engine's validator, then runs the engine call; a refusal (a bad bound, a name
// that exists, a forwarding target that does not) is shown inline with its code and description
// and the dialog stays open with the values kept, until the name is changed. Success closes it.
// A new entity's name is checked as it is typed, with the engine's own rules (EntityPath.h, E2):
// until it passes, Create is off and the reason shows under the name. The form shows every
// property that breaks a bound at once.
//
// Open it with open() (non-blocking). Object names: "entityDialog", "entityName" (the path or
// subscription name; read-only when editing), "entityNameError", "entityTopic" (subscriptions),
// the property fields of EntityPropertyForm, "entityDialogError", "entityDialogOk",
// "entityDialogCancel".

#include "common/BrokerClient.h"

#include <QDialog>

class QLabel;
class QLineEdit;
class QPushButton;

namespace hourglass::ui {

class EntityPropertyForm;

class EntityDialog : public QDialog {
    Q_OBJECT
public:
    // A new queue or topic in `namespaceName`, or a new subscription of `topicPath` there.
    static EntityDialog* forCreate(BrokerClient& client, EntityKind kind,
                                   const QString& namespaceName, const QString& topicPath = {},
                                   QWidget* parent = nullptr);
    // The entity at a qualified path ("ns:orders", "ns:events/Subscriptions/audit").
    static EntityDialog* forEdit(BrokerClient& client, const QString& qualifiedPath,
                                 QWidget* parent = nullptr);

    EntityPropertyForm* form() const { return m_form; }
    // True once the tier and current values have arrived and OK can be used.
    bool isLoaded() const { return m_loaded; }

signals:
    // The engine accepted the entity; `qualifiedPath` is "ns:path".
    void applied(const QString& qualifiedPath);
    void errorOccurred(const hourglass::Error& error);

private:
    enum class Mode { Create, Edit };
    struct Loaded;

    EntityDialog(BrokerClient& client, Mode mode, EntityKind kind, const QString& namespaceName,
                 const QString& path, QWidget* parent);
    void load();
    void onLoaded(const Loaded& loaded);
    void submit();
    void showError(const Error& error);
    // The typed name against E2: tints the field, shows or clears the reason, sets Create.
    void checkName();
    void updateOk();
    QString targetPath() const; // the unqualified path the engine call names

    BrokerClient& m_client;
    Mode m_mode;
    EntityKind m_kind;
    QString m_namespace;
    QString m_path; // Edit: the entity; Create: the topic of a new subscription
    bool m_loaded = false;
    bool m_submitting = false; // an engine call is under way: one at a time
    QLineEdit* m_name;
    QLabel* m_nameError;
    EntityPropertyForm* m_form;
    QLabel* m_error;
    QPushButton* m_ok;
};

} // namespace hourglass::ui
