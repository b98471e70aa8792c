#pragma once
// Records what the user does in the window as a scenario file, so that a story told once by hand
// replays in the window or headless. While it records, a ScenarioRecorder observes the client's
// broker (Broker::setOperationObserver), so every operation any panel carries out becomes a
// step, at engine time. Stopping opens a save dialog (non-blocking); the file plays back with
// ScenarioRunner to the same state, and "Add check for this entity" adds an Expect step so that
// it checks itself on replay.
//
// Every broker call goes through BrokerClient::call; the GUI thread only reads the recorder's
// step count (its own small mutex) and the clock.
//
// Object names: actions "scenarioRecord" (checkable, Ctrl+Alt+R; Ctrl+Shift+R is the dead-letter
// panel's resubmit), "scenarioAddCheck", "scenarioSaveRecording"; the save dialog
// "scenarioSaveDialog"; the status-bar indicator "recordingIndicator" ("● REC 01:23 · 7 steps",
// hidden while not recording).

#include "hourglass/Status.h"
#include "tree/NamespaceTreeModel.h"

#include <QObject>
#include <QPointer>
#include <QTimer>

#include <functional>
#include <memory>

class QAction;
class QLabel;
class QWidget;

namespace hourglass {
class ScenarioRecorder;
}

namespace hourglass::ui {

class BrokerClient;

class ScenarioRecording : public QObject {
    Q_OBJECT
public:
    // Dialogs open over `dialogParent`.
    ScenarioRecording(BrokerClient& client, QWidget* dialogParent);
    // Stops observing the broker. A recording not kept by keepUnsaved() is dropped.
    ~ScenarioRecording() override;

    // Before this goes away (another database, a scenario, the window closing): a recording
    // under way is finished, and it or a stopped one not saved yet is written to a file of its
    // own in unsavedFolder(), off the GUI thread. done(the file, or why not) runs on context's
    // thread. False, and done is not called, when there is nothing to keep.
    bool keepUnsaved(QObject* context, std::function<void(Result<QString>)> done);
    // Where keepUnsaved() writes: "~/.local/share/hourglass/recordings".
    static QString unsavedFolder();

    // Checked while recording: checking starts, unchecking stops and asks where to save.
    QAction* recordAction() const { return m_record; }
    QAction* addCheckAction() const { return m_addCheck; }
    // Saves the last recording again (after the dialog was cancelled, or to another file).
    QAction* saveAction() const { return m_save; }
    QList<QAction*> actions() const { return {m_record, m_addCheck, m_save}; }
    // For the status bar (QStatusBar::addPermanentWidget takes it over).
    QLabel* indicator() const;

    // The entity "Add check" checks: the tree's selection ("ns:orders", kind).
    void setEntity(const QString& qualifiedPath, NamespaceTreeModel::NodeKind kind);

    bool isRecording() const { return m_state == State::Recording; }
    int stepCount() const;
    // Writes the last finished recording; false (and errorOccurred) when there is none or the
    // file cannot be written.
    bool saveTo(const QString& fileName);

signals:
    void recordingChanged(bool recording);
    void errorOccurred(const hourglass::Error& error);
    void statusMessage(const QString& text);

private:
    enum class State { Idle, Starting, Recording, Stopping };

    void start();
    void stop();
    void addCheck();
    void openSaveDialog();
    void setState(State state);
    void updateActions();
    void updateIndicator();

    QPointer<BrokerClient> m_client;
    QPointer<QWidget> m_dialogParent;
    std::shared_ptr<ScenarioRecorder> m_recorder;
    State m_state = State::Idle;
    QByteArray m_document;  // the last finished recording
    bool m_unsaved = false; // m_document was not written to a file yet
    bool m_kept = false;    // keepUnsaved() took the recording over
    QString m_entity;
    NamespaceTreeModel::NodeKind m_kind = NamespaceTreeModel::NodeKind::Namespace;
    QAction* m_record = nullptr;
    QAction* m_addCheck = nullptr;
    QAction* m_save = nullptr;
    QPointer<QLabel> m_indicator;
    QTimer m_indicatorTimer; // the elapsed engine time moves on its own
};

} // namespace hourglass::ui
