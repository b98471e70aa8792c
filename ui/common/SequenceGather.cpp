#include "common/SequenceGather.h"

#include "common/BrokerClient.h"
#include "common/MessagePaging.h"

#include <algorithm>
#include <optional>

namespace hourglass::ui {

namespace {
// What one page read brought back.
struct Page {
    std::optional<Error> error;
    QList<qint64> sequenceNumbers;
    std::optional<qint64> expected; // the first page also reads the path's size
};
} // namespace

SequenceGather* SequenceGather::start(BrokerClient& client, QObject* context, const QString& path,
                                      Done done) {
    auto* gather = new SequenceGather(client, context, path, std::move(done));
    if (client.capabilities().hostsDatabase)
        gather->readIndex();
    else
        gather->readPage(0, true);
    return gather;
}

SequenceGather::SequenceGather(BrokerClient& client, QObject* context, const QString& path,
                               Done done)
    : QObject(context)
    , m_client(client)
    , m_path(path)
    , m_done(std::move(done)) {}

void SequenceGather::cancel() {
    if (m_cancelled)
        return;
    m_cancelled = true;
    deleteLater(); // a page still being read comes back to nobody (its context is gone)
}

void SequenceGather::readIndex() {
    m_client.call(
        this, [path = m_path](Broker& broker) { return broker.sequenceIndex(path, 1); },
        [this](Result<Broker::SequenceIndex> index) {
            if (!index)
                return finish(index.error());
            m_expected = index->total;
            finish(std::move(index->anchors));
        });
}

void SequenceGather::readPage(qint64 fromSequenceNumber, bool first) {
    m_client.call(
        this,
        [path = m_path, fromSequenceNumber, first](Broker& broker) {
            Page page;
            if (first) {
                auto expected = listedMessageCount(broker, path);
                if (!expected) {
                    page.error = expected.error();
                    return page;
                }
                page.expected = *expected;
            }
            auto rows = readMessagesForward(broker, path, fromSequenceNumber, kPageSize);
            if (!rows) {
                page.error = rows.error();
                return page;
            }
            for (const MessageView& row : *rows)
                page.sequenceNumbers.append(row.sequenceNumber);
            return page;
        },
        [this](Page page) {
            if (m_cancelled)
                return;
            if (page.error)
                return finish(*page.error);
            if (page.expected)
                m_expected = *page.expected;
            m_read.append(page.sequenceNumbers);
            // Messages sent during the read may be read too: the expected count grows with them.
            m_expected = std::max<qint64>(m_expected, m_read.size());
            emit progress(m_read.size(), m_expected);
            if (m_cancelled)
                return; // a slot cancelled
            if (page.sequenceNumbers.size() < kPageSize)
                return finish(m_read);
            readPage(m_read.last() + 1, false);
        });
}

void SequenceGather::finish(Result<QList<qint64>> result) {
    if (m_cancelled)
        return;
    m_cancelled = true; // ended: nothing more from this gather
    deleteLater();
    if (m_done)
        m_done(std::move(result));
}

} // namespace hourglass::ui
