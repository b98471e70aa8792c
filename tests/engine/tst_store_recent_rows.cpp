// The rows the store keeps in memory for hand-outs (engine/store/RecentRows.h) read exactly like
// the committed database: after every kind of change, a store that serves them from memory and a
// store opened afresh on the same file (which reads SQLite) give the same rows. D1's durability is
// untouched: memory only ever mirrors what committed.
#include "store/RecentRows.h"
#include "store/Store.h"

#include <QTemporaryDir>
#include <QTest>

using namespace hourglass;

namespace {
constexpr qint64 kEntity = 7;

StoredMessage messageRow(qint64 seq, const QByteArray& body) {
    StoredMessage row;
    row.entityId = kEntity;
    row.sequenceNumber = seq;
    row.enqueuedAt = 1000 + seq;
    row.expiresAt = 1'000'000 + seq;
    row.size = body.size();
    row.messageId = QStringLiteral("m%1").arg(seq);
    row.sessionId = seq % 2 ? QStringLiteral("odd") : QString();
    row.subject = QStringLiteral("subject %1").arg(seq);
    row.applicationProperties = QByteArray("\xa1\x61\x61\x01", 4); // CBOR {"a": 1}
    row.body = body;
    row.wireExtras = seq == 1 ? QByteArray("extras") : QByteArray();
    return row;
}

// Everything a hand-out reads of a row.
QString describe(const std::vector<StoredMessage>& rows) {
    QStringList out;
    for (const StoredMessage& r : rows)
        out << QStringLiteral("%1/%2 state=%3 count=%4 enq=%5 exp=%6 size=%7 id=%8 session=%9 "
                              "subject=%10 props=%11 dl=%12:%13 body=%14 extras=%15")
                   .arg(int(r.subQueue))
                   .arg(r.sequenceNumber)
                   .arg(int(r.state))
                   .arg(r.deliveryCount)
                   .arg(r.enqueuedAt)
                   .arg(r.expiresAt)
                   .arg(r.size)
                   .arg(r.messageId, r.sessionId, r.subject,
                        QString::fromLatin1(r.applicationProperties.toHex()), r.deadLetterReason,
                        r.deadLetterDescription, QString::fromLatin1(r.body.toHex()),
                        QString::fromLatin1(r.wireExtras.toHex()));
    return out.join(QLatin1Char('\n'));
}
} // namespace

class StoreRecentRowsTest : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString path() const { return m_dir.filePath(QStringLiteral("recent.db")); }

    static void commit(Store& store, std::vector<WriteOp> ops) {
        for (WriteOp& operation : ops)
            store.log(std::move(operation));
        const auto durable = store.waitDurable(store.ticket());
        QVERIFY2(durable.ok(), qPrintable(durable.ok() ? QString() : durable.error().toString()));
    }

    // Both sub-queues of sequence numbers 1..count, as `store` reads them with bodies.
    static QString readAll(Store& store, qint64 count) {
        std::vector<qint64> seqs;
        for (qint64 seq = 1; seq <= count; ++seq)
            seqs.push_back(seq);
        auto main = store.readMany(kEntity, SubQueue::Main, seqs, true);
        auto dead = store.readMany(kEntity, SubQueue::DeadLetter, seqs, true);
        if (!main || !dead)
            return QStringLiteral("read failed");
        return describe(*main) + QStringLiteral("\n--\n") + describe(*dead);
    }

private slots:
    void D1_rowsKeptInMemoryReadLikeTheCommittedDatabase() {
        QVERIFY(m_dir.isValid());
        auto opened = Store::open(path(), Store::Sync::Full);
        QVERIFY(opened.ok());
        Store& store = **opened;
        StoredEntity entity;
        entity.id = kEntity;
        entity.namespaceName = QStringLiteral("ns");
        entity.path = QStringLiteral("q");
        entity.propertiesJson = "{}";
        entity.rulesJson = "[]";
        std::vector<WriteOp> inserts{op::UpsertNamespace{QStringLiteral("ns"), Tier::Standard, 0},
                                     op::InsertEntity{entity}};
        for (qint64 seq = 1; seq <= 7; ++seq)
            inserts.push_back(op::InsertMessage{messageRow(seq, QByteArray(100, char('a' + seq)))});
        commit(store, std::move(inserts));
        QVERIFY2(store.recentRowBytes() > 7 * 100, "the inserted rows are kept");

        commit(store,
               {op::SetState{kEntity, SubQueue::Main, 2, MessageState::Deferred},
                op::SetApplicationProperties{kEntity, SubQueue::Main, 3,
                                             QByteArray("\xa1\x61\x62\x02", 4), 44},
                op::MoveToDeadLetter{kEntity, 4, QStringLiteral("Why"), QStringLiteral("Because")},
                op::DeleteMessage{kEntity, SubQueue::Main, 5},
                op::SetDeliveryCount{kEntity, SubQueue::Main, 1, 3, 0}});

        const QString fromMemory = readAll(store, 7);
        auto fresh = Store::open(path(), Store::Sync::Full);
        QVERIFY(fresh.ok());
        QCOMPARE(fromMemory, readAll(**fresh, 7));
        QVERIFY(fromMemory.contains(QStringLiteral("state=1"))); // the changes are there
        QVERIFY(fromMemory.contains(QStringLiteral("dl=Why:Because")));
        QVERIFY(!fromMemory.contains(QStringLiteral("/5 ")));

        // Removing an entity's messages leaves nothing behind in memory.
        commit(store, {op::DeleteEntity{kEntity}});
        QCOMPARE(store.recentRowBytes(), qint64(0));
        QCOMPARE(readAll(store, 7), QStringLiteral("\n--\n"));
    }

    void D1_aFullMemoryAdmitsNoMoreRowsUntilSomeLeave() {
        RecentRows rows(1500);
        rows.committed({op::InsertMessage{messageRow(1, QByteArray(900, 'x'))},
                        op::InsertMessage{messageRow(2, QByteArray(900, 'y'))}});
        QVERIFY(rows.find(kEntity, SubQueue::Main, 1));
        QVERIFY2(!rows.find(kEntity, SubQueue::Main, 2), "no room: the database answers");
        rows.committed({op::DeleteMessage{kEntity, SubQueue::Main, 1},
                        op::InsertMessage{messageRow(3, QByteArray(900, 'z'))}});
        QVERIFY(!rows.find(kEntity, SubQueue::Main, 1));
        const auto third = rows.find(kEntity, SubQueue::Main, 3);
        QVERIFY(third);
        QCOMPARE(third->body, QByteArray(900, 'z'));
        QVERIFY(third->hasBody);
    }
};

QTEST_GUILESS_MAIN(StoreRecentRowsTest)
#include "tst_store_recent_rows.moc"
