#include "demo/ScenarioPanel.h"

#include "common/FixedPitchFont.h"
#include "common/ThemedIcon.h"
#include "demo/ScenarioSession.h"
#include "demo/ScenarioStepText.h"
#include "demo/ScenarioStepsModel.h"

#include <QAction>
#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QStyle>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

namespace hourglass::ui {

namespace {
constexpr double kSpeeds[] = {1, 10, 60, 600};

QToolButton* toolButton(QAction* action, const QString& name) {
    auto* button = new QToolButton;
    button->setObjectName(name);
    button->setDefaultAction(action);
    button->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    return button;
}
} // namespace

ScenarioPanel::ScenarioPanel(ScenarioSession& session, QWidget* parent)
    : QWidget(parent)
    , m_session(session)
    , m_model(new ScenarioStepsModel(session, this))
    , m_title(new QLabel)
    , m_description(new QLabel)
    , m_steps(new QTableView)
    , m_summary(new QLabel)
    , m_detail(new QLabel) {
    setObjectName(QStringLiteral("scenarioPanel"));
    m_title->setObjectName(QStringLiteral("scenarioTitle"));
    m_title->setText(session.scenario().title.isEmpty() ? tr("Untitled scenario")
                                                        : session.scenario().title);
    QFont titleFont = m_title->font();
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.4);
    titleFont.setBold(true);
    m_title->setFont(titleFont);
    m_title->setWordWrap(true);
    m_description->setObjectName(QStringLiteral("scenarioDescription"));
    // The story can be long: its first sentence here, "more" shows the rest.
    m_description->setWordWrap(true);
    showStory(false);
    connect(m_description, &QLabel::linkActivated, this,
            [this](const QString& link) { showStory(link == QLatin1String("more")); });
    m_description->setVisible(!session.scenario().description.isEmpty());
    m_description->setForegroundRole(QPalette::PlaceholderText);

    m_steps->setObjectName(QStringLiteral("scenarioSteps"));
    m_steps->setModel(m_model);
    m_steps->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_steps->setSelectionMode(QAbstractItemView::SingleSelection);
    m_steps->setWordWrap(false);
    m_steps->verticalHeader()->hide();
    m_steps->horizontalHeader()->setSectionResizeMode(ScenarioStepsModel::AtColumn,
                                                      QHeaderView::ResizeToContents);
    m_steps->horizontalHeader()->setSectionResizeMode(ScenarioStepsModel::StepColumn,
                                                      QHeaderView::Stretch);
    m_steps->horizontalHeader()->setSectionResizeMode(ScenarioStepsModel::ResultColumn,
                                                      QHeaderView::ResizeToContents);
    m_summary->setObjectName(QStringLiteral("scenarioSummary"));
    // "Step 12 of 29 · 5 checks passed, 0 failed" wraps rather than widening a narrow dock.
    m_summary->setWordWrap(true);
    m_detail->setObjectName(QStringLiteral("scenarioStepDetail"));
    m_detail->setWordWrap(true);
    m_detail->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_detail->hide();

    auto* close = new QPushButton(tr("Close scenario"));
    close->setObjectName(QStringLiteral("scenarioClose"));
    connect(close, &QPushButton::clicked, this, &ScenarioPanel::closeRequested);
    auto* footer = new QHBoxLayout;
    footer->addWidget(m_summary, 1);
    footer->addWidget(close);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_title);
    layout->addWidget(m_description);
    layout->addWidget(buildControls());
    layout->addWidget(m_steps, 1);
    layout->addWidget(m_detail);
    layout->addLayout(footer);

    connect(&m_session, &ScenarioSession::stateChanged, this, &ScenarioPanel::refreshState);
    connect(&m_session, &ScenarioSession::stepsChanged, this, [this] {
        followCurrentStep();
        showSelectedStep();
        refreshState();
    });
    connect(m_steps->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &ScenarioPanel::showSelectedStep);
    refreshState();
}

QWidget* ScenarioPanel::buildControls() {
    m_play = new QAction(this);
    m_play->setObjectName(QStringLiteral("scenarioPlayAction"));
    m_play->setShortcut(QKeySequence(Qt::Key_F6));
    connect(m_play, &QAction::triggered, this, [this] {
        if (m_session.isPlaying())
            m_session.pause();
        else
            m_session.play();
    });
    m_step = new QAction(tr("Step"), this);
    m_step->setObjectName(QStringLiteral("scenarioStepAction"));
    m_step->setShortcut(QKeySequence(Qt::Key_F7));
    m_step->setToolTip(tr("Run the next step now (F7)"));
    connect(m_step, &QAction::triggered, &m_session, &ScenarioSession::step);
    m_restart = new QAction(tr("Restart"), this);
    m_restart->setObjectName(QStringLiteral("scenarioRestartAction"));
    m_restart->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_F6));
    m_restart->setToolTip(tr("Start again from a fresh database (Shift+F6)"));
    connect(m_restart, &QAction::triggered, &m_session, &ScenarioSession::restart);

    m_speed = new QComboBox;
    m_speed->setObjectName(QStringLiteral("scenarioSpeed"));
    m_speed->setToolTip(tr("Engine time per second of wall time"));
    for (double speed : kSpeeds)
        m_speed->addItem(QStringLiteral("%1×").arg(speed), speed);
    m_speed->setCurrentIndex(m_speed->findData(m_session.speed()));
    connect(m_speed, &QComboBox::activated, this,
            [this](int index) { m_session.setSpeed(m_speed->itemData(index).toDouble()); });

    m_timeline = new QProgressBar;
    m_timeline->setObjectName(QStringLiteral("scenarioTimeline"));
    m_timeline->setTextVisible(false);
    m_timeline->setMaximumHeight(8);
    m_progress = new QLabel;
    m_progress->setObjectName(QStringLiteral("scenarioProgress"));
    m_progress->setFont(fixedPitchFont(m_progress->font()));

    auto* row = new QHBoxLayout;
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(toolButton(m_play, QStringLiteral("scenarioPlay")));
    row->addWidget(toolButton(m_step, QStringLiteral("scenarioStep")));
    row->addWidget(toolButton(m_restart, QStringLiteral("scenarioRestart")));
    row->addWidget(m_speed);
    row->addStretch(1);
    // The engine time beside the timeline rather than after the buttons: the dock stays narrow
    // enough to leave the tree its room in a 1024-pixel window.
    auto* time = new QHBoxLayout;
    time->setContentsMargins(0, 0, 0, 0);
    time->addWidget(m_timeline, 1, Qt::AlignVCenter);
    time->addWidget(m_progress);
    auto* box = new QWidget;
    auto* column = new QVBoxLayout(box);
    column->setContentsMargins(0, 0, 0, 0);
    column->addLayout(row);
    column->addLayout(time);
    return box;
}

void ScenarioPanel::showStory(bool whole) {
    const QString story = m_session.scenario().description;
    const qsizetype end = story.indexOf(QLatin1String(". "));
    if (end < 0) {
        m_description->setText(story.toHtmlEscaped());
        return;
    }
    m_description->setText(
        whole ? QStringLiteral("%1 <a href='less'>less</a>").arg(story.toHtmlEscaped())
              : QStringLiteral("%1 <a href='more'>more…</a>")
                    .arg(story.left(end + 1).toHtmlEscaped()));
}

void ScenarioPanel::changeEvent(QEvent* event) {
    if (event->type() == QEvent::PaletteChange && m_play) {
        m_iconShowsPlaying = -1; // tint again in the new theme's colour
        refreshState();
    }
    QWidget::changeEvent(event);
}

QString ScenarioPanel::caption() const {
    return m_caption;
}

void ScenarioPanel::refreshState() {
    const bool ready = m_session.isReady();
    const bool playing = m_session.isPlaying();
    m_play->setText(playing ? tr("Pause") : tr("Play"));
    if (int(playing) != m_iconShowsPlaying) { // tinting is painting: only on a change
        m_iconShowsPlaying = int(playing);
        m_play->setIcon(
            themedStandardIcon(this, playing ? QStyle::SP_MediaPause : QStyle::SP_MediaPlay));
        m_step->setIcon(themedStandardIcon(this, QStyle::SP_MediaSkipForward));
        m_restart->setIcon(themedStandardIcon(this, QStyle::SP_BrowserReload));
    }
    m_play->setToolTip(playing ? tr("Pause the scenario (F6)") : tr("Play the scenario (F6)"));
    m_play->setEnabled(ready && !m_session.atEnd());
    m_step->setEnabled(ready && !m_session.atEnd() && !m_session.isBusy());
    m_restart->setEnabled(ready);
    const int speedIndex = m_speed->findData(m_session.speed());
    if (speedIndex >= 0)
        m_speed->setCurrentIndex(speedIndex);

    const Millis length = m_session.length();
    const Millis elapsed = std::min(m_session.elapsed(), std::max<Millis>(length, 0));
    m_timeline->setRange(0, int(std::max<Millis>(length / 1000, 1)));
    m_timeline->setValue(int(elapsed / 1000));
    m_progress->setText(QStringLiteral("%1 / %2").arg(scenarioClockText(m_session.elapsed()),
                                                      scenarioClockText(length)));

    const int count = m_session.stepCount();
    const int next = m_session.nextStep();
    const int passed = m_session.passedCount();
    const int failed = m_session.failedCount();
    QString where;
    if (!ready)
        where = tr("Opening…");
    else if (m_session.atEnd())
        where = tr("Finished");
    else
        where = tr("Step %1 of %2").arg(next + 1).arg(count);
    // The words and numbers of a headless run of the same file.
    m_summary->setText(QStringLiteral("%1 · %2").arg(where, checksSummary(passed, failed)));
    m_summary->setStyleSheet(failed > 0 ? QStringLiteral("color: #d93b3b; font-weight: bold;")
                                        : QString());

    QString caption = where;
    if (ready && !m_session.atEnd())
        caption +=
            QStringLiteral(" · ") + describeScenarioStep(m_session.scenario().steps.at(next));
    if (caption != m_caption) {
        m_caption = caption;
        emit captionChanged(m_caption);
    }
}

void ScenarioPanel::followCurrentStep() {
    const int next = std::min(m_session.nextStep(), m_session.stepCount() - 1);
    if (next >= 0)
        m_steps->scrollTo(m_model->index(next, 0), QAbstractItemView::PositionAtCenter);
}

void ScenarioPanel::showSelectedStep() {
    const QModelIndex current = m_steps->currentIndex();
    if (!current.isValid()) {
        m_detail->hide();
        return;
    }
    const int row = current.row();
    const ScenarioStep& step = m_session.scenario().steps.at(row);
    QString text = QStringLiteral("<b>%1</b> %2")
                       .arg(scenarioClockText(step.at), describeScenarioStep(step).toHtmlEscaped());
    const auto& outcome = m_session.outcome(row);
    for (const QString& line : outcome.failures)
        text +=
            QStringLiteral("<br><span style='color:#d93b3b'>✗ %1</span>").arg(line.toHtmlEscaped());
    m_detail->setText(text);
    m_detail->show();
}

} // namespace hourglass::ui
