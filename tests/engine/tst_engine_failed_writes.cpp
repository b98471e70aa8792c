// A failed write leaves nothing behind in memory: when SQLite refuses a batch (here a trigger
// created by a second connection to the same file, a real failure without any test hook), the
// operation returns the error and the broker's counts, peeks, receives and change notifications
// show exactly what the database holds, as reopening it does. Locks are not stored: like a
// restart, a failed write ends the locks held at that moment (their deliveries counted, D2).

#include "BrokerSnapshot.h"
#include "EngineChecks.h"
#include "TestBroker.h"

#include <QTest>

#include <sqlite3.h>

using namespace hourglass;
using namespace hourglass::testing;

namespace {

const QString kQueue = QStringLiteral("jobs");

// A second connection to the broker's database that makes SQLite refuse writes.
class Refuser {
public:
    explicit Refuser(const QString& path) {
        if (sqlite3_open_v2(path.toUtf8().constData(), &m_db, SQLITE_OPEN_READWRITE, nullptr) !=
            SQLITE_OK)
            qFatal("cannot open %s", qPrintable(path));
        sqlite3_busy_timeout(m_db, 5000);
    }
    ~Refuser() { sqlite3_close(m_db); }
    // event: "INSERT", "UPDATE" or "DELETE"; table: "messages", "entities", "deliveries"...
    bool refuse(const char* event, const char* table) {
        return exec(QStringLiteral("CREATE TRIGGER refuse_%1_%2 BEFORE %1 ON %2 BEGIN SELECT "
                                   "RAISE(ABORT, 'refused by test'); END;")
                        .arg(QLatin1String(event), QLatin1String(table)));
    }
    bool allow(const char* event, const char* table) {
        return exec(QStringLiteral("DROP TRIGGER refuse_%1_%2")
                        .arg(QLatin1String(event), QLatin1String(table)));
    }
    qint64 count(const char* sql) {
        sqlite3_stmt* statement = nullptr;
        qint64 value = -1;
        if (sqlite3_prepare_v2(m_db, sql, -1, &statement, nullptr) == SQLITE_OK &&
            sqlite3_step(statement) == SQLITE_ROW)
            value = sqlite3_column_int64(statement, 0);
        sqlite3_finalize(statement);
        return value;
    }

private:
    bool exec(const QString& sql) {
        char* message = nullptr;
        const int rc = sqlite3_exec(m_db, sql.toUtf8().constData(), nullptr, nullptr, &message);
        if (rc != SQLITE_OK)
            qWarning("%s: %s", qPrintable(sql), message ? message : "?");
        sqlite3_free(message);
        return rc == SQLITE_OK;
    }
    sqlite3* m_db = nullptr;
};

EntityCounts countsOf(TestBroker& b, const QString& path = kQueue) {
    auto info = b->entity(path);
    return info ? info->counts : EntityCounts{};
}

QStringList idsPeeked(TestBroker& b) {
    QStringList ids;
    if (auto peeked = b->peek(kQueue, 0, 100)) {
        for (const MessageView& m : *peeked)
            ids.append(m.messageId);
    }
    return ids;
}

ReceiveOptions peekLock(int count = 10) {
    ReceiveOptions options;
    options.maxCount = count;
    options.receiver = QStringLiteral("worker");
    return options;
}

} // namespace

class TestEngineFailedWrites : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<TestBroker> m_broker;
    std::unique_ptr<Refuser> m_refuser;
    TestBroker& b() { return *m_broker; }

    // The broker reopened agrees with the one that recovered.
    void verifyReopenAgrees() {
        const auto before = BrokerSnapshot::take(b().broker());
        b().reopen();
        const QString diff = before.differenceFrom(BrokerSnapshot::take(b().broker()));
        QVERIFY2(diff.isEmpty(), qPrintable(diff));
    }

private slots:
    void init() {
        m_broker = std::make_unique<TestBroker>();
        QVERIFY(b()->createQueue(kQueue, EntityProperties::defaults(Tier::Standard)));
        QVERIFY(b()->send(kQueue, TestBroker::message(QStringLiteral("kept"))));
        b()->changes()->takePending();
        m_refuser = std::make_unique<Refuser>(b().databasePath());
    }
    void cleanup() {
        m_refuser.reset();
        m_broker.reset();
    }

    void refusedSendLeavesNoMessage() {
        QVERIFY(m_refuser->refuse("INSERT", "messages"));
        HG_VERIFY_REFUSED(b().broker(),
                          b()->send(kQueue, TestBroker::message(QStringLiteral("phantom"))),
                          ErrorCode::GeneralError);
        const auto failed = b()->send(kQueue, TestBroker::message(QStringLiteral("phantom")));
        QVERIFY(!failed);
        QVERIFY2(failed.error().description.contains(QStringLiteral("refused by test")),
                 qPrintable(failed.error().description));
        QCOMPARE(countsOf(b()).active, 1);
        QCOMPARE(idsPeeked(b()), QStringList{QStringLiteral("kept")});
        // The window is told to read the entity again (its counts went up and came back).
        QVERIFY(b()->changes()->takePending().countsChanged.contains(QStringLiteral("test:jobs")));
        // A receive hands out what is stored only.
        auto received = b()->receive(kQueue, peekLock());
        QVERIFY(received);
        QCOMPARE(received->size(), 1);
        QCOMPARE(received->first().messageId, QStringLiteral("kept"));
        QVERIFY(b()->complete(LockRef::of(received->first())));

        // Writes go on once SQLite takes them again; numbers go on from what is stored.
        QVERIFY(m_refuser->allow("INSERT", "messages"));
        auto sent = b()->send(kQueue, TestBroker::message(QStringLiteral("after")));
        QVERIFY(sent);
        QCOMPARE(countsOf(b()).active, 1);
        QCOMPARE(idsPeeked(b()), QStringList{QStringLiteral("after")});
        verifyReopenAgrees();
    }

    void refusedBatchAndScheduleLeaveNothing() {
        QVERIFY(m_refuser->refuse("INSERT", "messages"));
        HG_VERIFY_REFUSED(b().broker(),
                          b()->sendBatch(kQueue, {TestBroker::message(QStringLiteral("a")),
                                                  TestBroker::message(QStringLiteral("b"))}),
                          ErrorCode::GeneralError);
        HG_VERIFY_REFUSED(b().broker(),
                          b()->schedule(kQueue, TestBroker::message(QStringLiteral("later")),
                                        b().clock().now() + 60000),
                          ErrorCode::GeneralError);
        QCOMPARE(countsOf(b()).active, 1);
        QCOMPARE(countsOf(b()).scheduled, 0);
        QVERIFY(m_refuser->allow("INSERT", "messages"));
        verifyReopenAgrees();
    }

    void refusedReceivesLeaveTheMessageAvailable() {
        // Peek-lock: the hand-out's delivery journal row is refused.
        QVERIFY(m_refuser->refuse("INSERT", "deliveries"));
        HG_VERIFY_REFUSED(b().broker(), b()->receive(kQueue, peekLock()), ErrorCode::GeneralError);
        QCOMPARE(countsOf(b()).active, 1);
        QCOMPARE(countsOf(b()).locked, 0);
        QVERIFY(m_refuser->allow("INSERT", "deliveries"));

        // Receive-and-delete: the removal is refused.
        QVERIFY(m_refuser->refuse("DELETE", "messages"));
        ReceiveOptions removing = peekLock();
        removing.mode = ReceiveMode::ReceiveAndDelete;
        HG_VERIFY_REFUSED(b().broker(), b()->receive(kQueue, removing), ErrorCode::GeneralError);
        QCOMPARE(countsOf(b()).active, 1);
        QCOMPARE(m_refuser->count("SELECT count(*) FROM messages"), 1);
        QVERIFY(m_refuser->allow("DELETE", "messages"));

        auto received = b()->receive(kQueue, peekLock());
        QVERIFY(received);
        QCOMPARE(received->size(), 1);
        QCOMPARE(received->first().deliveryCount, 1u);
        QVERIFY(b()->abandon(LockRef::of(received->first())));
        verifyReopenAgrees();
    }

    void refusedSettlementsKeepTheMessage() {
        struct Case {
            const char* name;
            const char* event;
            std::function<Result<void>(const LockRef&)> settle;
        };
        const std::vector<Case> cases = {
            {"complete", "DELETE", [this](const LockRef& l) { return b()->complete(l); }},
            {"abandon", "UPDATE", [this](const LockRef& l) { return b()->abandon(l); }},
            {"defer", "UPDATE", [this](const LockRef& l) { return b()->defer(l); }},
            {"dead-letter", "UPDATE", [this](const LockRef& l) { return b()->deadLetter(l); }},
        };
        quint32 deliveries = 0;
        for (const Case& c : cases) {
            auto received = b()->receive(kQueue, peekLock());
            QVERIFY2(received && received->size() == 1, c.name);
            ++deliveries;
            QVERIFY(m_refuser->refuse(c.event, "messages"));
            const Result<void> settled = c.settle(LockRef::of(received->first()));
            QVERIFY2(!settled, c.name);
            QCOMPARE(settled.error().code, ErrorCode::GeneralError);
            QVERIFY(m_refuser->allow(c.event, "messages"));
            // Still in the queue, as stored: its lock ended as a restart ends it, its delivery
            // counted; settling under the old lock is refused.
            const EntityCounts counts = countsOf(b());
            QVERIFY2(counts.active == 1 && counts.locked == 0 && counts.deferred == 0 &&
                         counts.deadLettered == 0,
                     c.name);
            HG_VERIFY_ERROR(b()->complete(LockRef::of(received->first())),
                            ErrorCode::MessageLockLost);
            auto peeked = b()->peek(kQueue, 0, 10);
            QVERIFY(peeked && peeked->size() == 1);
            QCOMPARE(peeked->first().state, MessageState::Active);
            QCOMPARE(peeked->first().deliveryCount, deliveries);
        }
        verifyReopenAgrees();
    }

    void refusedEntityCreateAndDeleteLeaveTheTreeAsStored() {
        QVERIFY(m_refuser->refuse("INSERT", "entities"));
        HG_VERIFY_REFUSED(
            b().broker(),
            b()->createQueue(QStringLiteral("phantom"), EntityProperties::defaults(Tier::Standard)),
            ErrorCode::GeneralError);
        HG_VERIFY_ERROR(b()->entity(QStringLiteral("phantom")), ErrorCode::MessagingEntityNotFound);
        QVERIFY(m_refuser->allow("INSERT", "entities"));
        // The name is free: creating it again works.
        QVERIFY(b()->createQueue(QStringLiteral("phantom"),
                                 EntityProperties::defaults(Tier::Standard)));
        b()->changes()->takePending();

        QVERIFY(m_refuser->refuse("DELETE", "entities"));
        HG_VERIFY_REFUSED(b().broker(), b()->deleteEntity(kQueue), ErrorCode::GeneralError);
        QCOMPARE(countsOf(b()).active, 1);
        // The window, told the queue was deleted, is told it is there again.
        const ChangeBatch batch = b()->changes()->takePending();
        QVERIFY(batch.created.contains(QStringLiteral("test:jobs")));
        QVERIFY(m_refuser->allow("DELETE", "entities"));
        verifyReopenAgrees();
    }
};

QTEST_GUILESS_MAIN(TestEngineFailedWrites)
#include "tst_engine_failed_writes.moc"
