#include "demo/TimeControlBar.h"

#include "common/ThemedIcon.h"

#include "common/BrokerClient.h"
#include "common/DurationEdit.h"
#include "common/DurationText.h"

#include <QAction>
#include <QComboBox>
#include <QDateTime>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QSignalBlocker>
#include <QStyle>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace hourglass::ui {

namespace {
// A few refreshes a second: the seconds digit never lags visibly, and reading the clock is cheap.
constexpr int kRefreshMs = 250;
// Big enough to read from the back of a room in a demo.
constexpr double kClockFontScale = 2.0;
constexpr Millis kDefaultJump = minutes(5);
// The badge style's horizontal padding on both sides, plus a little air.
constexpr int kBadgePadding = 24;
const double kSpeeds[] = {1.0, 10.0, 60.0, 600.0};

// Badge colours carry their own background and white text, so they read on light and dark
// palettes alike; red for a stopped clock, amber for a moving but unreal one, green for live.
const QString kBadgeStyle = QStringLiteral(
    "QLabel { background-color: %1; color: white; border-radius: 4px; padding: 2px 8px; "
    "font-weight: bold; }");
const QString kLiveColour = QStringLiteral("#2e7d32");
const QString kPausedColour = QStringLiteral("#c62828");
const QString kVirtualColour = QStringLiteral("#b45309");

QString speedText(double speed) {
    return QStringLiteral("%1×").arg(speed, 0, 'g', 6);
}
} // namespace

QString clockModeText(bool realTime, bool paused, double speed, Millis offset) {
    if (realTime)
        return QStringLiteral("LIVE");
    QStringList parts;
    if (paused)
        parts << QStringLiteral("PAUSED");
    else if (speed != 1.0)
        parts << QStringLiteral("%1 SPEED").arg(speedText(speed));
    if (std::llabs(offset) >= seconds(1)) {
        const QString span = shortDuration(std::llabs(offset));
        parts << (offset > 0 ? QStringLiteral("+%1 AHEAD").arg(span)
                             : QStringLiteral("-%1 BEHIND").arg(span));
    }
    // Running at 1x within a second of real time, but not anchored to it: still virtual.
    return parts.isEmpty() ? QStringLiteral("VIRTUAL") : parts.join(QStringLiteral(" · "));
}

TimeControlBar::TimeControlBar(BrokerClient& client, QWidget* parent)
    : QToolBar(tr("Time"), parent)
    , m_client(client)
    , m_refreshTimer(new QTimer(this)) {
    setObjectName(QStringLiteral("timeControlBar"));
    buildClockDisplay();
    addSeparator();
    buildControls();
    connect(m_refreshTimer, &QTimer::timeout, this, &TimeControlBar::refresh);
    m_refreshTimer->start(kRefreshMs);
    refresh();
}

void TimeControlBar::buildClockDisplay() {
    auto* box = new QWidget(this);
    auto* layout = new QHBoxLayout(box);
    layout->setContentsMargins(6, 0, 6, 0);
    layout->setSpacing(8);

    m_time = new QLabel(box);
    m_time->setObjectName(QStringLiteral("clockTime"));
    QFont big = m_time->font();
    big.setPointSizeF(big.pointSizeF() * kClockFontScale);
    big.setBold(true);
    m_time->setFont(big);
    // Fixed width so the toolbar does not jiggle as proportional digits change.
    m_time->setMinimumWidth(QFontMetrics(big).horizontalAdvance(QStringLiteral("00:00:00")) + 4);

    m_date = new QLabel(box);
    m_date->setObjectName(QStringLiteral("clockDate"));
    m_date->setEnabled(false); // greyed: secondary to the time

    m_mode = new QLabel(box);
    m_mode->setObjectName(QStringLiteral("clockMode"));
    m_mode->setAlignment(Qt::AlignCenter);

    // The badge's text changes width as the offset ticks; a column wide enough for a long badge
    // keeps the controls to its right from shifting under the pointer.
    auto* column = new QWidget(box);
    auto* dateAndMode = new QVBoxLayout(column);
    dateAndMode->setContentsMargins(0, 0, 0, 0);
    dateAndMode->setSpacing(2);
    dateAndMode->addWidget(m_mode, 0, Qt::AlignLeft);
    dateAndMode->addWidget(m_date, 0, Qt::AlignLeft);
    QFont badgeFont = m_mode->font();
    badgeFont.setBold(true);
    column->setMinimumWidth(
        QFontMetrics(badgeFont).horizontalAdvance(QStringLiteral("600× SPEED · +23h 59m AHEAD")) +
        kBadgePadding);
    layout->addWidget(m_time);
    layout->addWidget(column);
    addWidget(box);
}

void TimeControlBar::buildControls() {
    m_playPause = addAction(tr("Pause"), this, &TimeControlBar::togglePlayPause);
    m_playPause->setObjectName(QStringLiteral("clockPlayPause"));
    // Space belongs to the message tables; F8 is the debugger's "continue/pause" habit.
    m_playPause->setShortcuts({QKeySequence(Qt::Key_F8), QKeySequence(Qt::CTRL | Qt::Key_Space)});
    m_playPause->setShortcutContext(Qt::WindowShortcut);
    // The style's media icons are black; the word beside them keeps the state readable on a
    // dark palette too.
    if (auto* button = qobject_cast<QToolButton*>(widgetForAction(m_playPause)))
        button->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);

    m_speed = new QComboBox(this);
    m_speed->setObjectName(QStringLiteral("clockSpeed"));
    m_speed->setToolTip(tr("How fast virtual time runs"));
    for (double speed : kSpeeds)
        m_speed->addItem(speedText(speed), speed);
    connect(m_speed, &QComboBox::currentIndexChanged, this, &TimeControlBar::chooseSpeed);
    addWidget(m_speed);
    addSeparator();

    m_jumpBy = new DurationEdit(DurationEdit::Infinite::Refused, this);
    m_jumpBy->setObjectName(QStringLiteral("clockJumpBy"));
    m_jumpBy->setDuration(kDefaultJump);
    m_jumpBy->lineEdit()->setMaximumWidth(m_jumpBy->fontMetrics().averageCharWidth() * 10);
    // A toolbar hands spare width to expanding widgets; the field needs only its own.
    m_jumpBy->setSizePolicy(QSizePolicy::Maximum, QSizePolicy::Preferred);
    m_jumpBy->setToolTip(tr("How far \"Jump ahead\" moves the clock (e.g. 5m, 1h30m, 1d or PT5M)"));
    connect(m_jumpBy, &DurationEdit::durationEdited, this, [this] { refresh(); });
    connect(m_jumpBy->lineEdit(), &QLineEdit::returnPressed, this, [this] { m_jump->trigger(); });

    m_jump = new QAction(tr("Jump ahead"), this);
    m_jump->setObjectName(QStringLiteral("clockJump"));
    m_jump->setToolTip(tr("Move the clock ahead; everything due on the way fires in order"));
    connect(m_jump, &QAction::triggered, this, [this] {
        if (const auto delta = m_jumpBy->duration())
            jumpBy(*delta);
    });
    // Presets set the field and jump at once, so the last choice stays visible and repeatable.
    auto* presets = new QMenu(this);
    const QList<QPair<QString, Millis>> choices = {{tr("1 minute"), minutes(1)},
                                                   {tr("5 minutes"), minutes(5)},
                                                   {tr("1 hour"), hours(1)},
                                                   {tr("1 day"), days(1)}};
    for (const auto& [label, delta] : choices) {
        QAction* preset = presets->addAction(label);
        preset->setObjectName(QStringLiteral("clockJumpPreset%1").arg(formatIsoDuration(delta)));
        connect(preset, &QAction::triggered, this, [this, delta] {
            m_jumpBy->setDuration(delta);
            m_jump->trigger();
        });
    }
    m_jump->setMenu(presets);
    addAction(m_jump);
    if (auto* button = qobject_cast<QToolButton*>(widgetForAction(m_jump)))
        button->setPopupMode(QToolButton::MenuButtonPopup);
    addWidget(m_jumpBy);
    addSeparator();

    m_realTime = addAction(tr("Real time"), this, &TimeControlBar::backToRealTime);
    m_realTime->setObjectName(QStringLiteral("clockRealTime"));
    m_realTime->setToolTip(tr("Back to the real clock: now, 1×, running"));
}

void TimeControlBar::refresh() {
    const Instant now = m_client.clock().now();
    const QDateTime local = QDateTime::fromMSecsSinceEpoch(now).toLocalTime();
    m_time->setText(local.toString(QStringLiteral("HH:mm:ss")));
    m_date->setText(local.toString(QStringLiteral("ddd d MMM yyyy")));
    m_time->setToolTip(formatInstant(now));

    VirtualClock* clock = m_client.virtualClock();
    updateBadge(clock, now);
    updateEnabled(clock);
    if (!clock)
        return;
    const bool paused = clock->isPaused();
    m_playPause->setText(paused ? tr("Play") : tr("Pause"));
    if (int(paused) != m_iconShowsPaused) { // tinting is painting: only on a change
        m_iconShowsPaused = int(paused);
        m_playPause->setIcon(
            themedStandardIcon(this, paused ? QStyle::SP_MediaPlay : QStyle::SP_MediaPause));
        keepPlayPauseWidth();
    }
    const int index = m_speed->findData(clock->speed());
    if (index >= 0 && index != m_speed->currentIndex()) {
        // Showing the clock's speed is not a choice of the user's: no clockChanged.
        const QSignalBlocker quiet(m_speed);
        m_speed->setCurrentIndex(index);
    }
}

void TimeControlBar::keepPlayPauseWidth() {
    // "Pause" is wider than "Play": sized to the wider word, the button does not push the speed
    // box, the jump field and Real time sideways (from under the pointer) at every toggle.
    auto* button = qobject_cast<QToolButton*>(widgetForAction(m_playPause));
    if (!button)
        return;
    // QToolButton sizes its text with QFontMetrics::size(); only that part differs between the
    // two words, icon and margins are the same.
    const QFontMetrics metrics(button->font());
    const auto textWidth = [&metrics](const QString& text) {
        return metrics.size(Qt::TextShowMnemonic, text).width();
    };
    const int widest = std::max(textWidth(tr("Pause")), textWidth(tr("Play")));
    button->setFixedWidth(button->sizeHint().width() - textWidth(m_playPause->text()) + widest);
}

void TimeControlBar::changeEvent(QEvent* event) {
    if (event->type() == QEvent::FontChange || event->type() == QEvent::StyleChange)
        m_iconShowsPaused = -1; // measure the button again in the new font
    if (event->type() == QEvent::PaletteChange) {
        m_iconShowsPaused = -1; // tint again in the new theme's colour
        refresh();
    }
    QToolBar::changeEvent(event);
}

void TimeControlBar::setScenarioDriven(const QString& badge) {
    if (badge == m_scenarioBadge)
        return;
    m_scenarioBadge = badge;
    refresh();
}

void TimeControlBar::updateBadge(VirtualClock* clock, Instant now) {
    if (!m_scenarioBadge.isEmpty()) {
        const QString style = kBadgeStyle.arg(kVirtualColour);
        if (m_mode->text() != m_scenarioBadge)
            m_mode->setText(m_scenarioBadge);
        if (m_mode->styleSheet() != style)
            m_mode->setStyleSheet(style);
        m_mode->setToolTip(tr("A scenario is playing: it moves the clock from step to step. "
                              "Use the scenario panel to play, pause or step."));
        return;
    }
    // A system clock is real time by definition.
    const bool realTime = !clock || clock->isRealTime();
    const bool paused = clock && clock->isPaused();
    const QString text = clockModeText(realTime, paused, clock ? clock->speed() : 1.0,
                                       now - VirtualClock::realNow());
    const QString colour = realTime ? kLiveColour : paused ? kPausedColour : kVirtualColour;
    if (m_mode->text() != text)
        m_mode->setText(text);
    const QString style = kBadgeStyle.arg(colour);
    if (m_mode->styleSheet() != style)
        m_mode->setStyleSheet(style);
    m_mode->setToolTip(realTime ? tr("The clock is the real time")
                                : tr("Virtual time: countdowns, locks and scheduled messages "
                                     "follow this clock, not the wall clock"));
}

void TimeControlBar::updateEnabled(VirtualClock* clock) {
    const bool controllable = clock != nullptr && m_scenarioBadge.isEmpty();
    m_playPause->setEnabled(controllable);
    m_speed->setEnabled(controllable);
    m_jumpBy->setEnabled(controllable);
    m_jump->setEnabled(controllable && !m_jumping && m_jumpBy->isValid());
    m_realTime->setEnabled(controllable && !clock->isRealTime());
}

void TimeControlBar::togglePlayPause() {
    VirtualClock* clock = m_client.virtualClock();
    if (!clock)
        return;
    if (clock->isPaused())
        clock->play();
    else
        clock->pause();
    refresh();
    emit clockChanged();
}

void TimeControlBar::chooseSpeed(int index) {
    VirtualClock* clock = m_client.virtualClock();
    if (!clock || index < 0)
        return;
    clock->setSpeed(m_speed->itemData(index).toDouble());
    refresh();
    emit clockChanged();
}

void TimeControlBar::jumpBy(Millis delta) {
    if (!m_client.virtualClock() || m_jumping)
        return;
    m_jumping = true;
    refresh();
    m_client.call(
        this, [delta](Broker& broker) { return broker.advanceClock(delta); },
        [this](Result<void> result) {
            m_jumping = false;
            if (!result)
                emit errorOccurred(result.error());
            refresh();
            emit clockChanged();
        });
}

void TimeControlBar::backToRealTime() {
    VirtualClock* clock = m_client.virtualClock();
    if (!clock)
        return;
    clock->resetToRealTime();
    refresh();
    emit clockChanged();
}

} // namespace hourglass::ui
