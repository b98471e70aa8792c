#pragma once
// The chart histories of one open database, by entity path, shared by every view that charts an
// entity (the Charts tab, presentation mode): switching to another entity and back, or opening
// presentation mode, shows the history already gathered instead of starting again.
//
// Lifetime: one instance per BrokerClient, created on first use as the client's child (of()). The
// window makes a new client for every database it opens, so a new database starts with no
// history, and the histories go when their database closes.
//
// Sampling: an entity once charted keeps being sampled while it is off screen, so that coming
// back to it shows what happened meanwhile (the point of keeping it). A real-time timer looks at
// the engine's (possibly virtual) clock a few times a second; when a kept history is due (one
// sampling interval of ENGINE time since its last sample, or the clock went back), one
// background job reads the counts and flow of every kept entity, each next to the engine instant
// of its read. At most one job is in flight. So a paused clock reads nothing, a jump of the clock
// gives one sample at the new instant (no made-up points in between), and at high speed the
// samples come at most as often as the timer looks (their engine spacing grows with the speed).
//
// Bounds: the kKept most recently viewed entities keep their histories; viewing one more drops
// the least recently viewed that no view shows. A deleted entity's history is dropped at once (a
// new entity of the same name starts again), and so is one that turns out not to exist while
// nobody shows it.
//
// Threads: GUI thread only; the engine is read through the client, off the GUI thread.

#include "hourglass/Time.h"

#include <QHash>
#include <QList>
#include <QObject>
#include <QString>
#include <QStringList>
#include <QTimer>

namespace hourglass {
struct ChangeBatch;
}

namespace hourglass::ui {

class BrokerClient;
class CountsHistory;

class ChartHistories : public QObject {
    Q_OBJECT
public:
    // How many entities keep their histories.
    static constexpr int kKept = 32;
    // Engine milliseconds between two samples of an entity.
    static constexpr Millis kInterval = 1000;

    // The histories of this client's database (made on first use).
    static ChartHistories& of(BrokerClient& client);

    // `viewer` (a panel) now shows `path` ("ns:orders"; empty: nothing): returns its history,
    // made and read at once when new, and keeps it while the viewer shows it. The viewer's
    // previous entity becomes an ordinary kept one. Null for an empty path.
    CountsHistory* show(QObject* viewer, const QString& path);
    // The kept history of `path`, or null.
    CountsHistory* find(const QString& path) const;
    // The kept entities, the most recently viewed first.
    QStringList paths() const;

private:
    explicit ChartHistories(BrokerClient& client);

    void poll();
    void drop(const QString& path);
    // Drops the least recently viewed histories that nobody shows, down to kKept.
    void trim();
    bool isShown(const QString& path) const;
    void onChanged(const hourglass::ChangeBatch& batch);

    BrokerClient& m_client;
    QTimer m_timer;
    QList<CountsHistory*> m_recent;     // the most recently viewed first; children of this
    QHash<QObject*, QString> m_viewers; // what each view shows
    bool m_inFlight = false;
    bool m_pollAgain = false; // a new history wants its first sample when the job is back
};

} // namespace hourglass::ui
