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
        {&w.setSetting, "INSERT OR REPLACE INTO settings(name, value) VALUES(?1, ?2)"},
        {&w.deleteSetting, "DELETE FROM settings WHERE name=?1"},
        {&w.setSessionState, "INSERT OR REPLACE INTO sessions(entity_id, session_id, set_at, "
                             "state) VALUES(?1, ?2, ?3, ?4)"},
        {&w.deleteSessionState, "DELETE FROM sessions WHERE entity_id=?1 AND session_id=?2"},
        {&w.deleteEntitySessions, "DELETE FROM sessions WHERE entity_id=?1"},
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
    return std::visit([this](const auto& o) { return m_ws->apply(o); }, operation);
}

// One write per logged operation kind (Store.h), with the statements prepared above.

QString Store::WriteStatements::apply(const op::InsertMessage& o) {
    const StoredMessage& r = o.row;
    auto& s = insertMessage;
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
    insertBody.bind(1, schema::bodyKey(r.entityId, r.sequenceNumber));
    insertBody.bindBlob(2, r.body.isNull() ? QByteArray("") : r.body);
    if (r.wireExtras.isEmpty())
        insertBody.bindNull(3);
    else
        insertBody.bindBlob(3, r.wireExtras);
    return insertBody.run();
}

QString Store::WriteStatements::apply(const op::DeleteMessage& o) {
    deleteMessage.bind(1, o.entityId);
    deleteMessage.bind(2, static_cast<int>(o.subQueue));
    deleteMessage.bind(3, o.seq);
    QString failed = deleteMessage.run();
    if (!failed.isEmpty())
        return failed;
    deleteBody.bind(1, schema::bodyKey(o.entityId, o.seq));
    return deleteBody.run();
}

QString Store::WriteStatements::apply(const op::SetDeliveryCount& o) {
    setDeliveryCount.bind(1, o.entityId);
    setDeliveryCount.bind(2, static_cast<int>(o.subQueue));
    setDeliveryCount.bind(3, o.seq);
    setDeliveryCount.bind(4, static_cast<qint64>(o.deliveryCount));
    setDeliveryCount.bind(5, o.deliveryRecord);
    return setDeliveryCount.run();
}

QString Store::WriteStatements::apply(const op::SetState& o) {
    setState.bind(1, o.entityId);
    setState.bind(2, static_cast<int>(o.subQueue));
    setState.bind(3, o.seq);
    setState.bind(4, static_cast<int>(o.state));
    return setState.run();
}

QString Store::WriteStatements::apply(const op::SetApplicationProperties& o) {
    setProperties.bind(1, o.entityId);
    setProperties.bind(2, static_cast<int>(o.subQueue));
    setProperties.bind(3, o.seq);
    setProperties.bindBlob(4, o.cbor);
    setProperties.bind(5, o.size);
    return setProperties.run();
}

QString Store::WriteStatements::apply(const op::MoveToDeadLetter& o) {
    moveToDeadLetter.bind(1, o.entityId);
    moveToDeadLetter.bind(2, o.seq);
    moveToDeadLetter.bindText(3, o.reason);
    moveToDeadLetter.bindText(4, o.description);
    return moveToDeadLetter.run();
}

QString Store::WriteStatements::apply(const op::Activate& o) {
    activateMessage.bind(1, o.entityId);
    activateMessage.bind(2, o.oldSeq);
    activateMessage.bind(3, o.newSeq);
    activateMessage.bind(4, o.enqueuedAt);
    activateMessage.bind(5, o.expiresAt);
    activateMessage.bind(6, o.effectiveTtl);
    QString failed = activateMessage.run();
    if (!failed.isEmpty())
        return failed;
    activateBody.bind(1, schema::bodyKey(o.entityId, o.oldSeq));
    activateBody.bind(2, schema::bodyKey(o.entityId, o.newSeq));
    return activateBody.run();
}

QString Store::WriteStatements::apply(const op::UpsertNamespace& o) {
    upsertNamespace.bindText(1, o.name);
    upsertNamespace.bind(2, static_cast<int>(o.tier));
    upsertNamespace.bind(3, o.ordinal);
    return upsertNamespace.run();
}

QString Store::WriteStatements::apply(const op::DeleteNamespace& o) {
    deleteNamespace.bindText(1, o.name);
    return deleteNamespace.run();
}

QString Store::WriteStatements::apply(const op::InsertEntity& o) {
    const StoredEntity& e = o.row;
    auto& s = insertEntity;
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
}

QString Store::WriteStatements::apply(const op::UpdateEntity& o) {
    updateEntity.bind(1, o.id);
    updateEntity.bindText(2, QString::fromUtf8(o.propertiesJson));
    updateEntity.bindText(3, QString::fromUtf8(o.rulesJson));
    updateEntity.bind(4, o.updatedAt);
    return updateEntity.run();
}

QString Store::WriteStatements::apply(const op::DeleteEntity& o) {
    deleteEntityMessages.bind(1, o.id);
    QString failed = deleteEntityMessages.run();
    if (failed.isEmpty()) {
        deleteEntityBodies.bind(1, schema::bodyKey(o.id, 0));
        deleteEntityBodies.bind(2, schema::bodyKey(o.id + 1, 0));
        failed = deleteEntityBodies.run();
    }
    if (failed.isEmpty()) {
        deleteEntityIds.bind(1, o.id);
        failed = deleteEntityIds.run();
    }
    if (failed.isEmpty()) {
        deleteEntityDeliveries.bind(1, o.id);
        failed = deleteEntityDeliveries.run();
    }
    if (failed.isEmpty()) {
        deleteEntitySessions.bind(1, o.id);
        failed = deleteEntitySessions.run();
    }
    if (failed.isEmpty()) {
        deleteEntity.bind(1, o.id);
        failed = deleteEntity.run();
    }
    return failed;
}

QString Store::WriteStatements::apply(const op::RememberMessageId& o) {
    rememberId.bind(1, o.entityId);
    rememberId.bindText(2, o.messageId);
    rememberId.bind(3, o.seenAt);
    return rememberId.run();
}

QString Store::WriteStatements::apply(const op::ForgetMessageIds& o) {
    forgetIds.bind(1, o.entityId);
    forgetIds.bind(2, o.seenBefore);
    return forgetIds.run();
}

QString Store::WriteStatements::apply(const op::RecordDeliveries& o) {
    recordDeliveries.bind(1, o.id);
    recordDeliveries.bind(2, o.entityId);
    recordDeliveries.bind(3, static_cast<int>(o.subQueue));
    recordDeliveries.bindBlob(4, schema::encodeSequenceNumbers(o.seqs));
    return recordDeliveries.run();
}

QString Store::WriteStatements::apply(const op::ForgetDeliveries& o) {
    forgetDeliveries.bind(1, o.id);
    return forgetDeliveries.run();
}

QString Store::WriteStatements::apply(const op::SetSetting& o) {
    if (o.value.isEmpty()) {
        deleteSetting.bindText(1, o.name);
        return deleteSetting.run();
    }
    setSetting.bindText(1, o.name);
    setSetting.bindText(2, o.value);
    return setSetting.run();
}

QString Store::WriteStatements::apply(const op::SetSessionState& o) {
    if (!o.state) {
        deleteSessionState.bind(1, o.entityId);
        deleteSessionState.bindText(2, o.sessionId);
        return deleteSessionState.run();
    }
    setSessionState.bind(1, o.entityId);
    setSessionState.bindText(2, o.sessionId);
    setSessionState.bind(3, o.setAt);
    // Never NULL: the column is NOT NULL, and an empty state is a state.
    setSessionState.bindBlob(4, o.state->isNull() ? QByteArray("") : *o.state);
    return setSessionState.run();
}

} // namespace hourglass
