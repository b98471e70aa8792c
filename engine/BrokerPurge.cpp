// EmbeddedBroker::purge (Broker.h): one step of a purge, as Service Bus's batch delete takes it.
// The messages are chosen by the explorer's read (their enqueued time lives in the store, not in
// the index) and deleted by deleteMessages, one durable step; a message that went in between
// (received, expired) makes that step refuse, and the choice is made again.
#include "EmbeddedBroker.h"

namespace hourglass {

namespace {
// How many messages one read of the choice looks at.
constexpr int kChoosePage = 1000;
// How often a choice is made again when a chosen message went before the delete.
constexpr int kChooseAttempts = 3;

bool purgeable(const MessageView& message, const PurgeOptions& options) {
    if (message.state == MessageState::Scheduled || message.locked)
        return false;
    if (message.enqueuedTime >= options.enqueuedBefore)
        return false;
    return !options.sessionId || message.sessionId == *options.sessionId;
}
} // namespace

Result<qint64> EmbeddedBroker::purge(const QString& path, const PurgeOptions& options) {
    if (options.maxCount < 1 || options.maxCount > kMaxPurgeCount)
        return makeError(ErrorCode::InvalidArgument,
                         QStringLiteral("A purge deletes from 1 to %1 messages at a time; %2 were "
                                        "asked for.")
                             .arg(kMaxPurgeCount)
                             .arg(options.maxCount));
    for (int attempt = 1;; ++attempt) {
        QList<qint64> chosen;
        qint64 from = 0;
        while (chosen.size() < options.maxCount) {
            const auto page = listMessages(path, from, kChoosePage, Bodies::Without);
            if (!page)
                return page.error();
            for (const MessageView& message : *page) {
                if (purgeable(message, options))
                    chosen.append(message.sequenceNumber);
                if (chosen.size() == options.maxCount)
                    break;
            }
            if (page->size() < kChoosePage)
                break;
            from = page->last().sequenceNumber + 1;
        }
        if (chosen.isEmpty())
            return 0;
        const auto deleted = deleteMessages(path, chosen);
        if (deleted)
            return qint64(chosen.size());
        if (deleted.error().code != ErrorCode::MessageNotFound || attempt == kChooseAttempts)
            return deleted.error();
    }
}

} // namespace hourglass
