#pragma once
// A line for the Charts tab's and presentation mode's headers on an entity that requires
// sessions (S1): how many sessions hold messages and how many of them a receiver has locked,
// "Sessions: 3 with messages · 1 locked". Hidden for every other entity, so plain queues and
// subscriptions look as before. The Sessions tab's model (sessions/SessionListModel.h) reads
// the sessions: off the GUI thread, one read at a time (coalesced), again whenever the change
// feed names the entity (sessionsChanged for session locks and states, the counts and message
// changes for the messages); the line counts its rows.
//
// Threads: GUI thread only.

#include <QLabel>

namespace hourglass::ui {

class BrokerClient;
class SessionListModel;

class SessionSummary : public QLabel {
    Q_OBJECT
public:
    // What one read found; sessionful is false for an entity without sessions (or none).
    struct Counts {
        bool sessionful = false;
        qint64 withMessages = 0; // sessions holding an active, deferred or scheduled message
        qint64 locked = 0;       // sessions whose lock a receiver holds (S2)
        bool capped = false;     // more sessions than one read lists: the counts are "at least"
        bool operator==(const Counts&) const = default;
    };
    // How many sessions one read lists at most; an entity with more says "10000+".
    static constexpr int kMaxSessions = 10000;

    explicit SessionSummary(BrokerClient& client, QWidget* parent = nullptr);

    // The entity to summarise ("ns:queue", "ns:topic/Subscriptions/s"); empty hides the line.
    void setPath(const QString& qualifiedPath);
    Counts counts() const { return m_counts; }
    // The sessions counted: the Sessions tab's model, listing up to kMaxSessions.
    const SessionListModel& sessions() const { return *m_sessions; }
    // The words for some counts (empty when not sessionful).
    static QString textFor(const Counts& counts);

signals:
    // After each read: counts() and the text may have changed.
    void refreshed();

private:
    void count();

    SessionListModel* m_sessions;
    Counts m_counts;
};

} // namespace hourglass::ui
