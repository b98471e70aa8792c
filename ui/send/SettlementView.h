#pragma once
// How the engine settled a send (service-bus-rules.md L1), shown inside the send dialog: accepted
// with its sequence number, scheduled (L11), dropped as a duplicate (L13), or the error with its
// code, description, a selectable tracking id and whether a retry can help. Also shows input the
// dialog refused before calling the engine, and the progress of a send of many copies.
//
// Object names for tests: "sendResult" (this widget), "sendResultSummary", "sendResultCode",
// "sendResultDescription", "sendResultTrackingId", "sendResultRetry".

#include "hourglass/Broker.h"
#include "hourglass/Status.h"

#include <QList>
#include <QWidget>

#include <optional>

class QLabel;

namespace hourglass::ui {

class SettlementView : public QWidget {
    Q_OBJECT
public:
    explicit SettlementView(QWidget* parent = nullptr);

    // Nothing to say yet.
    void clear();
    // "Sending 500 of 1,000…"
    void showProgress(int done, int total);
    // Every copy accepted. `scheduledAt` is the instant the copies were scheduled for (if they
    // were); `now` is the engine's clock, to decide whether the date is worth showing.
    void showAccepted(const QList<SendResult>& results, std::optional<Instant> scheduledAt,
                      Instant now);
    // The engine refused a send; `sent` copies of `total` were accepted before it.
    void showError(const Error& error, int sent = 0, int total = 1);
    // Bad input caught before any call: nothing was sent.
    void showRefused(const QString& why);

    // The visible texts, one per line (tests, copying).
    QString text() const;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    enum class Tone { Neutral, Good, Bad };
    void setTone(Tone tone);
    // The strip's colour for its tone in the theme in force.
    QColor background() const;

    Tone m_tone = Tone::Neutral;

    QLabel* m_summary;
    QLabel* m_code;
    QLabel* m_description;
    QLabel* m_trackingId;
    QLabel* m_retry;
};

} // namespace hourglass::ui
