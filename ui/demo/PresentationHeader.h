#pragma once
// The top of the presentation view: the entity's name in large letters with its kind under it,
// an optional caption line (the scenario step being played), and on the right the engine clock
// in large digits with the same mode badge as the time toolbar ("LIVE", "PAUSED · +5m AHEAD",
// "60× SPEED"; clockModeText), so the room always knows whether time is real.
//
// Under the kind, on an entity that requires sessions, how many sessions hold messages and how
// many are locked (SessionSummary, kept live by the change feed).
//
// Object names: "presentationTitle", "presentationKind", "presentationSessions",
// "presentationCaption",
// "presentationClock", "presentationClockDate", "presentationClockMode".

#include <QWidget>

class QLabel;
class QTimer;

namespace hourglass::ui {

class BrokerClient;
class SessionSummary;

class PresentationHeader : public QWidget {
    Q_OBJECT
public:
    explicit PresentationHeader(BrokerClient& client, QWidget* parent = nullptr);

    void setTitle(const QString& title, const QString& kind);
    // The entity whose sessions the header counts; empty (or one without sessions) hides the
    // line.
    void setSessionsPath(const QString& qualifiedPath);
    SessionSummary* sessions() const { return m_sessions; }
    // Empty hides the caption line.
    void setCaption(const QString& text);
    // Rereads the engine clock (a timer does it a few times a second).
    void refreshClock();
    // While a scenario drives the clock, the badge says so ("SCENARIO · 60×", as the toolbar);
    // empty goes back to the clock's own mode.
    void setClockBadge(const QString& badge);

private:
    BrokerClient& m_client;
    QLabel* m_title;
    QLabel* m_kind;
    SessionSummary* m_sessions;
    QLabel* m_caption;
    QLabel* m_clock;
    QLabel* m_date;
    QLabel* m_mode;
    QTimer* m_timer;
    QString m_badge;
};

} // namespace hourglass::ui
