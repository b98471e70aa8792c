#pragma once
// The prepared statements the flusher writes with (Store.cpp, StoreWrites.cpp). Only the current
// flusher, or Store::open before any other thread exists, uses them.

#include "SqliteStatement.h"
#include "Store.h"

namespace hourglass {

struct Store::WriteStatements {
    SqliteStatement insertMessage, insertBody, deleteMessage, deleteBody, setDeliveryCount,
        setState, setProperties, moveToDeadLetter, activateMessage, activateBody, upsertNamespace,
        deleteNamespace, insertEntity, updateEntity, deleteEntityMessages, deleteEntityBodies,
        deleteEntityIds, deleteEntityDeliveries, deleteEntity, progress, rememberId, forgetIds,
        recordDeliveries, forgetDeliveries, setSetting, deleteSetting, setSessionState,
        deleteSessionState, deleteEntitySessions, begin, commit, rollback;

    // Writes one logged operation (StoreWrites.cpp); empty on success, else SQLite's message.
    QString apply(const op::InsertMessage& o);
    QString apply(const op::DeleteMessage& o);
    QString apply(const op::SetDeliveryCount& o);
    QString apply(const op::SetState& o);
    QString apply(const op::SetApplicationProperties& o);
    QString apply(const op::MoveToDeadLetter& o);
    QString apply(const op::Activate& o);
    QString apply(const op::UpsertNamespace& o);
    QString apply(const op::DeleteNamespace& o);
    QString apply(const op::InsertEntity& o);
    QString apply(const op::UpdateEntity& o);
    QString apply(const op::DeleteEntity& o);
    QString apply(const op::RememberMessageId& o);
    QString apply(const op::ForgetMessageIds& o);
    QString apply(const op::RecordDeliveries& o);
    QString apply(const op::ForgetDeliveries& o);
    QString apply(const op::SetSetting& o);
    QString apply(const op::SetSessionState& o);
};

} // namespace hourglass
