#pragma once
// Asks where to move or copy messages: the queues, topics and subscriptions of the messages'
// namespace, read through BrokerClient (never on the GUI thread). The entity the messages are in
// is listed greyed "(here)"; the owner of a dead-letter queue reads "(resubmit)"; an entity that
// accepts no messages is greyed with its status.
//
// Object names for tests: "entityPicker" (the dialog), "entityPickerList" (its QTreeWidget),
// "entityPickerAccept" (the Move or Copy button).
//
// Threads: GUI thread only.

#include "hourglass/Broker.h"

#include <QDialog>

class QPushButton;
class QTreeWidget;

namespace hourglass::ui {

class BrokerClient;

class EntityPickerDialog : public QDialog {
    Q_OBJECT
public:
    // `sourcePath` is where the messages are ("ns:q", "ns:q/$deadletterqueue"); `count` how many.
    EntityPickerDialog(BrokerClient& client, const QString& sourcePath, qsizetype count,
                       Broker::Transfer mode, QWidget* parent = nullptr);

    // The chosen entity ("ns:path") and its name as reports show it ("orders"); empty until one
    // is chosen.
    QString targetPath() const;
    QString targetName() const;

    // Selects the row of `qualifiedPath` (for tests and for a caller that knows the target);
    // false when it is not listed or cannot take the messages.
    bool select(const QString& qualifiedPath);

signals:
    // The entities are listed (or could not be read).
    void loaded();

private:
    void fill(const QList<EntityInfo>& entities);
    void updateAccept();

    QString m_sourcePath;
    QTreeWidget* m_list;
    QPushButton* m_accept;
};

} // namespace hourglass::ui
