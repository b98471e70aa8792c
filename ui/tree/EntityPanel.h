#pragma once
// A tab of the entity workspace: a panel that shows one entity (the tree's selection) and says
// how it went. The workspace (window/EntityWorkspace.h) hands each panel the selection, follows
// the message it has selected into the detail panel and counts its selection for the status
// bar, and the window reports its errors and successes, all through this interface, without
// knowing which panel it is.
//
// Threads: GUI thread only.

#include "common/CurrentMessage.h"
#include "hourglass/Status.h"
#include "tree/NamespaceTreeModel.h"

#include <QWidget>

#include <optional>

class QAbstractItemView;

namespace hourglass::ui {

class EntityPanel : public QWidget {
    Q_OBJECT
public:
    using NodeKind = NamespaceTreeModel::NodeKind;
    // Shows `qualifiedPath` ("ns:path", or "ns:path/$deadletterqueue"), a tree row of `kind`;
    // an empty path shows nothing. Each panel decides what it shows of which kind.
    virtual void setEntity(const QString& qualifiedPath, NodeKind kind) = 0;
    // The message the detail panel shows for this panel: its list's selected current row
    // (CurrentMessage.h); none for a panel without messages.
    virtual std::optional<MessageRef> currentMessage() const { return std::nullopt; }
    // How many messages are selected (the status bar's "5 selected"); 0 without messages.
    virtual qint64 selectedCount() const { return 0; }

signals:
    // What currentMessage() or selectedCount() answers may have changed.
    void currentMessageChanged();
    // A command failed; the window's message bar shows it.
    void errorOccurred(const hourglass::Error& error);
    // A command went through; the window's status bar says so (and takes the error down).
    void statusMessage(const QString& text);

protected:
    explicit EntityPanel(QWidget* parent = nullptr)
        : QWidget(parent) {}
    // The rows selected in `view` (for a panel's selectedCount()).
    static qint64 selectedRowCountOf(const QAbstractItemView& view);
};

} // namespace hourglass::ui
