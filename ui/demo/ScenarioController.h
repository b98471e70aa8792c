#pragma once
// Plays scenarios in the main window (DemoHost.h): the Scenario menu's gallery
// and "Open scenario file…", the player dock, and the hand-over of the window to the scenario's
// temporary database and back.
//
// A scenario plays on a database of its own, so a demo never touches the user's data. While it
// plays, the window shows that database like any other (tree, lists, charts, time toolbar), the
// time toolbar says the scenario drives the clock, and the dock on the right lists the steps.
// Closing the scenario reopens the database that was open before.

#include "hourglass/Status.h"
#include "hourglass/scenario/ScenarioFile.h"

#include <QObject>
#include <QPointer>

class QAction;
class QDialog;
class QDockWidget;
class QMenu;

namespace hourglass::ui {

class DemoHost;
class ScenarioPanel;
class ScenarioSession;

class ScenarioController : public QObject {
    Q_OBJECT
public:
    explicit ScenarioController(DemoHost& host);
    ~ScenarioController() override;

    // Gallery (Ctrl+Shift+P), Open scenario file (Ctrl+Shift+O), then the player's play/pause,
    // step and restart and Close scenario while one is open.
    void fillMenu(QMenu* menu);

    // Opens the gallery (non-blocking) and returns it.
    QDialog* openGallery();
    // How a scenario opened with a speed starts.
    enum class Start {
        AtOnce,       // plays as soon as it is ready
        KeyWhenShort, // a story over in under a minute of wall time at that speed waits, paused,
                      // until the presenter plays it (Space, F6): the room is looking by then
    };
    // Reads and parses the file off the GUI thread, then opens it in the player; a bad file goes
    // to the message bar with the JSON path of the first bad field. With a speed, it starts
    // playing at that speed as soon as it is ready (hourglass --play), or as `start` says.
    void openFile(const QString& path, double autoPlaySpeed = 0, Start start = Start::AtOnce);
    // Opens `scenario` on a fresh temporary database (closing any scenario already open).
    void play(Scenario scenario, double autoPlaySpeed = 0, Start start = Start::AtOnce);
    // Opened with Start::KeyWhenShort and waiting for the presenter to start it.
    bool isWaitingForKey() const { return m_waitingForKey; }
    // Ends the scenario and reopens the database that was open before it, if any.
    void close();
    // The window opened a database file: a scenario playing ends, its database left behind.
    void databaseOpened();

    ScenarioSession* session() const { return m_session; }
    ScenarioPanel* panel() const { return m_panel; }
    QDockWidget* dock() const { return m_dock; }

signals:
    // A scenario opened or closed (the window rebuilds its Scenario menu).
    void sessionChanged();
    // What the player is at, for a presentation screen ("Step 4 of 9 · Receive 2 from jobs").
    void captionChanged(const QString& caption);
    // What the clock badge says while the scenario drives it ("SCENARIO · 60×"); empty when the
    // clock is the toolbar's again.
    void clockBadgeChanged(const QString& badge);

private:
    void chooseFile();
    void endSession();
    void showBroker(std::shared_ptr<hourglass::Broker> broker);
    bool handClockBack(); // true: back to LIVE
    void relayCaption();
    void updateClockBadge();
    void reportError(const Error& error, const QString& context);

    DemoHost& m_host;
    QAction* m_galleryAction;
    QAction* m_openAction;
    QAction* m_closeAction;
    QDockWidget* m_dock;
    ScenarioSession* m_session = nullptr;
    ScenarioPanel* m_panel = nullptr;
    QString m_previousDatabase; // reopened when the scenario closes
    bool m_showing = false;     // the window shows the scenario's database
    double m_autoPlaySpeed = 0; // > 0: play as soon as the scenario's database is shown
    Start m_start = Start::AtOnce;
    bool m_waitingForKey = false; // shown paused until the presenter starts it
};

} // namespace hourglass::ui
