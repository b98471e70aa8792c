#pragma once
// Creates a namespace: its name and its tier (service-bus-rules.md E3: Basic caps every TTL at
// P14D). OK runs Broker::createNamespace through BrokerClient; a refusal is shown inline with its
// code and description and the dialog stays open. Open it with open().
//
// Object names: "namespaceDialog", "namespaceName", "namespaceTier", "namespaceDialogError",
// "namespaceDialogOk".

#include "common/BrokerClient.h"

#include <QDialog>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;

namespace hourglass::ui {

class NamespaceDialog : public QDialog {
    Q_OBJECT
public:
    explicit NamespaceDialog(BrokerClient& client, QWidget* parent = nullptr);

signals:
    void created(const QString& namespaceName);
    void errorOccurred(const hourglass::Error& error);

private:
    void submit();

    BrokerClient& m_client;
    QLineEdit* m_name;
    QComboBox* m_tier;
    QLabel* m_error;
    QPushButton* m_ok;
};

} // namespace hourglass::ui
