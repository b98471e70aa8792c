#pragma once
// The gallery of bundled scenarios (the seed articles' stories: a traffic spike, a poison
// message, reply queues that vanish): each with its title, story, number of steps and length.
// Play starts the chosen one; "Open file…" picks a scenario file instead. The dialog is opened
// with open() (non-blocking) and reports the choice through `chosen`.
//
// Object names: "scenarioGallery", "scenarioGalleryList", "scenarioGalleryStory",
// "scenarioGalleryPlay", "scenarioGalleryOpenFile".

#include <QDialog>
#include <QStringList>

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

signals:
    // A scenario file (a resource path for a bundled one) to play.
    void chosen(const QString& path);

private:
    void showStory();
    void playSelected();
    void openFile();

    QListWidget* m_list;
    QLabel* m_story;
};

} // namespace hourglass::ui
