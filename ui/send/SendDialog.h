#pragma once
// The send dialog: compose a message for a queue or topic (SendForm), send it
// one or many times, and see how the engine settled it (SettlementView: accepted, scheduled,
// dropped as a duplicate, or the error with its code, tracking id and whether a retry can help).
// Sending does not close the dialog, so the same message can be sent again; saved templates
// (MessageTemplates) fill the whole form.
//
// Every broker call goes through the BrokerClient. N copies go as sendBatch calls of at most
// kChunk messages, one after the other, so a large repeat count neither holds the broker for
// long nor builds one huge transaction; the chunks before a failure stay sent and the result
// says how many.
//
// For a topic, the routing preview (routing/RoutingPreviewPanel) sits beside the form and follows
// it as it is edited: which subscriptions would get this message, and why.
//
// Object names: "sendDialog", "sendSplitter", "sendButton", "sendClose", "sendTemplate",
// "loadTemplate", "saveTemplate", "deleteTemplate", "templateError", "templateNameDialog" (the name
// prompt, opened with open()), "confirmDeleteTemplate" (the confirmation, opened with open()), and
// the SendForm and SettlementView names.

#include "hourglass/Broker.h"
#include "send/MessageTemplates.h"
#include "send/SendForm.h"

#include <QDialog>

class QAction;
class QComboBox;
class QGroupBox;
class QLabel;
class QPushButton;
class QSplitter;
class QTimer;

namespace hourglass::ui {

class BrokerClient;
class RoutingPreviewPanel;
class SettlementView;

class SendDialog : public QDialog {
    Q_OBJECT
public:
    static constexpr int kChunk = 500;

    // `targetPath` is a queue or topic, qualified "ns:path" or not.
    SendDialog(BrokerClient& client, const QString& targetPath, QWidget* parent = nullptr);

    QString targetPath() const { return m_target; }
    SendForm* form() const { return m_form; }
    SettlementView* settlement() const { return m_result; }
    // The routing preview, shown when the target is a topic.
    RoutingPreviewPanel* routing() const { return m_routing; }
    // Ctrl+Return: the same as the Send button.
    QAction* sendAction() const { return m_sendAction; }
    bool isSending() const { return m_sending; }

    // Reads the file's bytes as the body; a failure shows inline.
    bool loadBodyFromFile(const QString& path);
    // Switches to another templates file (tests; the default is MessageTemplates::defaultPath()).
    void useTemplatesFile(const QString& path);
    // Saves the form as `name` (replacing a template of that name); false with the reason inline.
    bool saveTemplate(const QString& name);
    // Fills the form from the named template.
    bool loadTemplate(const QString& name);
    // Removes the named template, without asking (the Delete button asks first).
    bool deleteTemplate(const QString& name);

public slots:
    // Checks the form, then sends; refused input shows inline and sends nothing.
    void send();

signals:
    // "Sent 25 messages to ns:orders" (the lead shows it in the status bar).
    void statusMessage(const QString& text);
    // Every copy of a send was accepted.
    void sent(const QString& targetPath, int count);

private:
    void sendNextChunk();
    void finishSending();
    void refreshTemplates(const QString& select = {});
    void showTemplateError(const QString& text);
    void askTemplateName();
    void confirmDeleteTemplate();
    // Shows the routing preview when the target turns out to be a topic.
    void checkTargetIsTopic();
    void previewRouting();

    BrokerClient& m_client;
    QString m_target;
    MessageTemplates m_templates;

    // The send under way (GUI thread only).
    bool m_sending = false;
    PreparedSend m_pending;
    QList<SendResult> m_results;

    SendForm* m_form;
    SettlementView* m_result;
    QComboBox* m_templateCombo;
    QPushButton* m_loadTemplate;
    QPushButton* m_saveTemplate;
    QPushButton* m_deleteTemplate;
    QLabel* m_templateError;
    QPushButton* m_send;
    QPushButton* m_close;
    QAction* m_sendAction;
    QGroupBox* m_routingBox;
    RoutingPreviewPanel* m_routing;
    QSplitter* m_splitter = nullptr;
    QTimer* m_routingDelay; // one preview per pause in typing
};

} // namespace hourglass::ui
