// Store's reads of the latest state of a message: the committed row with the changes still in
// the write log (or in the batch being committed) replayed on top. The Broker needs whole
// messages under its mutex (forwarding a dead letter or an activated message, modifying
// properties, copying messages); reading them this way never waits for a disk sync there.
//
// Why replaying is safe while a batch commits concurrently: every logged change sets columns to
// values (none adds to a value), so applying a change that the committed row already holds
// gives the same row. The changes are taken under m_logMutex before the committed row is read,
// so the read sees at least everything that is not among them.
#include "Store.h"

namespace hourglass {

namespace {

using Row = std::optional<StoredMessage>;

// The sequence numbers a message has had, oldest first, given the one it has now: activations
// renumber a scheduled message (L11). Only renumberings still in the log matter; before them the
// committed row has the oldest number.
struct Renumbering {
    qint64 oldSeq;
    qint64 newSeq;
};

// Applies one logged change to `row` when it concerns that row. `row` is the message as known
// so far (empty: not stored, or gone).
void replay(const WriteOp& operation, qint64 entityId, Row& row) {
    std::visit(
        [&](const auto& o) {
            using T = std::decay_t<decltype(o)>;
            if constexpr (std::is_same_v<T, op::InsertMessage>) {
                row = o.row;
                row->hasBody = true;
            } else if constexpr (std::is_same_v<T, op::DeleteEntity>) {
                if (o.id == entityId)
                    row.reset();
            } else if constexpr (std::is_same_v<T, op::DeleteMessage>) {
                if (row && row->subQueue == o.subQueue)
                    row.reset();
            } else if constexpr (std::is_same_v<T, op::SetDeliveryCount>) {
                if (row && row->subQueue == o.subQueue)
                    row->deliveryCount = o.deliveryCount;
            } else if constexpr (std::is_same_v<T, op::SetState>) {
                if (row && row->subQueue == o.subQueue)
                    row->state = o.state;
            } else if constexpr (std::is_same_v<T, op::SetApplicationProperties>) {
                if (row && row->subQueue == o.subQueue) {
                    row->applicationProperties = o.cbor;
                    row->size = o.size;
                }
            } else if constexpr (std::is_same_v<T, op::MoveToDeadLetter>) {
                if (row) {
                    row->subQueue = SubQueue::DeadLetter;
                    row->state = MessageState::Active;
                    row->deadLetterReason = o.reason;
                    row->deadLetterDescription = o.description;
                }
            } else if constexpr (std::is_same_v<T, op::Activate>) {
                if (row && row->subQueue == SubQueue::Main) {
                    row->sequenceNumber = o.newSeq;
                    row->state = MessageState::Active;
                    row->enqueuedAt = o.enqueuedAt;
                    row->expiresAt = o.expiresAt;
                    row->effectiveTimeToLive = o.effectiveTtl;
                }
            }
        },
        operation);
}

// The entity and sequence number a logged change concerns (0 for changes to no message row).
std::pair<qint64, qint64> messageOf(const WriteOp& operation) {
    return std::visit(
        [](const auto& o) -> std::pair<qint64, qint64> {
            using T = std::decay_t<decltype(o)>;
            if constexpr (std::is_same_v<T, op::InsertMessage>)
                return {o.row.entityId, o.row.sequenceNumber};
            else if constexpr (std::is_same_v<T, op::Activate>)
                return {o.entityId, o.oldSeq};
            else if constexpr (std::is_same_v<T, op::DeleteMessage> ||
                               std::is_same_v<T, op::SetDeliveryCount> ||
                               std::is_same_v<T, op::SetState> ||
                               std::is_same_v<T, op::SetApplicationProperties> ||
                               std::is_same_v<T, op::MoveToDeadLetter>)
                return {o.entityId, o.seq};
            else
                return {0, 0};
        },
        operation);
}

} // namespace

Result<std::optional<StoredMessage>> Store::readLatest(qint64 entityId, qint64 seq) {
    auto rows = readLatestMany(entityId, {seq});
    if (!rows)
        return rows.error();
    if (rows->empty())
        return std::optional<StoredMessage>();
    return std::optional<StoredMessage>(std::move(rows->front()));
}

Result<std::vector<StoredMessage>> Store::readLatestMany(qint64 entityId,
                                                         const std::vector<qint64>& seqs) {
    // 1. Under the log's lock, copy the changes that concern the entity's messages, oldest
    //    first, and note renumberings. Only this entity's rows are copied, bodies included only
    //    for the messages asked for.
    std::vector<WriteOp> changes;
    std::vector<Renumbering> renumberings;
    {
        std::lock_guard lock(m_logMutex);
        for (const std::vector<WriteOp>* log : {&m_inflight, &m_log}) {
            for (const WriteOp& operation : *log) {
                if (const auto* dropped = std::get_if<op::DeleteEntity>(&operation)) {
                    if (dropped->id == entityId)
                        changes.push_back(operation);
                    continue;
                }
                const auto [entity, rowSeq] = messageOf(operation);
                if (entity != entityId)
                    continue;
                if (const auto* activated = std::get_if<op::Activate>(&operation))
                    renumberings.push_back({activated->oldSeq, activated->newSeq});
                changes.push_back(operation);
            }
        }
    }

    // 2. Read each committed row, in one read transaction, under the numbers the message may
    //    have there (a concurrent commit may already have renumbered it): the newest first,
    //    then back along the renumberings. Then replay the changes in order on it.
    std::vector<StoredMessage> out;
    out.reserve(seqs.size());
    std::lock_guard lock(m_readMutex);
    const bool transaction = seqs.size() > 1 && m_read.exec("BEGIN").isEmpty();
    QString failure;
    for (qint64 seq : seqs) {
        std::vector<qint64> numbers{seq}; // newest first
        for (auto it = renumberings.rbegin(); it != renumberings.rend(); ++it) {
            if (it->newSeq == numbers.back())
                numbers.push_back(it->oldSeq);
        }
        Row row;
        for (qint64 number : numbers) {
            for (SubQueue subQueue : {SubQueue::Main, SubQueue::DeadLetter}) {
                auto read = readOneHeld(entityId, subQueue, number, true);
                if (!read)
                    failure = read.error().description;
                else if (*read)
                    row = std::move(*read);
                if (row || !failure.isEmpty())
                    break;
            }
            if (row || !failure.isEmpty())
                break;
        }
        if (!failure.isEmpty())
            break;
        for (const WriteOp& operation : changes) {
            // Follow the message by the number it has at this point of the log.
            const qint64 current = row ? row->sequenceNumber : numbers.back();
            if (std::holds_alternative<op::DeleteEntity>(operation) ||
                messageOf(operation).second == current)
                replay(operation, entityId, row);
        }
        if (row && row->sequenceNumber == seq)
            out.push_back(std::move(*row));
    }
    if (transaction)
        m_read.exec("COMMIT");
    if (!failure.isEmpty())
        return makeError(ErrorCode::GeneralError,
                         QStringLiteral("cannot read a message: %1").arg(failure));
    return out;
}

} // namespace hourglass
