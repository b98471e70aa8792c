#pragma once
// The explorer's entity management commands as QActions, for the main window's menus and the
// namespace tree's context menu: new namespace, queue, topic and subscription, edit, rules,
// delete, and import/export of a namespace as the Service Bus emulator's config.json. The
// actions follow the tree's selection (setSelection) and open non-blocking dialogs parented to
// `dialogParent`; every broker call goes through BrokerClient, file reading and writing included
// (off the GUI thread). Errors are reported with errorOccurred, results with statusMessage.
//
// Object names of what it opens: "namespaceDialog", "entityDialog", "ruleDialog" and the
// "confirmDelete" message box (its Ok button deletes).

#include "common/BrokerClient.h"
#include "hourglass/scenario/EmulatorConfig.h"
#include "tree/NamespaceTreeModel.h"

#include <QKeySequence>
#include <QObject>

#include <optional>

class QAction;
class QWidget;

namespace hourglass::ui {

class EntityActions : public QObject {
    Q_OBJECT
public:
    using NodeKind = NamespaceTreeModel::NodeKind;

    EntityActions(BrokerClient& client, QWidget* dialogParent, QObject* parent = nullptr);

    // The tree's selected row: its PathRole ("ns", "ns:path", "ns:path/$deadletterqueue") and
    // NodeKind. An empty path leaves only the namespace-level actions enabled.
    void setSelection(const QString& qualifiedPath, NodeKind kind);
    // The same from a row of NamespaceTreeModel, or of a proxy over it (an invalid index: none).
    void setSelection(const QModelIndex& treeIndex);

    QAction* newNamespaceAction() const { return m_newNamespace; }
    QAction* newQueueAction() const { return m_newQueue; } // Ctrl+Shift+N
    QAction* newTopicAction() const { return m_newTopic; }
    QAction* newSubscriptionAction() const { return m_newSubscription; }
    QAction* editAction() const { return m_edit; }     // F2
    QAction* rulesAction() const { return m_rules; }   // subscriptions only
    QAction* deleteAction() const { return m_delete; } // Delete
    QAction* importAction() const { return m_import; } // asks for a file
    QAction* exportAction() const { return m_export; } // asks for a file
    // Every action, in menu order.
    QList<QAction*> actions() const;

    // Reads an emulator config.json and creates what it declares, off the GUI thread. With
    // `intoNamespace`, the file's only namespace is created under that name instead; with
    // ExistingEntities::Keep that namespace may exist already (the selected one) and only the
    // entities it lacks are created.
    void importConfig(const QString& filePath, const QString& intoNamespace = {},
                      ExistingEntities existing = ExistingEntities::Refuse);
    // Asks where `filePath` goes (a non-blocking question, "importTargetDialog"): into the
    // selected namespace ("importIntoSelected"), or as the new namespace the file names
    // ("importAsNew"). The import action asks this once a file is chosen.
    void askImportTarget(const QString& filePath);
    // Writes one namespace as {"UserConfig": ...}, off the GUI thread.
    void exportConfig(const QString& namespaceName, const QString& filePath);

signals:
    void errorOccurred(const hourglass::Error& error);
    void statusMessage(const QString& text);
    // A dialog created an entity or a namespace: "ns:path", or the namespace name.
    void created(const QString& qualifiedPath);
    void configImported(const QStringList& namespaceNames);
    void configExported(const QString& filePath);

private:
    struct Selection {
        QString path; // as given
        NodeKind kind = NodeKind::Namespace;
        QString namespaceName;
        QString entityPath; // without namespace and dead-letter suffix
        QString topicPath;  // a topic's, or the owning topic of a subscription
        // The namespace's tier once read (a Basic namespace has no topics, E5); empty meanwhile.
        std::optional<Tier> tier;
    };

    QAction* makeAction(const QString& text, const QKeySequence& shortcut = {});
    void updateEnabled();
    // Reads the selected namespace's tier off the GUI thread, then updates the actions.
    void readTier();
    void openNamespaceDialog();
    void openNewEntity(EntityKind kind);
    void openEdit();
    void openRules();
    void confirmDelete();
    void deleteSelected(const Selection& target);
    void chooseImportFile();
    void chooseExportFile();
    template <typename Dialog> void showDialog(Dialog* dialog);

    BrokerClient& m_client;
    QWidget* m_dialogParent;
    Selection m_selection;
    quint64 m_selectionGeneration = 0; // a tier read for an older selection is dropped
    QAction* m_newNamespace;
    QAction* m_newQueue;
    QAction* m_newTopic;
    QAction* m_newSubscription;
    QAction* m_edit;
    QAction* m_rules;
    QAction* m_delete;
    QAction* m_import;
    QAction* m_export;
};

} // namespace hourglass::ui
