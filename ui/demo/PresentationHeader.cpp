#include "demo/PresentationHeader.h"

#include "common/BrokerClient.h"
#include "demo/SessionSummary.h"
#include "demo/TimeControlBar.h"

#include <QDateTime>
#include <QGridLayout>
#include <QLabel>
#include <QTimer>

namespace hourglass::ui {

namespace {
constexpr int kRefreshMs = 250; // the seconds digit never lags visibly
constexpr double kTitleScale = 2.0;
constexpr double kClockScale = 2.2;
constexpr double kCaptionScale = 1.15;

// The badge carries its own background and white text, so it reads on light and dark palettes:
// red for a stopped clock, amber for a moving but unreal one, green for live (as the toolbar).
const QString kBadgeStyle = QStringLiteral("QLabel { background-color: %1; color: white; "
                                           "border-radius: 6px; padding: 4px 14px; }");

QFont scaled(QFont font, double scale, bool bold) {
    font.setPointSizeF(font.pointSizeF() * scale);
    font.setBold(bold);
    return font;
}
} // namespace

PresentationHeader::PresentationHeader(BrokerClient& client, QWidget* parent)
    : QWidget(parent)
    , m_client(client)
    , m_title(new QLabel(this))
    , m_kind(new QLabel(this))
    , m_sessions(new SessionSummary(client, this))
    , m_caption(new QLabel(this))
    , m_clock(new QLabel(this))
    , m_date(new QLabel(this))
    , m_mode(new QLabel(this))
    , m_timer(new QTimer(this)) {
    m_title->setObjectName(QStringLiteral("presentationTitle"));
    m_title->setTextFormat(Qt::PlainText);
    m_title->setFont(scaled(font(), kTitleScale, true));
    m_kind->setObjectName(QStringLiteral("presentationKind"));
    m_kind->setTextFormat(Qt::PlainText);
    m_sessions->setObjectName(QStringLiteral("presentationSessions"));
    m_sessions->setFont(scaled(font(), kCaptionScale, false));
    m_caption->setObjectName(QStringLiteral("presentationCaption"));
    m_caption->setTextFormat(Qt::PlainText);
    m_caption->setWordWrap(true);
    m_caption->setFont(scaled(font(), kCaptionScale, false));
    m_caption->hide();

    m_clock->setObjectName(QStringLiteral("presentationClock"));
    const QFont clockFont = scaled(font(), kClockScale, true);
    m_clock->setFont(clockFont);
    m_clock->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    // Wide enough for any time, so the digits do not shift as proportional figures change.
    m_clock->setMinimumWidth(QFontMetrics(clockFont).horizontalAdvance(QStringLiteral("00:00:00")) +
                             8);
    m_date->setObjectName(QStringLiteral("presentationClockDate"));
    m_mode->setObjectName(QStringLiteral("presentationClockMode"));
    m_mode->setFont(scaled(font(), 0.8, true));

    auto* grid = new QGridLayout(this);
    grid->setContentsMargins(0, 0, 0, 0);
    grid->setHorizontalSpacing(32);
    grid->setVerticalSpacing(4);
    grid->addWidget(m_title, 0, 0);
    grid->addWidget(m_kind, 1, 0);
    grid->addWidget(m_sessions, 2, 0);
    grid->addWidget(m_caption, 3, 0, 1, 2);
    grid->addWidget(m_clock, 0, 1, Qt::AlignRight);
    auto* badgeRow = new QHBoxLayout;
    badgeRow->setSpacing(16);
    badgeRow->addStretch(1);
    badgeRow->addWidget(m_date);
    badgeRow->addWidget(m_mode);
    grid->addLayout(badgeRow, 1, 1);
    grid->setColumnStretch(0, 1);

    connect(m_timer, &QTimer::timeout, this, &PresentationHeader::refreshClock);
    m_timer->start(kRefreshMs);
    refreshClock();
}

void PresentationHeader::setTitle(const QString& title, const QString& kind) {
    m_title->setText(title);
    m_kind->setText(kind);
}

void PresentationHeader::setSessionsPath(const QString& qualifiedPath) {
    m_sessions->setPath(qualifiedPath);
}

void PresentationHeader::setCaption(const QString& text) {
    m_caption->setText(text);
    m_caption->setVisible(!text.isEmpty());
}

void PresentationHeader::setClockBadge(const QString& badge) {
    m_badge = badge;
    refreshClock();
}

void PresentationHeader::refreshClock() {
    const Instant now = m_client.clock().now();
    const QDateTime local = QDateTime::fromMSecsSinceEpoch(now);
    const QString time = local.toString(QStringLiteral("HH:mm:ss"));
    if (m_clock->text() != time)
        m_clock->setText(time);
    const QString date = QLocale().toString(local.date(), QLocale::ShortFormat);
    if (m_date->text() != date)
        m_date->setText(date);

    // A system clock is real time by definition.
    const VirtualClock* clock = m_client.virtualClock();
    const bool realTime = !clock || clock->isRealTime();
    const bool paused = clock && clock->isPaused();
    const QString mode = !m_badge.isEmpty()
                             ? m_badge
                             : clockModeText(realTime, paused, clock ? clock->speed() : 1.0,
                                             now - VirtualClock::realNow());
    if (m_mode->text() != mode)
        m_mode->setText(mode);
    const QString style = kBadgeStyle.arg(!m_badge.isEmpty() ? QStringLiteral("#b45309")
                                          : realTime         ? QStringLiteral("#2e7d32")
                                          : paused           ? QStringLiteral("#c62828")
                                                             : QStringLiteral("#b45309"));
    if (m_mode->styleSheet() != style)
        m_mode->setStyleSheet(style);
}

} // namespace hourglass::ui
