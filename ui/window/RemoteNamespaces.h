#pragma once
// The namespaces the window does not host, under the open database in the tree column: one
// RemoteNamespaceView per saved namespace (SavedNamespaces), connected on the user's word
// (its header's Connect, or at once after File > Connect to namespace…), disconnected and
// forgotten the same way. Opening goes through RemoteOpener (the keychain, else the key asked
// for; the broker made and tried off the GUI thread).
//
// Test handle: "connectDialog" (the Connect dialog it opens), "confirmForget" (QMessageBox).

#include <QList>
#include <QObject>

class QDialog;
class QSettings;
class QVBoxLayout;
class QWidget;

namespace hourglass::ui {

class RemoteNamespaceView;
class RemoteOpener;
class SavedNamespaces;
struct SavedNamespace;

class RemoteNamespaces : public QObject {
    Q_OBJECT
public:
    // `column`: where the views go (under the database's tree); `window` parents the dialogs.
    // `settings`: where the saved list lives (not owned); nullptr for the application's.
    RemoteNamespaces(QVBoxLayout& column, QWidget& window, QSettings* settings = nullptr,
                     QObject* parent = nullptr);

    SavedNamespaces* saved() const { return m_saved; }
    QList<RemoteNamespaceView*> views() const { return m_views; }
    RemoteNamespaceView* view(const QString& id) const;

    // File > Connect to namespace…: saving opens the namespace at once.
    QDialog* openConnectDialog();
    // The header's Connect: opens the saved namespace `id`.
    void connectTo(const QString& id);
    // Closes every connection and removes the views (the window is closing).
    void closeAll();

signals:
    // A view was made: the main window follows its signals (activated, attached, detaching).
    void viewAdded(hourglass::ui::RemoteNamespaceView* view);
    // Opening failed, for the message bar (the header says it too).
    void openFailed(const QString& name, const QString& problem);

private:
    RemoteNamespaceView* addView(const SavedNamespace& saved);
    void askToForget(RemoteNamespaceView* view);
    // The entities to browse for a key that cannot list the namespace: saved, then reopened.
    void askForNames(RemoteNamespaceView* view);

    QVBoxLayout& m_column;
    QWidget& m_window;
    SavedNamespaces* m_saved;
    RemoteOpener* m_opener;
    QList<RemoteNamespaceView*> m_views;
};

} // namespace hourglass::ui
