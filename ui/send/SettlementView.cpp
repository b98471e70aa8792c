#include "send/SettlementView.h"

#include "common/Theme.h"

#include <QPainter>

#include <QDateTime>
#include <QGridLayout>
#include <QLabel>

#include <algorithm>

namespace hourglass::ui {

namespace {

// "10:42:00 UTC", with the date when it is not today on the engine's clock.
QString instantText(Instant at, Instant now) {
    const QDateTime when = QDateTime::fromMSecsSinceEpoch(at, Qt::UTC);
    const QDateTime today = QDateTime::fromMSecsSinceEpoch(now, Qt::UTC);
    return when.toString(when.date() == today.date() ? QStringLiteral("HH:mm:ss 'UTC'")
                                                     : QStringLiteral("yyyy-MM-dd HH:mm:ss 'UTC'"));
}

QString plural(qint64 n, const QString& one, const QString& many) {
    return QStringLiteral("%1 %2").arg(QString::number(n), n == 1 ? one : many);
}

// "sequence number 7" or "sequence numbers 1-100" over the copies that were stored.
QString sequenceText(const QList<SendResult>& results) {
    qint64 first = 0;
    qint64 last = 0;
    for (const SendResult& r : results) {
        if (r.duplicate || r.sequenceNumber <= 0)
            continue;
        first = first == 0 ? r.sequenceNumber : std::min(first, r.sequenceNumber);
        last = std::max(last, r.sequenceNumber);
    }
    if (first == 0)
        return {};
    if (first == last)
        return QStringLiteral("sequence number %1").arg(first);
    return QStringLiteral("sequence numbers %1-%2").arg(first).arg(last);
}

QString summaryOf(const QList<SendResult>& results, std::optional<Instant> scheduledAt,
                  Instant now) {
    const auto duplicates = std::count_if(results.cbegin(), results.cend(),
                                          [](const SendResult& r) { return r.duplicate; });
    const bool scheduled = std::any_of(results.cbegin(), results.cend(),
                                       [](const SendResult& r) { return r.scheduled; });
    const qint64 stored = results.size() - duplicates;
    const QString numbers = sequenceText(results);
    if (results.size() == 1) {
        if (duplicates == 1)
            return QStringLiteral("Accepted as a duplicate and dropped");
        if (scheduled && scheduledAt)
            return QStringLiteral("Scheduled for %1 as %2")
                .arg(instantText(*scheduledAt, now), numbers);
        // A forwarded message has no sequence number on the entity it was sent to.
        return numbers.isEmpty() ? QStringLiteral("Accepted")
                                 : QStringLiteral("Accepted: %1").arg(numbers);
    }
    if (stored == 0)
        return QStringLiteral("All %1 were duplicates and were dropped")
            .arg(plural(results.size(), QStringLiteral("message"), QStringLiteral("messages")));
    QString text =
        scheduled && scheduledAt
            ? QStringLiteral("Scheduled %1 for %2")
                  .arg(plural(stored, QStringLiteral("message"), QStringLiteral("messages")),
                       instantText(*scheduledAt, now))
            : QStringLiteral("Accepted %1")
                  .arg(plural(stored, QStringLiteral("message"), QStringLiteral("messages")));
    if (!numbers.isEmpty())
        text += QStringLiteral(" (%1)").arg(numbers);
    if (duplicates > 0)
        text +=
            QStringLiteral("; %1 dropped")
                .arg(plural(duplicates, QStringLiteral("duplicate"), QStringLiteral("duplicates")));
    return text;
}

QLabel* selectableLabel(const QString& name, QWidget* parent) {
    auto* label = new QLabel(parent);
    label->setObjectName(name);
    label->setWordWrap(true);
    label->setTextFormat(Qt::PlainText);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    return label;
}

} // namespace

SettlementView::SettlementView(QWidget* parent)
    : QWidget(parent)
    , m_summary(selectableLabel(QStringLiteral("sendResultSummary"), this))
    , m_code(selectableLabel(QStringLiteral("sendResultCode"), this))
    , m_description(selectableLabel(QStringLiteral("sendResultDescription"), this))
    , m_trackingId(selectableLabel(QStringLiteral("sendResultTrackingId"), this))
    , m_retry(selectableLabel(QStringLiteral("sendResultRetry"), this)) {
    setObjectName(QStringLiteral("sendResult"));
    QFont bold = m_code->font();
    bold.setBold(true);
    m_code->setFont(bold);
    m_retry->setWordWrap(false);
    m_trackingId->setToolTip(tr("Quote the tracking id when you look for this send in a log"));
    auto* layout = new QGridLayout(this);
    layout->setContentsMargins(10, 6, 10, 6);
    layout->setVerticalSpacing(2);
    layout->addWidget(m_summary, 0, 0, 1, 2);
    layout->addWidget(m_code, 1, 0, 1, 2);
    layout->addWidget(m_description, 2, 0, 1, 2);
    layout->addWidget(m_trackingId, 3, 0);
    layout->addWidget(m_retry, 3, 1, Qt::AlignRight);
    layout->setColumnStretch(0, 1);
    clear();
}

void SettlementView::setTone(Tone tone) {
    m_tone = tone;
    update();
}

QColor SettlementView::background() const {
    // The message bar's soft backgrounds (InlineError's in a dark theme), so that a result reads
    // the same as an error above it. Picked when painting, so a theme switched while the dialog
    // is open applies at once; the labels' text keeps the theme's own colour.
    const bool dark = paletteIsDark();
    switch (m_tone) {
    case Tone::Bad:
        return dark ? QColor(0x5c, 0x25, 0x25) : QColor(0xf8, 0xd7, 0xda);
    case Tone::Good:
        return dark ? QColor(0x1e, 0x46, 0x2a) : QColor(0xdc, 0xf1, 0xdc);
    case Tone::Neutral:
        break;
    }
    return palette().color(QPalette::AlternateBase);
}

void SettlementView::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.fillRect(rect(), background());
}

void SettlementView::clear() {
    setTone(Tone::Neutral);
    m_summary->setText(tr("Not sent yet."));
    for (QLabel* label : {m_code, m_description, m_trackingId, m_retry}) {
        label->clear();
        label->hide();
    }
}

void SettlementView::showProgress(int done, int total) {
    clear();
    m_summary->setText(tr("Sending… %1 of %2").arg(QString::number(done), QString::number(total)));
}

void SettlementView::showAccepted(const QList<SendResult>& results,
                                  std::optional<Instant> scheduledAt, Instant now) {
    clear();
    setTone(Tone::Good);
    m_summary->setText(summaryOf(results, scheduledAt, now));
}

void SettlementView::showError(const Error& error, int sent, int total) {
    clear();
    setTone(Tone::Bad);
    m_summary->setText(total > 1 ? tr("Sent %1 of %2 before the engine refused the rest:")
                                       .arg(QString::number(sent), QString::number(total))
                                 : tr("The engine refused the message:"));
    m_code->setText(errorCodeName(error.code));
    m_description->setText(error.description);
    m_trackingId->setText(tr("Tracking id: %1").arg(error.trackingId));
    m_retry->setText(error.retryable ? tr("Retry may help") : tr("Retrying will not help"));
    for (QLabel* label : {m_code, m_description, m_trackingId, m_retry})
        label->show();
}

void SettlementView::showRefused(const QString& why) {
    clear();
    setTone(Tone::Bad);
    m_summary->setText(tr("Not sent: %1").arg(why));
}

QString SettlementView::text() const {
    QStringList lines;
    for (const QLabel* label : {m_summary, m_code, m_description, m_trackingId, m_retry})
        if (!label->isHidden() && !label->text().isEmpty())
            lines.append(label->text());
    return lines.join(QLatin1Char('\n'));
}

} // namespace hourglass::ui
