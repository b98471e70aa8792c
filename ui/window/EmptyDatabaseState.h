#pragma once
// What the workspace shows while the open database holds no entity: no namespace at all, or
// namespaces without a queue or a topic. It says how to start and offers the commands that do
// it: New namespace…, New queue… (in the first namespace) and Import config.json…, the entity
// actions' own. It stands in the workspace's place in `slot` and gives it back as soon as the
// tree holds an entity; it goes away with the workspace.
//
// Object names for tests: "emptyDatabaseState", "emptyDatabaseHeadline", "emptyDatabaseDetail",
// "emptyNewNamespace", "emptyNewQueue", "emptyImportConfig".

#include <QPointer>
#include <QWidget>

class QLabel;
class QPushButton;
class QStackedWidget;

namespace hourglass::ui {

class EntityActions;
class NamespaceTreePanel;

class EmptyDatabaseState : public QWidget {
    Q_OBJECT
public:
    EmptyDatabaseState(NamespaceTreePanel& tree, EntityActions& actions, QStackedWidget& slot,
                       QWidget& workspace);

private:
    void update();
    void newQueue();

    QPointer<NamespaceTreePanel> m_tree;
    QPointer<EntityActions> m_actions;
    QStackedWidget& m_slot;
    QPointer<QWidget> m_workspace;
    QString m_firstNamespace; // empty: none
    QLabel* m_headline;
    QLabel* m_detail;
    QPushButton* m_newNamespace;
    QPushButton* m_newQueue;
    QPushButton* m_import;
};

} // namespace hourglass::ui
