#pragma once
// The gallery of bundled scenarios (the seed articles' stories: a traffic spike, a poison
// message, reply queues that vanish): each with its title, story, number of steps and length.
// Play starts the chosen one playing at once, at the speed chosen beside it; "Open file…" picks a
// scenario file instead (it plays at that speed too). The dialog is opened with open()
// (non-blocking) and reports the choice through `chosen`.
//
// Object names: "scenarioGallery", "scenarioGalleryList", "scenarioGalleryStory",
// "scenarioGallerySpeed", "scenarioGalleryPlay", "scenarioGalleryOpenFile".

#include <QDialog>
#include <QStringList>

class QComboBox;
class QLabel;
class QListWidget;

namespace hourglass::ui {

class ScenarioGallery : public QDialog {
    Q_OBJECT
public:
    explicit ScenarioGallery(QWidget* parent = nullptr);

    // The bundled scenario files (Qt resource paths), in name order.
    static QStringList bundledScenarios();
    QListWidget* list() const { return m_list; }
    // The speed Play starts at (engine time per second of wall time).
    double speed() const;

signals:
    // A scenario file (a resource path for a bundled one) to play at `speed`.
    void chosen(const QString& path, double speed);

private:
    void showStory();
    void playSelected();
    void openFile();

    QListWidget* m_list;
    QLabel* m_story;
    QComboBox* m_speed;
};

} // namespace hourglass::ui
