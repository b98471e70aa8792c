#include "Store.h"

#include "StoreWriteStatements.h"

#include "RecentRows.h"
#include "StoreSchema.h"

#include <QFile>
#include <QFileInfo>
#include <QScopeGuard>

#include <sqlite3.h>

namespace hourglass {

namespace {
Error storeError(const QString& what) {
    return makeError(ErrorCode::GeneralError, what);
}

constexpr const char* kMessageColumns =
    "m.entity_id, m.sub_queue, m.seq, m.state, m.delivery_count, m.enqueued_at, m.scheduled_at, "
    "m.expires_at, m.ttl, m.effective_ttl, m.size, m.message_id, m.correlation_id, m.session_id, "
    "m.reply_to, m.reply_to_session_id, m.to_address, m.subject, m.content_type, "
    "m.app_properties, m.dl_reason, m.dl_description, m.dl_source";

StoredMessage readMessageRow(const SqliteStatement& s, bool withBody) {
    StoredMessage m;
    m.entityId = s.columnInt(0);
    m.subQueue = static_cast<SubQueue>(s.columnInt(1));
    m.sequenceNumber = s.columnInt(2);
    m.state = static_cast<MessageState>(s.columnInt(3));
    m.deliveryCount = static_cast<quint32>(s.columnInt(4));
    m.enqueuedAt = s.columnInt(5);
    m.scheduledAt = s.columnInt(6);
    m.expiresAt = s.columnInt(7);
    if (!s.columnIsNull(8))
        m.timeToLive = s.columnInt(8);
    m.effectiveTimeToLive = s.columnInt(9);
    m.size = s.columnInt(10);
    m.messageId = s.columnText(11);
    m.correlationId = s.columnText(12);
    m.sessionId = s.columnText(13);
    m.replyTo = s.columnText(14);
    m.replyToSessionId = s.columnText(15);
    m.to = s.columnText(16);
    m.subject = s.columnText(17);
    m.contentType = s.columnText(18);
    m.applicationProperties = s.columnBlob(19);
    m.deadLetterReason = s.columnText(20);
    m.deadLetterDescription = s.columnText(21);
    m.deadLetterSource = s.columnText(22);
    if (withBody) {
        m.body = s.columnBlob(23);
        if (m.body.isNull())
            m.body = QByteArray("");
        m.wireExtras = s.columnBlob(24);
        m.hasBody = true;
    }
    return m;
}

// A file that exists and is not empty must start with SQLite's header; checked before SQLite
// touches it so that a foreign file is never modified.
QString checkHeader(const QString& path) {
    QFile file(path);
    if (!file.exists() || file.size() == 0)
        return {};
    if (!file.open(QIODevice::ReadOnly))
        return QStringLiteral("cannot read %1: %2").arg(path, file.errorString());
    const QByteArray header = file.read(16);
    if (header != QByteArray("SQLite format 3\0", 16))
        return QStringLiteral("%1 is not an Hourglass database (not an SQLite file, or corrupt)")
            .arg(path);
    return {};
}
} // namespace

Result<std::unique_ptr<Store>> Store::open(const QString& path, Sync sync,
                                           std::unique_ptr<DatabaseOwner> owner) {
    if (path.isEmpty())
        return makeError(ErrorCode::InvalidArgument, QStringLiteral("no database path given"));
    const QString header = checkHeader(path);
    if (!header.isEmpty())
        return storeError(header);
    std::unique_ptr<Store> store(new Store);
    store->m_owner = std::move(owner);
    store->m_path = path;
    // Enough for the backlog of a busy application (60,000 messages of 1 KiB), little beside
    // what the window itself holds.
    constexpr qint64 kRecentRowsBytes = 64 << 20;
    store->m_recent = std::make_unique<RecentRows>(kRecentRowsBytes);
    const QString opened = store->m_write.open(path, SqliteConnection::Mode::ReadWriteCreate);
    if (!opened.isEmpty())
        return storeError(QStringLiteral("cannot open %1: %2").arg(path, opened));
    if (auto initialised = store->initialise(sync); !initialised)
        return initialised.error();
    return store;
}

Result<void> Store::initialise(Sync sync) {
    QString why;
    const auto appId = m_write.queryInt("PRAGMA application_id", &why);
    const auto version = m_write.queryInt("PRAGMA user_version", &why);
    const auto tables = m_write.queryInt("SELECT count(*) FROM sqlite_master", &why);
    if (!appId || !version || !tables)
        return storeError(
            QStringLiteral("%1 is not a readable Hourglass database: %2").arg(m_path, why));
    const bool fresh = *tables == 0 && *appId == 0 && *version == 0;
    if (!fresh) {
        if (*appId != schema::kApplicationId)
            return storeError(
                QStringLiteral("%1 is an SQLite database of another application, not Hourglass")
                    .arg(m_path));
        if (*version > schema::kVersion)
            return storeError(QStringLiteral("%1 was written by a newer Hourglass (schema %2; "
                                             "this version reads up to schema %3)")
                                  .arg(m_path)
                                  .arg(*version)
                                  .arg(schema::kVersion));
        if (*version < 1)
            return storeError(QStringLiteral("%1 has no Hourglass schema").arg(m_path));
    }
    // From here on the file is ours (or new): configuring it may write to it.
    if (const auto mode = m_write.exec("PRAGMA journal_mode=WAL"); !mode.isEmpty())
        return storeError(QStringLiteral("cannot use WAL on %1: %2").arg(m_path, mode));
    m_write.exec(sync == Sync::Full ? "PRAGMA synchronous=FULL" : "PRAGMA synchronous=NORMAL");
    m_write.exec("PRAGMA cache_size=-65536");
    m_write.exec("PRAGMA temp_store=MEMORY");
    std::vector<const char*> change;
    if (fresh)
        change.assign(schema::kCreateStatements,
                      schema::kCreateStatements + schema::kCreateStatementCount);
    if (!fresh && *version < 2)
        change.insert(change.end(), schema::kUpgradeFrom1,
                      schema::kUpgradeFrom1 + schema::kUpgradeFrom1Count);
    if (!fresh && *version < 3)
        change.insert(change.end(), schema::kUpgradeFrom2,
                      schema::kUpgradeFrom2 + schema::kUpgradeFrom2Count);
    if (!fresh && *version < 4)
        change.insert(change.end(), schema::kUpgradeFrom3,
                      schema::kUpgradeFrom3 + schema::kUpgradeFrom3Count);
    if (fresh || *version < schema::kVersion) {
        if (const QString failed = changeSchema(change); !failed.isEmpty())
            return storeError(
                QStringLiteral("cannot create the schema in %1: %2").arg(m_path, failed));
    }
    if (auto prepared = prepareWriteStatements(); !prepared)
        return prepared.error();

    const QString readOpened = m_read.open(m_path, SqliteConnection::Mode::ReadWrite);
    if (!readOpened.isEmpty())
        return storeError(QStringLiteral("cannot open %1 for reading: %2").arg(m_path, readOpened));
    m_read.exec("PRAGMA query_only=1");
    // Reads come from the page cache through a memory map, without a system call per page.
    m_read.exec("PRAGMA mmap_size=1073741824");
    m_read.exec("PRAGMA cache_size=-16384");
    const QByteArray one = QStringLiteral("SELECT %1 FROM messages m WHERE m.entity_id=?1 AND "
                                          "m.sub_queue=?2 AND m.seq=?3")
                               .arg(QLatin1String(kMessageColumns))
                               .toUtf8();
    const QByteArray oneBody =
        QStringLiteral("SELECT %1, b.body, b.wire FROM messages m LEFT JOIN bodies b ON "
                       "b.key = ((m.entity_id << 40) | m.seq) WHERE m.entity_id=?1 AND "
                       "m.sub_queue=?2 AND m.seq=?3")
            .arg(QLatin1String(kMessageColumns))
            .toUtf8();
    QString failed = m_readOne.prepare(m_read.handle(), one.constData());
    if (failed.isEmpty())
        failed = m_readOneBody.prepare(m_read.handle(), oneBody.constData());
    if (failed.isEmpty())
        failed = m_readSessionState.prepare(
            m_read.handle(), "SELECT state FROM sessions WHERE entity_id=?1 AND session_id=?2");
    if (!failed.isEmpty())
        return storeError(
            QStringLiteral("%1 does not have the expected schema: %2").arg(m_path, failed));
    return {};
}

QString Store::changeSchema(const std::vector<const char*>& statements) {
    QString failed = m_write.exec("BEGIN IMMEDIATE");
    for (const char* statement : statements) {
        if (failed.isEmpty())
            failed = m_write.exec(statement);
    }
    if (failed.isEmpty()) {
        const QByteArray pragmas = QStringLiteral("PRAGMA application_id=%1; "
                                                  "PRAGMA user_version=%2;")
                                       .arg(schema::kApplicationId)
                                       .arg(schema::kVersion)
                                       .toUtf8();
        failed = m_write.exec(pragmas.constData());
    }
    if (failed.isEmpty())
        failed = m_write.exec("COMMIT");
    if (!failed.isEmpty())
        m_write.exec("ROLLBACK");
    return failed;
}

Store::~Store() {
    // Whatever was logged but not yet awaited is still written: nothing acknowledged is pending
    // here (acknowledgement waits), but lazily stored changes (delivery counts, activity) are.
    (void)waitDurable(ticket());
}

// ---- Loading

Result<void> Store::loadNamespaces(const std::function<void(const NamespaceInfo&, int)>& each) {
    SqliteStatement s;
    if (const auto failed = s.prepare(
            m_write.handle(), "SELECT name, tier, ordinal FROM namespaces ORDER BY ordinal");
        !failed.isEmpty())
        return storeError(failed);
    int rc;
    while ((rc = s.step()) == SQLITE_ROW)
        each({s.columnText(0), static_cast<Tier>(s.columnInt(1))},
             static_cast<int>(s.columnInt(2)));
    if (rc != SQLITE_DONE)
        return storeError(
            QStringLiteral("cannot read the namespaces of %1 (the file may be corrupt): %2")
                .arg(m_path, s.lastError()));
    return {};
}

Result<void> Store::loadSettings(const std::function<void(const QString&, const QString&)>& each) {
    SqliteStatement s;
    if (const auto failed = s.prepare(m_write.handle(), "SELECT name, value FROM settings");
        !failed.isEmpty())
        return storeError(failed);
    int rc;
    while ((rc = s.step()) == SQLITE_ROW)
        each(s.columnText(0), s.columnText(1));
    if (rc != SQLITE_DONE)
        return storeError(
            QStringLiteral("cannot read the settings of %1 (the file may be corrupt): %2")
                .arg(m_path, s.lastError()));
    return {};
}

Result<void> Store::loadSessionStates(const std::function<void(const SessionStateKey&)>& each) {
    SqliteStatement s;
    // length() of a blob reads its size from the record header, not the bytes.
    if (const auto failed = s.prepare(
            m_write.handle(), "SELECT entity_id, session_id, set_at, length(state) FROM sessions");
        !failed.isEmpty())
        return storeError(failed);
    int rc;
    while ((rc = s.step()) == SQLITE_ROW)
        each({s.columnInt(0), s.columnText(1), s.columnInt(2), s.columnInt(3)});
    if (rc != SQLITE_DONE)
        return storeError(
            QStringLiteral("cannot read the session states of %1 (the file may be corrupt): %2")
                .arg(m_path, s.lastError()));
    return {};
}

Result<void> Store::loadSessionIds(qint64 entityId,
                                   const std::function<void(qint64, const QString&)>& each) {
    SqliteStatement s;
    if (const auto failed =
            s.prepare(m_write.handle(), "SELECT seq, session_id FROM messages WHERE entity_id=?1 "
                                        "AND sub_queue=0 AND session_id IS NOT NULL");
        !failed.isEmpty())
        return storeError(failed);
    s.bind(1, entityId);
    int rc;
    while ((rc = s.step()) == SQLITE_ROW)
        each(s.columnInt(0), s.columnText(1));
    if (rc != SQLITE_DONE)
        return storeError(
            QStringLiteral("cannot read the sessions of the messages of %1 (the file may be "
                           "corrupt): %2")
                .arg(m_path, s.lastError()));
    return {};
}

Result<void> Store::loadEntities(const std::function<void(const StoredEntity&)>& each) {
    SqliteStatement s;
    if (const auto failed = s.prepare(
            m_write.handle(), "SELECT id, namespace, path, kind, properties, rules, created_at, "
                              "updated_at, last_activity, next_seq FROM entities ORDER BY id");
        !failed.isEmpty())
        return storeError(failed);
    int rc;
    while ((rc = s.step()) == SQLITE_ROW) {
        StoredEntity e;
        e.id = s.columnInt(0);
        e.namespaceName = s.columnText(1);
        e.path = s.columnText(2);
        e.kind = static_cast<EntityKind>(s.columnInt(3));
        e.propertiesJson = s.columnText(4).toUtf8();
        e.rulesJson = s.columnText(5).toUtf8();
        e.createdAt = s.columnInt(6);
        e.updatedAt = s.columnInt(7);
        e.lastActivity = s.columnInt(8);
        e.nextSequenceNumber = s.columnInt(9);
        each(e);
    }
    if (rc != SQLITE_DONE)
        return storeError(
            QStringLiteral("cannot read the entities of %1 (the file may be corrupt): %2")
                .arg(m_path, s.lastError()));
    return {};
}

Result<void> Store::loadMessageKeys(const std::function<void(const MessageKey&)>& each) {
    SqliteStatement s;
    if (const auto failed =
            s.prepare(m_write.handle(), "SELECT entity_id, sub_queue, seq, state, delivery_count, "
                                        "scheduled_at, expires_at, ttl, size, delivery_record "
                                        "FROM messages");
        !failed.isEmpty())
        return storeError(failed);
    int rc;
    while ((rc = s.step()) == SQLITE_ROW) {
        MessageKey k;
        k.entityId = s.columnInt(0);
        k.subQueue = static_cast<SubQueue>(s.columnInt(1));
        k.seq = s.columnInt(2);
        k.state = static_cast<MessageState>(s.columnInt(3));
        k.deliveryCount = static_cast<quint32>(s.columnInt(4));
        k.scheduledAt = s.columnInt(5);
        k.expiresAt = s.columnInt(6);
        if (!s.columnIsNull(7))
            k.timeToLive = s.columnInt(7);
        k.size = s.columnInt(8);
        k.deliveryRecord = s.columnInt(9);
        each(k);
    }
    if (rc != SQLITE_DONE)
        return storeError(
            QStringLiteral("cannot read the messages of %1 (the file may be corrupt): %2")
                .arg(m_path, s.lastError()));
    return {};
}

Result<void>
Store::loadMessageIds(const std::function<void(qint64, const QString&, Instant)>& each) {
    SqliteStatement s;
    if (const auto failed =
            s.prepare(m_write.handle(),
                      "SELECT entity_id, message_id, seen_at FROM duplicates ORDER BY seen_at");
        !failed.isEmpty())
        return storeError(failed);
    int rc;
    while ((rc = s.step()) == SQLITE_ROW)
        each(s.columnInt(0), s.columnText(1), s.columnInt(2));
    if (rc != SQLITE_DONE)
        return storeError(
            QStringLiteral("cannot read duplicate detection history: %1").arg(s.lastError()));
    return {};
}

Result<void> Store::loadDeliveries(const std::function<void(const DeliveryRecord&)>& each) {
    SqliteStatement s;
    if (const auto failed =
            s.prepare(m_write.handle(), "SELECT id, entity_id, sub_queue, seqs FROM deliveries");
        !failed.isEmpty())
        return storeError(failed);
    int rc;
    while ((rc = s.step()) == SQLITE_ROW) {
        DeliveryRecord record{s.columnInt(0), s.columnInt(1), static_cast<SubQueue>(s.columnInt(2)),
                              schema::decodeSequenceNumbers(s.columnBlob(3))};
        each(record);
    }
    if (rc != SQLITE_DONE)
        return storeError(QStringLiteral("cannot read the delivery journal of %1: %2")
                              .arg(m_path, s.lastError()));
    return {};
}

// ---- Writes

void Store::log(WriteOp operation) {
    std::lock_guard lock(m_logMutex);
    m_log.push_back(std::move(operation));
}

void Store::logEntityProgress(qint64 entityId, qint64 nextSequenceNumber, Instant lastActivity) {
    std::lock_guard lock(m_logMutex);
    m_progress[entityId] = {nextSequenceNumber, lastActivity};
}

quint64 Store::ticket() const {
    std::lock_guard lock(m_logMutex);
    return m_openBatch;
}

quint64 Store::commitCount() const {
    std::lock_guard lock(m_commitMutex);
    return m_commits;
}

quint64 Store::readTicket() const {
    std::lock_guard lock(m_logMutex);
    if (!m_log.empty() || !m_progress.empty())
        return m_openBatch;
    // The last batch was discarded by a failure: nothing earlier is still to come.
    return m_openBatch - 1 == m_lastLostBatch ? 0 : m_openBatch - 1;
}

Result<void> Store::waitDurable(quint64 ticket) {
    std::unique_lock lock(m_commitMutex);
    for (;;) {
        if (auto lost = lostLocked(ticket))
            return *lost;
        if (m_durableBatch >= ticket)
            return {};
        if (m_failure) {
            if (!m_failureHandler)
                return *m_failure;
            // The broker rebuilds its memory from the database (or another waiter does); then
            // this ticket is among the lost ones.
            const auto handler = m_failureHandler;
            lock.unlock();
            handler();
            lock.lock();
            if (auto lost = lostLocked(ticket))
                return *lost;
            if (m_failure)
                return *m_failure;
            continue;
        }
        if (m_flushing) {
            m_committed.wait(lock);
            continue;
        }
        // Become the flusher. While commits run back to back, first let the operations that the
        // last commit's acknowledgements are bringing in join this one (CommitPacing.h).
        m_flushing = true;
        if (const auto window = m_pacing.window(CommitPacing::Clock::now());
            window > CommitPacing::Clock::duration::zero()) {
            lock.unlock();
            CommitPacing::gather(window, [this] {
                std::lock_guard logLock(m_logMutex);
                return m_log.size();
            });
            lock.lock();
            if (m_failure) { // marked failed meanwhile: the loop above deals with it
                m_flushing = false;
                m_committed.notify_all();
                continue;
            }
        }
        // Take everything logged so far as one batch.
        const auto started = CommitPacing::Clock::now();
        std::map<qint64, std::pair<qint64, Instant>> progress;
        quint64 batch;
        {
            std::lock_guard logLock(m_logMutex);
            m_inflight.swap(m_log);
            progress.swap(m_progress);
            batch = m_openBatch++;
        }
        lock.unlock();
        const std::size_t operations = m_inflight.size();
        const bool writes = !m_inflight.empty() || !progress.empty();
        const QString failed = writes ? writeBatch(m_inflight, progress) : QString();
        if (failed.isEmpty()) {
            // Committed: readers find these rows in the database now, and the recent ones here.
            m_recent->committed(m_inflight);
            std::lock_guard logLock(m_logMutex);
            m_inflight.clear();
        }
        lock.lock();
        m_flushing = false;
        if (failed.isEmpty()) {
            if (writes)
                m_pacing.committed(started, CommitPacing::Clock::now(), operations);
            m_durableBatch = batch;
            if (writes)
                ++m_commits;
        } else {
            // SQLite rolled the batch back and memory is ahead of the disk: nothing is
            // acknowledged until the broker has put its memory back (resetAfterFailure).
            m_failure = makeError(ErrorCode::GeneralError,
                                  QStringLiteral("the store could not write to %1: %2")
                                      .arg(m_path, failed.left(200)));
        }
        m_committed.notify_all();
    }
}

QString Store::writeBatch(const std::vector<WriteOp>& ops,
                          const std::map<qint64, std::pair<qint64, Instant>>& progress) {
    auto& w = *m_ws;
    QString failed = w.begin.run();
    for (const auto& operation : ops) {
        if (!failed.isEmpty())
            break;
        failed = apply(operation);
    }
    for (const auto& [entityId, mark] : progress) {
        if (!failed.isEmpty())
            break;
        w.progress.bind(1, entityId);
        w.progress.bind(2, mark.first);
        w.progress.bind(3, mark.second);
        failed = w.progress.run();
    }
    if (failed.isEmpty())
        failed = w.commit.run();
    if (!failed.isEmpty())
        (void)w.rollback.run();
    return failed;
}

qint64 Store::recentRowBytes() const {
    return m_recent->bytes();
}

// ---- Reads

Result<std::vector<StoredMessage>> Store::readMany(qint64 entityId, SubQueue subQueue,
                                                   const std::vector<qint64>& seqs,
                                                   bool withBodies) {
    std::lock_guard lock(m_readMutex);
    std::vector<StoredMessage> rows;
    rows.reserve(seqs.size());
    // One read transaction for the whole page: a consistent snapshot, and one set of file locks
    // rather than one per row.
    const bool transaction = seqs.size() > 1 && m_read.exec("BEGIN").isEmpty();
    const auto finish = qScopeGuard([&] {
        if (transaction)
            m_read.exec("COMMIT");
    });
    for (qint64 seq : seqs) {
        auto row = readOneHeld(entityId, subQueue, seq, withBodies);
        if (!row)
            return row.error();
        if (*row)
            rows.push_back(std::move(**row));
    }
    return rows;
}

Result<std::optional<StoredMessage>> Store::readOne(qint64 entityId, SubQueue subQueue, qint64 seq,
                                                    bool withBody) {
    std::lock_guard lock(m_readMutex);
    return readOneHeld(entityId, subQueue, seq, withBody);
}

Result<std::optional<QByteArray>> Store::readSessionState(qint64 entityId,
                                                          const QString& sessionId) {
    std::lock_guard lock(m_readMutex);
    SqliteStatement& s = m_readSessionState;
    s.bind(1, entityId);
    s.bindText(2, sessionId);
    std::optional<QByteArray> state;
    const int rc = s.step();
    if (rc == SQLITE_ROW) {
        state = s.columnBlob(0);
        if (state->isNull())
            state = QByteArray(""); // an empty state is a state
    }
    const QString error = (rc == SQLITE_ROW || rc == SQLITE_DONE) ? QString() : s.lastError();
    s.reset();
    if (!error.isEmpty())
        return storeError(QStringLiteral("cannot read a session state: %1").arg(error));
    return state;
}

Result<std::optional<StoredMessage>> Store::readOneHeld(qint64 entityId, SubQueue subQueue,
                                                        qint64 seq, bool withBody) {
    if (withBody) {
        if (auto recent = m_recent->find(entityId, subQueue, seq))
            return recent;
    }
    SqliteStatement& s = withBody ? m_readOneBody : m_readOne;
    s.bind(1, entityId);
    s.bind(2, static_cast<int>(subQueue));
    s.bind(3, seq);
    std::optional<StoredMessage> row;
    const int rc = s.step();
    if (rc == SQLITE_ROW)
        row = readMessageRow(s, withBody);
    const QString error = (rc == SQLITE_ROW || rc == SQLITE_DONE) ? QString() : s.lastError();
    s.reset();
    if (!error.isEmpty())
        return storeError(QStringLiteral("cannot read a message: %1").arg(error));
    return row;
}

} // namespace hourglass
