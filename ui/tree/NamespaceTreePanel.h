#pragma once
// The explorer's left panel: a filter box over the namespace tree. Typing in the box keeps the
// rows whose name contains the text (case-insensitive) together with their parents; the tree
// starts expanded and new rows arrive expanded. With no namespace at all, a centred hint replaces
// the tree.
//
// Rows take drops (NamespaceTreeModel): messages dragged from the message and dead-letter lists,
// files from the desktop. While dragging over a row that would refuse the drop, the reason shows
// in a strip under the tree and as a tooltip.
//
// Test handles: "treeFilter" (QLineEdit), "namespaceTree" (QTreeView), "treeEmptyState" (QLabel),
// "dropHint" (QLabel).

#include "common/BrokerClient.h"
#include "tree/NamespaceTreeModel.h"

#include <QWidget>

class QItemSelection;
class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QStackedWidget;
class QTreeView;

namespace hourglass::ui {

class ColumnLayout;

class NamespaceTreePanel : public QWidget {
    Q_OBJECT
public:
    explicit NamespaceTreePanel(BrokerClient& client, QWidget* parent = nullptr);

    NamespaceTreeModel* model() const { return m_model; }
    QTreeView* view() const { return m_view; }
    ColumnLayout* columnLayout() const { return m_columns; }
    // The row to select when the tree first fills ("ns:path"), instead of the first queue: a
    // scenario shows the entity its story starts with.
    void setPreferredSelection(const QString& qualifiedPath) { m_preferred = qualifiedPath; }
    // Selects the row of `qualifiedPath` ("ns" or "ns:path") now, or as soon as it appears (an
    // entity just created), clearing a filter that would hide it.
    void selectWhenShown(const QString& qualifiedPath);
    // Puts the keyboard focus on the name filter (View > Find entity).
    void focusFilter();

signals:
    // The selected row is an entity or a dead-letter queue. qualifiedPath is the row's PathRole,
    // the path to read its messages from: "ns:path", or "ns:path/$deadletterqueue" (then
    // deadLetter is true and kind is the kind of the entity that owns the dead-letter queue).
    void entitySelected(const QString& qualifiedPath, hourglass::EntityKind kind, bool deadLetter);
    // The selection is empty or a namespace row.
    void noEntitySelected();
    // A drop's outcome (the model's dropFinished / dropFailed), for the main window's MessageBar.
    void statusMessage(const QString& text);
    void errorOccurred(const hourglass::Error& error);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void onSelectionChanged();
    void onRowsInserted(const QModelIndex& parent, int first, int last);
    void updateEmptyState();
    void selectFirstQueueOnce();
    void selectPending();
    // Shows why the drag would be refused on the row under it (and ignores the event); false when
    // it would not be.
    bool showDropRefusal(class QDragMoveEvent* event);
    void hideDropHint();
    // Sizes the name column so that the counts that matter most are in view.
    void fitNameColumn();

    NamespaceTreeModel* m_model;
    QString m_preferred;
    QString m_pending; // selectWhenShown's row, until it is in the tree
    QSortFilterProxyModel* m_proxy;
    QLineEdit* m_filter;
    QStackedWidget* m_stack;
    QTreeView* m_view;
    ColumnLayout* m_columns = nullptr;
    QLabel* m_emptyState;
    QLabel* m_dropHint;
    bool m_autoSelected = false;
    // Once the user sizes the name column, it keeps that size (until Reset columns).
    bool m_nameSizedByUser = false;
    bool m_fittingName = false;
};

} // namespace hourglass::ui
