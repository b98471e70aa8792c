#include "StoreSnapshot.h"

namespace hourglass::durability {

namespace {
constexpr int kPageSize = 250;
}

StoreSnapshot StoreSnapshot::read(const Broker& broker, const QString& path) {
    StoreSnapshot snapshot;
    qint64 from = 0;
    for (;;) {
        const auto page = broker.listMessages(path, from, kPageSize, Broker::Bodies::With);
        if (!page) {
            snapshot.problem = QStringLiteral("listMessages(%1, %2) failed: %3")
                                   .arg(path)
                                   .arg(from)
                                   .arg(page.error().toString());
            return snapshot;
        }
        if (page->isEmpty())
            return snapshot;
        for (const auto& message : *page) {
            // Strictly increasing also guarantees that the paging loop ends.
            if (message.sequenceNumber <= snapshot.maxSequenceNumber ||
                message.sequenceNumber < from) {
                snapshot.problem = QStringLiteral("sequence number %1 (%2) listed after %3")
                                       .arg(message.sequenceNumber)
                                       .arg(message.messageId)
                                       .arg(snapshot.maxSequenceNumber);
                return snapshot;
            }
            if (snapshot.byId.contains(message.messageId)) {
                snapshot.problem =
                    QStringLiteral("message id %1 stored twice").arg(message.messageId);
                return snapshot;
            }
            snapshot.maxSequenceNumber = message.sequenceNumber;
            snapshot.byId.insert(message.messageId, message);
        }
        from = snapshot.maxSequenceNumber + 1;
    }
}

} // namespace hourglass::durability
