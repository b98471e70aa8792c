#include "demo/ScenarioGallery.h"

#include "demo/ScenarioStepText.h"
#include "hourglass/scenario/ScenarioFile.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

namespace hourglass::ui {

namespace {
constexpr int kPathRole = Qt::UserRole;
constexpr int kStoryRole = Qt::UserRole + 1;
constexpr double kSpeeds[] = {1, 10, 60, 600};
constexpr double kDefaultSpeed = 60; // a story of minutes plays in seconds
} // namespace

ScenarioGallery::ScenarioGallery(QWidget* parent)
    : QDialog(parent)
    , m_list(new QListWidget)
    , m_story(new QLabel)
    , m_speed(new QComboBox) {
    setObjectName(QStringLiteral("scenarioGallery"));
    setWindowTitle(tr("Scenario gallery"));
    m_list->setObjectName(QStringLiteral("scenarioGalleryList"));
    m_list->setSpacing(2);
    m_story->setObjectName(QStringLiteral("scenarioGalleryStory"));
    m_story->setWordWrap(true);
    m_story->setMinimumHeight(96);
    m_story->setAlignment(Qt::AlignTop | Qt::AlignLeft);

    // Bundled files are small resources: parsing them here costs nothing the user could feel.
    for (const QString& path : bundledScenarios()) {
        const auto scenario = loadScenarioFile(path);
        if (!scenario)
            continue; // a broken bundled file is caught by the scenario tests, not shown
        const Millis length = scenario->steps.isEmpty() ? 0 : scenario->steps.last().at;
        auto* item = new QListWidgetItem(tr("%1\n%2 steps · %3 of engine time")
                                             .arg(scenario->title)
                                             .arg(scenario->steps.size())
                                             .arg(scenarioClockText(length)));
        item->setData(kPathRole, path);
        item->setData(kStoryRole, scenario->description);
        item->setToolTip(path);
        m_list->addItem(item);
    }

    m_speed->setObjectName(QStringLiteral("scenarioGallerySpeed"));
    m_speed->setToolTip(tr("Engine time per second of wall time"));
    for (double speed : kSpeeds)
        m_speed->addItem(QStringLiteral("%1×").arg(speed), speed);
    m_speed->setCurrentIndex(m_speed->findData(kDefaultSpeed));
    auto* speedLabel = new QLabel(tr("&Speed:"));
    speedLabel->setBuddy(m_speed);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel);
    QPushButton* play = buttons->addButton(tr("Play"), QDialogButtonBox::AcceptRole);
    play->setObjectName(QStringLiteral("scenarioGalleryPlay"));
    play->setDefault(true);
    QPushButton* file = buttons->addButton(tr("Open file…"), QDialogButtonBox::ActionRole);
    file->setObjectName(QStringLiteral("scenarioGalleryOpenFile"));
    connect(play, &QPushButton::clicked, this, &ScenarioGallery::playSelected);
    connect(file, &QPushButton::clicked, this, &ScenarioGallery::openFile);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_list, &QListWidget::currentRowChanged, this, &ScenarioGallery::showStory);
    connect(m_list, &QListWidget::itemActivated, this, &ScenarioGallery::playSelected);
    connect(m_list, &QListWidget::currentRowChanged, play,
            [this, play] { play->setEnabled(m_list->currentItem() != nullptr); });

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(new QLabel(tr("Play a story on a fresh temporary database:")));
    layout->addWidget(m_list, 1);
    layout->addWidget(m_story);
    auto* bottom = new QHBoxLayout;
    bottom->addWidget(speedLabel);
    bottom->addWidget(m_speed);
    bottom->addWidget(buttons, 1);
    layout->addLayout(bottom);
    resize(560, 460);
    if (m_list->count() > 0)
        m_list->setCurrentRow(0);
    play->setEnabled(m_list->currentItem() != nullptr);
}

double ScenarioGallery::speed() const {
    return m_speed->currentData().toDouble();
}

QStringList ScenarioGallery::bundledScenarios() {
    const QDir dir(QStringLiteral(":/scenarios"));
    QStringList paths;
    for (const QString& name : dir.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name))
        paths << dir.filePath(name);
    return paths;
}

void ScenarioGallery::showStory() {
    const QListWidgetItem* item = m_list->currentItem();
    m_story->setText(item ? item->data(kStoryRole).toString() : QString());
}

void ScenarioGallery::playSelected() {
    const QListWidgetItem* item = m_list->currentItem();
    if (!item)
        return;
    emit chosen(item->data(kPathRole).toString(), speed());
    accept();
}

void ScenarioGallery::openFile() {
    auto* dialog = new QFileDialog(this, tr("Open scenario"), QString(),
                                   tr("Scenario files (*.json);;All files (*)"));
    dialog->setObjectName(QStringLiteral("scenarioFileDialog"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setFileMode(QFileDialog::ExistingFile);
    connect(dialog, &QFileDialog::fileSelected, this, [this](const QString& path) {
        emit chosen(path, speed());
        accept();
    });
    dialog->open();
}

} // namespace hourglass::ui
