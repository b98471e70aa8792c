#pragma once
// The scenario player's panel (a dock beside the explorer): the scenario's title and story, the
// controls (play/pause F6, step F7, restart Shift+F6, speed 1x..600x), where the timeline is, and
// the steps with the next one highlighted and every check marked passed or failed as it runs.
// Selecting a step shows what it does and, for a failed check, every difference.
//
// Object names: "scenarioPanel", "scenarioTitle", "scenarioDescription", "scenarioPlay",
// "scenarioStep", "scenarioRestart", "scenarioSpeed", "scenarioTimeline", "scenarioProgress",
// "scenarioSteps", "scenarioSummary", "scenarioStepDetail", "scenarioClose".

#include <QWidget>

class QAction;
class QComboBox;
class QLabel;
class QProgressBar;
class QTableView;

namespace hourglass::ui {

class ScenarioSession;
class ScenarioStepsModel;

class ScenarioPanel : public QWidget {
    Q_OBJECT
public:
    explicit ScenarioPanel(ScenarioSession& session, QWidget* parent = nullptr);

    QAction* playAction() const { return m_play; }
    QAction* stepAction() const { return m_step; }
    QAction* restartAction() const { return m_restart; }
    QTableView* stepsView() const { return m_steps; }
    // "Step 4 of 18 · Receive 2 from jobs as backend": for a caption on a presentation screen.
    QString caption() const;

signals:
    void closeRequested();
    void captionChanged(const QString& caption);

protected:
    void changeEvent(QEvent* event) override;

private:
    QWidget* buildControls();
    void showStory(bool whole);
    void refreshState();
    void followCurrentStep();
    void showSelectedStep();

    ScenarioSession& m_session;
    ScenarioStepsModel* m_model;
    QLabel* m_title;
    QLabel* m_description;
    QAction* m_play = nullptr;
    QAction* m_step = nullptr;
    QAction* m_restart = nullptr;
    QComboBox* m_speed = nullptr;
    QProgressBar* m_timeline = nullptr;
    QLabel* m_progress = nullptr;
    QTableView* m_steps;
    QLabel* m_summary;
    QLabel* m_detail;
    QString m_caption;
    int m_iconShowsPlaying = -1; // the play/pause icon's state (-1: to be drawn)
};

} // namespace hourglass::ui
