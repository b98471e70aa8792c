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
        recordDeliveries, forgetDeliveries, begin, commit, rollback;
};

} // namespace hourglass
