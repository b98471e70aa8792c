#pragma once
// Scans every message of a path for the ones a MessageMatcher accepts, in the background: a list
// may hold a million messages, so the scan reads them in chunks (one BrokerClient call each, in
// sequence order, bodies only when the matcher searches them; common/MessagePaging, so that a
// remote namespace's peek reads the same), matches on the worker thread and
// hands only the matches back, without their bodies. Between chunks it reports progress and
// stops once it holds `cap` matches.
//
// Every reply carries the generation it was asked under: start() and cancel() bump it, so the
// replies of a search that was replaced (new text, new path) are dropped.
//
// Threads: GUI thread only; signals arrive there.

#include "hourglass/Message.h"
#include "hourglass/Status.h"
#include "messages/MessageMatcher.h"

#include <QList>
#include <QObject>
#include <QString>

namespace hourglass::ui {

class BrokerClient;

class MessageSearch : public QObject {
    Q_OBJECT
public:
    static constexpr int kDefaultChunkSize = 5000;
    static constexpr int kDefaultCap = 10000;
    enum class Outcome { Complete, Capped };

    explicit MessageSearch(BrokerClient& client, QObject* parent = nullptr);

    // Rows read per broker call, and how many matches end the search. Take effect at start().
    void setChunkSize(int rows) { m_chunkSize = qMax(1, rows); }
    void setCap(int matches) { m_cap = qMax(1, matches); }
    int chunkSize() const { return m_chunkSize; }
    int cap() const { return m_cap; }

    // Drops any search running and starts scanning `qualifiedPath` with `matcher`.
    void start(const QString& qualifiedPath, const MessageMatcher& matcher);
    // Drops the running search: no further signal comes from it.
    void cancel();

    bool isRunning() const { return m_running; }
    QString path() const { return m_path; }
    MessageMatcher matcher() const { return m_matcher; }
    // Messages read so far, and how many the path held when the search started.
    qint64 scanned() const { return m_scanned; }
    qint64 total() const { return m_total; }
    int matchCount() const { return m_matchCount; }
    // The entity's lock duration (what a full lock bar stands for), read at start.
    Millis lockDuration() const { return m_lockDuration; }

signals:
    // More matches, in sequence order, without bodies.
    void matchesFound(const QList<hourglass::MessageView>& matches);
    void progress(qint64 scanned, qint64 total);
    void finished(hourglass::ui::MessageSearch::Outcome outcome);
    void failed(const hourglass::Error& error);

private:
    struct Chunk;
    void readChunk(qint64 fromSequenceNumber, bool first);
    void applyChunk(Chunk chunk);

    BrokerClient& m_client;
    int m_chunkSize = kDefaultChunkSize;
    int m_cap = kDefaultCap;
    quint64 m_generation = 0;
    bool m_running = false;
    QString m_path;
    MessageMatcher m_matcher;
    qint64 m_scanned = 0;
    qint64 m_total = 0;
    int m_matchCount = 0;
    Millis m_lockDuration = 0;
};

} // namespace hourglass::ui
