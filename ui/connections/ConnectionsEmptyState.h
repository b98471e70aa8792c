#pragma once
// What the Connections view shows instead of an empty tree: why no application is listed, in a
// sentence, and what to do about it. Serving, it offers the connection string to copy; off or
// kept from its port, it offers the endpoint's settings; without a database, the File menu.
//
// Object names for tests: "connectionsEmpty" (the headline), "connectionsEmptyDetail",
// "connectionsEmptyString" (read-only, selectable), "openAmqpSettings".

#include "AmqpService.h"

#include <QWidget>

class QLabel;
class QLineEdit;
class QPushButton;

namespace hourglass::ui {

class ConnectionsEmptyState : public QWidget {
    Q_OBJECT
public:
    explicit ConnectionsEmptyState(QWidget* parent = nullptr);

    // `connectionString` is shown when serving, `problem` when not serving.
    void show(AmqpService::State state, const QString& connectionString, const QString& problem);

signals:
    void settingsRequested();

private:
    QLabel* m_headline;
    QLabel* m_detail;
    QLineEdit* m_connectionString;
    QPushButton* m_settings;
};

} // namespace hourglass::ui
