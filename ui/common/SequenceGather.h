#pragma once
// Every sequence number of a path, read in the background: what select all, purge and the
// dead-letter panel's "every message" act on. A hosted namespace answers in one call from its
// index (Broker::sequenceIndex with stride 1); a remote one is read page by page forward through
// peek (readMessagesForward), one BrokerClient call a page, reporting progress between pages so
// that a long read can be followed and cancelled. Messages that arrive during the read and sort
// after where it is are read too; the read ends at the first page that brings nothing.
//
// Threads: GUI thread only; signals and the callback arrive there.

#include "hourglass/Status.h"

#include <QList>
#include <QObject>
#include <QString>

#include <functional>

namespace hourglass::ui {

class BrokerClient;

class SequenceGather : public QObject {
    Q_OBJECT
public:
    static constexpr int kPageSize = 500;
    using Done = std::function<void(Result<QList<qint64>>)>;

    // Starts reading `path`; `done` runs once with every sequence number in order, or the error
    // that stopped the read, unless cancel() came first or `context` (the gather's parent) is
    // gone. The gather deletes itself once it has ended.
    static SequenceGather* start(BrokerClient& client, QObject* context, const QString& path,
                                 Done done);

    // Stops before the next page: `done` is not called, and the gather deletes itself.
    void cancel();
    QString path() const { return m_path; }
    // How many numbers are read so far, and how many the path held when the read started.
    qint64 read() const { return m_read.size(); }
    qint64 expected() const { return m_expected; }

signals:
    void progress(qint64 read, qint64 expected);

private:
    SequenceGather(BrokerClient& client, QObject* context, const QString& path, Done done);
    void readIndex();
    void readPage(qint64 fromSequenceNumber, bool first);
    void finish(Result<QList<qint64>> result);

    BrokerClient& m_client;
    QString m_path;
    Done m_done;
    QList<qint64> m_read;
    qint64 m_expected = 0;
    bool m_cancelled = false;
};

} // namespace hourglass::ui
