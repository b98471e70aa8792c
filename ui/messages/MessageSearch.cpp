#include "messages/MessageSearch.h"

#include "common/BrokerClient.h"
#include "common/MessagePaging.h"
#include "hourglass/EntityPath.h"

#include <optional>

namespace hourglass::ui {

// What one background call read: the matches of one chunk, and where the next one starts.
struct MessageSearch::Chunk {
    std::optional<Error> error;
    QList<MessageView> matches;
    int read = 0;
    qint64 nextSequenceNumber = 0;
    bool last = false;
    // The first chunk also reads the path's size and its entity's lock duration.
    std::optional<qint64> total;
    Millis lockDuration = 0;
};

MessageSearch::MessageSearch(BrokerClient& client, QObject* parent)
    : QObject(parent)
    , m_client(client) {}

void MessageSearch::start(const QString& qualifiedPath, const MessageMatcher& matcher) {
    ++m_generation;
    m_path = qualifiedPath;
    m_matcher = matcher;
    m_scanned = 0;
    m_total = 0;
    m_matchCount = 0;
    m_lockDuration = 0;
    m_running = !m_path.isEmpty();
    if (m_running)
        readChunk(0, true);
}

void MessageSearch::cancel() {
    ++m_generation;
    m_running = false;
}

void MessageSearch::readChunk(qint64 fromSequenceNumber, bool first) {
    const Broker::Bodies bodies =
        m_matcher.searchesBodies() ? Broker::Bodies::With : Broker::Bodies::Without;
    const int wanted = m_cap - m_matchCount;
    m_client.call(
        this,
        [path = m_path, matcher = m_matcher, chunkSize = m_chunkSize, bodies, wanted,
         fromSequenceNumber, first](Broker& broker) {
            Chunk chunk;
            if (first) {
                auto total = listedMessageCount(broker, path);
                if (!total) {
                    chunk.error = total.error();
                    return chunk;
                }
                chunk.total = *total;
                const QString entity = EntityPath::of(path).owner().toString();
                if (auto info = broker.entity(entity))
                    chunk.lockDuration = info->properties.lockDuration;
            }
            auto rows = readMessagesForward(broker, path, fromSequenceNumber, chunkSize, bodies);
            if (!rows) {
                chunk.error = rows.error();
                return chunk;
            }
            chunk.read = int(rows->size());
            chunk.last = rows->size() < chunkSize;
            if (!rows->isEmpty())
                chunk.nextSequenceNumber = rows->last().sequenceNumber + 1;
            for (MessageView& row : *rows) {
                if (chunk.matches.size() >= wanted)
                    break;
                if (!matcher.matches(row))
                    continue;
                // The list holds no bodies: the detail panel reads the one it shows.
                row.body.clear();
                row.hasBody = false;
                chunk.matches.append(std::move(row));
            }
            return chunk;
        },
        [this, generation = m_generation](Chunk chunk) {
            if (generation == m_generation)
                applyChunk(std::move(chunk));
        });
}

void MessageSearch::applyChunk(Chunk chunk) {
    if (chunk.error) {
        m_running = false;
        emit failed(*chunk.error);
        return;
    }
    if (chunk.total) {
        m_total = *chunk.total;
        m_lockDuration = chunk.lockDuration;
    }
    m_scanned += chunk.read;
    // Messages sent during the scan may be read too: the total grows with them.
    m_total = qMax(m_total, m_scanned);
    m_matchCount += int(chunk.matches.size());
    const bool capped = m_matchCount >= m_cap;
    const bool done = capped || chunk.last;
    const quint64 generation = m_generation;
    if (!chunk.matches.isEmpty())
        emit matchesFound(chunk.matches);
    if (generation != m_generation)
        return; // a slot started another search
    if (chunk.last)
        m_total = m_scanned; // messages may also have left during the scan
    // The chunk after a full last one reads nothing: no news to report then.
    if (chunk.read > 0 || chunk.total) {
        emit progress(m_scanned, m_total);
        if (generation != m_generation)
            return;
    }
    if (done) {
        m_running = false;
        emit finished(capped ? Outcome::Capped : Outcome::Complete);
        return;
    }
    readChunk(chunk.nextSequenceNumber, false);
}

} // namespace hourglass::ui
