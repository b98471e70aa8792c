#include "common/MessagePaging.h"

#include <algorithm>
#include <limits>

namespace hourglass::ui {

Result<QList<MessageView>> readMessagesForward(const Broker& broker, const QString& path,
                                               qint64 fromSequenceNumber, int count,
                                               Broker::Bodies bodies) {
    QList<MessageView> out;
    qint64 next = std::max<qint64>(fromSequenceNumber, 0);
    while (out.size() < count) {
        auto rows = broker.listMessages(path, next, int(count - out.size()), bodies);
        if (!rows)
            return rows.error();
        const qsizetype before = out.size();
        for (MessageView& row : *rows) {
            if (row.sequenceNumber < next || out.size() >= count)
                continue; // out of order, already read, or more than asked for
            next = row.sequenceNumber + 1;
            out.append(std::move(row));
        }
        if (out.size() == before)
            break; // nothing new: the end
    }
    return out;
}

Result<qint64> listedMessageCount(const Broker& broker, const QString& path) {
    if (broker.capabilities().hostsDatabase) {
        auto index = broker.sequenceIndex(path, std::numeric_limits<int>::max());
        if (!index)
            return index.error();
        return index->total;
    }
    auto counts = broker.counts(path);
    if (!counts)
        return counts.error();
    return counts->active + counts->scheduled + counts->deferred + counts->locked;
}

} // namespace hourglass::ui
