#pragma once
// What the demo tools (ScenarioController, PresentationMode) need from the window they play in,
// and all they know of it: the window implements it (window/MainWindow.h), so that demo/ uses
// no header of window/ and the two folders do not include each other.
//
// Threads: GUI thread only.

#include "hourglass/Status.h"
#include "tree/NamespaceTreeModel.h"

#include <QString>

#include <memory>

class QMainWindow;

namespace hourglass::ui {

class BrokerClient;
class NamespaceTreePanel;
class TimeControlBar;

class DemoHost {
public:
    virtual ~DemoHost() = default;

    // The window itself: the parent of the scenario dock and of the demo tools' dialogs.
    virtual QMainWindow& hostWindow() = 0;
    // The open database's client; null while none is open.
    virtual BrokerClient* client() const = 0;
    // Shows the database behind `client` (null: none) and remembers it as a recent database.
    virtual void setClient(std::unique_ptr<BrokerClient> client) = 0;
    // Shows a scenario's temporary database: not remembered, titled after the scenario.
    virtual void showScenarioClient(std::unique_ptr<BrokerClient> client, const QString& title) = 0;
    // Opens a database file (off the GUI thread), as File > Open does.
    virtual void openDatabase(const QString& path) = 0;
    // The namespace tree of the open database, and its time toolbar (null while none is open).
    virtual NamespaceTreePanel* tree() const = 0;
    virtual TimeControlBar* timeBar() const = 0;
    // The tree's selection ("ns:path"; empty for none) and its kind.
    virtual QString selectedPath() const = 0;
    virtual NamespaceTreeModel::NodeKind selectedKind() const = 0;
    // Shows `error` in the window's message bar, after `context` when there is one.
    virtual void showError(const Error& error, const QString& context = {}) = 0;
    // A dock took its room on the right: the tree gets back a width that shows its names and
    // counts, taken from the message workspace.
    virtual void giveTreeItsWidth() = 0;

protected:
    DemoHost() = default;
    DemoHost(const DemoHost&) = default;
    DemoHost& operator=(const DemoHost&) = default;
};

} // namespace hourglass::ui
