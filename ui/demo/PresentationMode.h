#pragma once
// Presentation mode in the main window (View > Presentation mode, F11): the selected entity in a
// full-screen PresentationView, with large type and no chrome. Esc leaves.
//
// While a scenario plays, the view's caption says which step comes next, Space plays or pauses
// the scenario (instead of the bare clock, which the scenario drives), and F6 / F7 / Shift+F6
// work as in the window. When the window's database is replaced under the view (a scenario's
// restart), the view closes with the old client and opens again on the new one, on the same
// entity, so the room keeps watching.

#include "tree/NamespaceTreeModel.h"

#include <QObject>
#include <QPointer>

class QAction;

namespace hourglass::ui {

class DemoHost;
class PresentationView;
class ScenarioController;

class PresentationMode : public QObject {
    Q_OBJECT
public:
    // Over the window `host`; `scenarios` plays in the same window.
    PresentationMode(DemoHost& host, ScenarioController& scenarios);
    ~PresentationMode() override;

    QAction* action() const { return m_action; }
    PresentationView* view() const;

    // Shows the window's selected entity full screen (a no-op without a database).
    void enter();
    // Enters as soon as the tree has selected an entity (hourglass --present: the tree fills
    // after the database opens).
    void enterWhenSelected();
    // The window's selection changed (MainWindow::select).
    void selectionChanged();
    void leave();
    // The window's client is about to go away: close the view but remember to come back.
    void clientClosing();
    // The window has a (new) client: come back if the view was closed by clientClosing().
    void clientReady();
    void setCaption(const QString& caption);
    void setClockBadge(const QString& badge);

private:
    void open(const QString& path, NamespaceTreeModel::NodeKind kind);
    void bindScenarioKeys();

    DemoHost& m_host;
    ScenarioController& m_scenarios;
    QAction* m_action;
    QPointer<PresentationView> m_view;
    QString m_caption;
    QString m_clockBadge;
    bool m_returning = false; // closed by clientClosing(); reopen on clientReady()
    bool m_pending = false;   // enterWhenSelected() waits for a selection
    QString m_returnPath;
    NamespaceTreeModel::NodeKind m_returnKind = NamespaceTreeModel::NodeKind::Namespace;
};

} // namespace hourglass::ui
