// Store's write side: preparing the write statements and applying each logged operation.
#include "Store.h"

#include "StoreSchema.h"
#include "StoreWriteStatements.h"

namespace hourglass {

Result<void> Store::prepareWriteStatements() {
    m_ws = std::make_unique<WriteStatements>();
    auto& w = *m_ws;
    sqlite3* db = m_write.handle();
    const std::pair<SqliteStatement*, const char*> statements[] = {
        {&w.insertMessage, schema::kInsertMessage},
        {&w.insertBody, schema::kInsertBody},
        {&w.deleteMessage, "DELETE FROM messages WHERE entity_id=?1 AND sub_queue=?2 AND seq=?3"},
        {&w.deleteBody, "DELETE FROM bodies WHERE key=?1"},
        {&w.setDeliveryCount, "UPDATE messages SET delivery_count=?4, delivery_record=?5 WHERE "
                              "entity_id=?1 AND sub_queue=?2 AND seq=?3"},
        {&w.setState,
         "UPDATE messages SET state=?4 WHERE entity_id=?1 AND sub_queue=?2 AND seq=?3"},
        {&w.setProperties, "UPDATE messages SET app_properties=?4, size=?5 WHERE entity_id=?1 "
                           "AND sub_queue=?2 AND seq=?3"},
        {&w.moveToDeadLetter, "UPDATE messages SET sub_queue=1, state=0, dl_reason=?3, "
                              "dl_description=?4 WHERE entity_id=?1 AND seq=?2"},
        {&w.activateMessage, "UPDATE messages SET seq=?3, state=0, enqueued_at=?4, "
                             "expires_at=?5, effective_ttl=?6 WHERE entity_id=?1 AND "
                             "sub_queue=0 AND seq=?2"},
        {&w.activateBody, "UPDATE bodies SET key=?2 WHERE key=?1"},
        {&w.upsertNamespace, "INSERT INTO namespaces(name, tier, ordinal) VALUES(?1, ?2, ?3) "
                             "ON CONFLICT(name) DO UPDATE SET tier=excluded.tier"},
        {&w.deleteNamespace, "DELETE FROM namespaces WHERE name=?1"},
        {&w.insertEntity, "INSERT INTO entities(id, namespace, path, path_key, kind, properties, "
                          "rules, created_at, updated_at, last_activity, next_seq) "
                          "VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)"},
        {&w.updateEntity, "UPDATE entities SET properties=?2, rules=?3, updated_at=?4 WHERE id=?1"},
        {&w.deleteEntityMessages, "DELETE FROM messages WHERE entity_id=?1"},
        {&w.deleteEntityBodies, "DELETE FROM bodies WHERE key>=?1 AND key<?2"},
        {&w.deleteEntityIds, "DELETE FROM duplicates WHERE entity_id=?1"},
        {&w.deleteEntityDeliveries, "DELETE FROM deliveries WHERE entity_id=?1"},
        {&w.deleteEntity, "DELETE FROM entities WHERE id=?1"},
        {&w.progress, "UPDATE entities SET next_seq=?2, last_activity=?3 WHERE id=?1"},
        {&w.rememberId,
         "INSERT OR REPLACE INTO duplicates(entity_id, message_id, seen_at) VALUES(?1, ?2, ?3)"},
        {&w.forgetIds, "DELETE FROM duplicates WHERE entity_id=?1 AND seen_at<?2"},
        {&w.recordDeliveries,
         "INSERT INTO deliveries(id, entity_id, sub_queue, seqs) VALUES(?1, ?2, ?3, ?4)"},
        {&w.forgetDeliveries, "DELETE FROM deliveries WHERE id=?1"},
        {&w.begin, "BEGIN IMMEDIATE"},
        {&w.commit, "COMMIT"},
        {&w.rollback, "ROLLBACK"},
    };
    for (const auto& [statement, sql] : statements) {
        const QString failed = statement->prepare(db, sql);
        if (!failed.isEmpty())
            return makeError(
                ErrorCode::GeneralError,
                QStringLiteral("%1 does not have the expected schema: %2").arg(m_path, failed));
    }
    return {};
}

QString Store::apply(const WriteOp& operation) {
    auto& w = *m_ws;
    return std::visit(
        [&](const auto& o) -> QString {
            using T = std::decay_t<decltype(o)>;
            if constexpr (std::is_same_v<T, op::InsertMessage>) {
                const StoredMessage& r = o.row;
                auto& s = w.insertMessage;
                s.bind(1, r.entityId);
                s.bind(2, static_cast<int>(r.subQueue));
                s.bind(3, r.sequenceNumber);
                s.bind(4, static_cast<int>(r.state));
                s.bind(5, static_cast<qint64>(r.deliveryCount));
                s.bind(6, r.enqueuedAt);
                s.bind(7, r.scheduledAt);
                s.bind(8, r.expiresAt);
                if (r.timeToLive)
                    s.bind(9, *r.timeToLive);
                else
                    s.bindNull(9);
                s.bind(10, r.effectiveTimeToLive);
                s.bind(11, r.size);
                s.bindText(12, r.messageId);
                s.bindText(13, r.correlationId);
                s.bindText(14, r.sessionId);
                s.bindText(15, r.replyTo);
                s.bindText(16, r.replyToSessionId);
                s.bindText(17, r.to);
                s.bindText(18, r.subject);
                s.bindText(19, r.contentType);
                s.bindBlob(20, r.applicationProperties);
                s.bindText(21, r.deadLetterReason);
                s.bindText(22, r.deadLetterDescription);
                s.bindText(23, r.deadLetterSource);
                QString failed = s.run();
                if (!failed.isEmpty())
                    return failed;
                w.insertBody.bind(1, schema::bodyKey(r.entityId, r.sequenceNumber));
                w.insertBody.bindBlob(2, r.body.isNull() ? QByteArray("") : r.body);
                return w.insertBody.run();
            } else if constexpr (std::is_same_v<T, op::DeleteMessage>) {
                w.deleteMessage.bind(1, o.entityId);
                w.deleteMessage.bind(2, static_cast<int>(o.subQueue));
                w.deleteMessage.bind(3, o.seq);
                QString failed = w.deleteMessage.run();
                if (!failed.isEmpty())
                    return failed;
                w.deleteBody.bind(1, schema::bodyKey(o.entityId, o.seq));
                return w.deleteBody.run();
            } else if constexpr (std::is_same_v<T, op::SetDeliveryCount>) {
                w.setDeliveryCount.bind(1, o.entityId);
                w.setDeliveryCount.bind(2, static_cast<int>(o.subQueue));
                w.setDeliveryCount.bind(3, o.seq);
                w.setDeliveryCount.bind(4, static_cast<qint64>(o.deliveryCount));
                w.setDeliveryCount.bind(5, o.deliveryRecord);
                return w.setDeliveryCount.run();
            } else if constexpr (std::is_same_v<T, op::SetState>) {
                w.setState.bind(1, o.entityId);
                w.setState.bind(2, static_cast<int>(o.subQueue));
                w.setState.bind(3, o.seq);
                w.setState.bind(4, static_cast<int>(o.state));
                return w.setState.run();
            } else if constexpr (std::is_same_v<T, op::SetApplicationProperties>) {
                w.setProperties.bind(1, o.entityId);
                w.setProperties.bind(2, static_cast<int>(o.subQueue));
                w.setProperties.bind(3, o.seq);
                w.setProperties.bindBlob(4, o.cbor);
                w.setProperties.bind(5, o.size);
                return w.setProperties.run();
            } else if constexpr (std::is_same_v<T, op::MoveToDeadLetter>) {
                w.moveToDeadLetter.bind(1, o.entityId);
                w.moveToDeadLetter.bind(2, o.seq);
                w.moveToDeadLetter.bindText(3, o.reason);
                w.moveToDeadLetter.bindText(4, o.description);
                return w.moveToDeadLetter.run();
            } else if constexpr (std::is_same_v<T, op::Activate>) {
                w.activateMessage.bind(1, o.entityId);
                w.activateMessage.bind(2, o.oldSeq);
                w.activateMessage.bind(3, o.newSeq);
                w.activateMessage.bind(4, o.enqueuedAt);
                w.activateMessage.bind(5, o.expiresAt);
                w.activateMessage.bind(6, o.effectiveTtl);
                QString failed = w.activateMessage.run();
                if (!failed.isEmpty())
                    return failed;
                w.activateBody.bind(1, schema::bodyKey(o.entityId, o.oldSeq));
                w.activateBody.bind(2, schema::bodyKey(o.entityId, o.newSeq));
                return w.activateBody.run();
            } else if constexpr (std::is_same_v<T, op::UpsertNamespace>) {
                w.upsertNamespace.bindText(1, o.name);
                w.upsertNamespace.bind(2, static_cast<int>(o.tier));
                w.upsertNamespace.bind(3, o.ordinal);
                return w.upsertNamespace.run();
            } else if constexpr (std::is_same_v<T, op::DeleteNamespace>) {
                w.deleteNamespace.bindText(1, o.name);
                return w.deleteNamespace.run();
            } else if constexpr (std::is_same_v<T, op::InsertEntity>) {
                const StoredEntity& e = o.row;
                auto& s = w.insertEntity;
                s.bind(1, e.id);
                s.bindText(2, e.namespaceName);
                s.bindText(3, e.path);
                s.bindText(4, e.path.toLower());
                s.bind(5, static_cast<int>(e.kind));
                s.bindText(6, QString::fromUtf8(e.propertiesJson));
                s.bindText(7, QString::fromUtf8(e.rulesJson));
                s.bind(8, e.createdAt);
                s.bind(9, e.updatedAt);
                s.bind(10, e.lastActivity);
                s.bind(11, e.nextSequenceNumber);
                return s.run();
            } else if constexpr (std::is_same_v<T, op::UpdateEntity>) {
                w.updateEntity.bind(1, o.id);
                w.updateEntity.bindText(2, QString::fromUtf8(o.propertiesJson));
                w.updateEntity.bindText(3, QString::fromUtf8(o.rulesJson));
                w.updateEntity.bind(4, o.updatedAt);
                return w.updateEntity.run();
            } else if constexpr (std::is_same_v<T, op::DeleteEntity>) {
                w.deleteEntityMessages.bind(1, o.id);
                QString failed = w.deleteEntityMessages.run();
                if (failed.isEmpty()) {
                    w.deleteEntityBodies.bind(1, schema::bodyKey(o.id, 0));
                    w.deleteEntityBodies.bind(2, schema::bodyKey(o.id + 1, 0));
                    failed = w.deleteEntityBodies.run();
                }
                if (failed.isEmpty()) {
                    w.deleteEntityIds.bind(1, o.id);
                    failed = w.deleteEntityIds.run();
                }
                if (failed.isEmpty()) {
                    w.deleteEntityDeliveries.bind(1, o.id);
                    failed = w.deleteEntityDeliveries.run();
                }
                if (failed.isEmpty()) {
                    w.deleteEntity.bind(1, o.id);
                    failed = w.deleteEntity.run();
                }
                return failed;
            } else if constexpr (std::is_same_v<T, op::RememberMessageId>) {
                w.rememberId.bind(1, o.entityId);
                w.rememberId.bindText(2, o.messageId);
                w.rememberId.bind(3, o.seenAt);
                return w.rememberId.run();
            } else if constexpr (std::is_same_v<T, op::ForgetMessageIds>) {
                w.forgetIds.bind(1, o.entityId);
                w.forgetIds.bind(2, o.seenBefore);
                return w.forgetIds.run();
            } else if constexpr (std::is_same_v<T, op::RecordDeliveries>) {
                w.recordDeliveries.bind(1, o.id);
                w.recordDeliveries.bind(2, o.entityId);
                w.recordDeliveries.bind(3, static_cast<int>(o.subQueue));
                w.recordDeliveries.bindBlob(4, schema::encodeSequenceNumbers(o.seqs));
                return w.recordDeliveries.run();
            } else if constexpr (std::is_same_v<T, op::ForgetDeliveries>) {
                w.forgetDeliveries.bind(1, o.id);
                return w.forgetDeliveries.run();
            }
        },
        operation);
}

} // namespace hourglass
