// D2 from the other side: a database that cannot be ours as it was left (random bytes, a torn or
// truncated file, somebody else's SQLite file, a newer schema) is refused by Broker::open with a
// clear error, and the file is left exactly as it was: opening must never "repair" or
// re-initialise data it does not understand. States a crash can leave are ours, though: messages
// stored in the batch before the one that stores their entity's counter open and number new
// messages after the stored ones; delivery journal rows add their deliveries back (D2). A
// database of the previous schema is upgraded in place.

#include "ResultText.h"
#include "TestBroker.h"
#include "hourglass/Broker.h"
#include "store/StoreSchema.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QMap>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>

#include <sqlite3.h>

using namespace hourglass;
using hourglass::durability::errorText;

namespace {

// Name -> SHA-256 of every file in the directory: catches a changed byte in the database as well
// as a journal, WAL or shared-memory file left behind.
QMap<QString, QByteArray> directoryState(const QString& path) {
    QMap<QString, QByteArray> state;
    const QDir dir(path);
    for (const QString& name : dir.entryList(QDir::Files | QDir::Hidden | QDir::System)) {
        QFile file(dir.filePath(name));
        if (!file.open(QIODevice::ReadOnly))
            qFatal("cannot read %s", qPrintable(file.fileName()));
        state.insert(name, QCryptographicHash::hash(file.readAll(), QCryptographicHash::Sha256));
    }
    return state;
}

// Runs SQL on a database with SQLite itself; empty on success, else SQLite's message.
QString execSql(const QString& path, const QString& sql) {
    sqlite3* db = nullptr;
    int rc = sqlite3_open_v2(path.toUtf8().constData(), &db,
                             SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr);
    QString error;
    if (rc == SQLITE_OK) {
        char* message = nullptr;
        rc = sqlite3_exec(db, sql.toUtf8().constData(), nullptr, nullptr, &message);
        if (rc != SQLITE_OK)
            error = QString::fromUtf8(message ? message : "unknown error");
        sqlite3_free(message);
    } else {
        error = QString::fromUtf8(sqlite3_errstr(rc));
    }
    sqlite3_close(db);
    return error;
}

// Reads one integer PRAGMA with SQLite itself (-1 on failure). Read-write on purpose: a
// read-only connection to a WAL database cannot clean up its -wal and -shm files on close.
qint64 pragmaValue(const QString& path, const char* pragma) {
    sqlite3* db = nullptr;
    qint64 value = -1;
    if (sqlite3_open_v2(path.toUtf8().constData(), &db, SQLITE_OPEN_READWRITE, nullptr) ==
        SQLITE_OK) {
        sqlite3_stmt* statement = nullptr;
        const QByteArray sql = QByteArray("PRAGMA ") + pragma;
        if (sqlite3_prepare_v2(db, sql.constData(), -1, &statement, nullptr) == SQLITE_OK &&
            sqlite3_step(statement) == SQLITE_ROW)
            value = sqlite3_column_int64(statement, 0);
        sqlite3_finalize(statement);
    }
    sqlite3_close(db);
    return value;
}

// Opens the database at `path` on a paused clock, as every test here does.
Result<std::unique_ptr<Broker>> openAt(const QString& path) {
    BrokerOptions options;
    options.databasePath = path;
    options.clock = std::make_shared<VirtualClock>(testing::kTestStart);
    return Broker::open(options);
}

} // namespace

class DurabilityRefuseTest : public QObject {
    Q_OBJECT

private slots:
    void durability_D2_refusesRandomBytes();
    void durability_D2_refusesTruncatedDatabase_data();
    void durability_D2_refusesTruncatedDatabase();
    void durability_D2_refusesDamagedPages();
    void durability_D2_refusesForeignSqliteDatabase_data();
    void durability_D2_refusesForeignSqliteDatabase();
    void durability_D2_refusesNewerSchemaVersion();
    void durability_D2_numbersAfterMessagesAheadOfTheCounter();
    void durability_D2_deliveryJournalAddsBackDeliveries();
    void durability_D2_schemaOneIsUpgraded();
    void durability_D1_schemaTwoIsUpgraded();
    void durability_D1_schemaThreeIsUpgraded();

private:
    // Writes a real Hourglass database (a queue with 1 KB messages) and closes it cleanly.
    void createHourglassDatabase(const QString& path, int messageCount);
    void expectRefused(const QString& dir, const QString& databasePath);
};

void DurabilityRefuseTest::createHourglassDatabase(const QString& path, int messageCount) {
    auto opened = openAt(path);
    QVERIFY2(opened.ok(), errorText(opened).constData());
    Broker& broker = *opened.value();
    QVERIFY(broker.createNamespace({QStringLiteral("refuse"), Tier::Standard}).ok());
    QVERIFY(
        broker.createQueue(QStringLiteral("q"), EntityProperties::defaults(Tier::Standard)).ok());
    for (int first = 0; first < messageCount; first += 100) {
        QList<OutgoingMessage> batch;
        for (int i = first; i < std::min(messageCount, first + 100); ++i)
            batch.append(testing::TestBroker::message(QStringLiteral("m%1").arg(i),
                                                      QByteArray(1024, char('a' + i % 26))));
        const auto sent = broker.sendBatch(QStringLiteral("q"), batch);
        QVERIFY2(sent.ok(), errorText(sent).constData());
    }
}

void DurabilityRefuseTest::expectRefused(const QString& dir, const QString& databasePath) {
    const auto before = directoryState(dir);
    QVERIFY(before.contains(QFileInfo(databasePath).fileName()));

    {
        const auto opened = openAt(databasePath);
        QVERIFY2(!opened.ok(), "Broker::open accepted a database that is not a usable one of ours");
        QVERIFY2(opened.error().description.size() > 10,
                 qPrintable("unclear error: " + opened.error().toString()));
        qInfo("refused as expected: %s", errorText(opened).constData());
    }

    const auto after = directoryState(dir);
    QCOMPARE(after.keys(), before.keys());
    QVERIFY2(after == before, "the refused database was modified");
}

void DurabilityRefuseTest::durability_D2_refusesRandomBytes() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("broker.db"));
    QByteArray noise(64 * 1024, Qt::Uninitialized);
    QRandomGenerator::global()->fillRange(reinterpret_cast<quint32*>(noise.data()),
                                          noise.size() / sizeof(quint32));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    QCOMPARE(file.write(noise), noise.size());
    file.close();
    expectRefused(dir.path(), path);
}

void DurabilityRefuseTest::durability_D2_refusesTruncatedDatabase_data() {
    QTest::addColumn<int>("keepPercent"); // 0: keep only 60 bytes, inside the 100-byte header
    QTest::newRow("insideHeader") << 0;
    QTest::newRow("half") << 50;
    QTest::newRow("quarter") << 25;
}

void DurabilityRefuseTest::durability_D2_refusesTruncatedDatabase() {
    QFETCH(int, keepPercent);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("broker.db"));
    // Enough messages that metadata pages are spread over the whole file between body pages, so
    // any cut loses part of what Broker::open has to read.
    createHourglassDatabase(path, 2000);
    if (QTest::currentTestFailed())
        return;
    QVERIFY2(!QFile::exists(path + QStringLiteral("-wal")), "no clean close: a WAL file is left");

    QFile file(path);
    const qint64 pageSize = pragmaValue(path, "page_size");
    QVERIFY(pageSize > 0);
    const qint64 size =
        keepPercent == 0 ? 60 : file.size() * keepPercent / 100 / pageSize * pageSize;
    QVERIFY(size > 0 && size < file.size());
    QVERIFY(file.resize(size));
    expectRefused(dir.path(), path);
}

// The size and header are intact but the middle half of the pages is zeroed, as after a torn
// write: only reading the messages back (which Broker::open has to) can tell.
void DurabilityRefuseTest::durability_D2_refusesDamagedPages() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("broker.db"));
    createHourglassDatabase(path, 2000);
    if (QTest::currentTestFailed())
        return;
    const qint64 pageSize = pragmaValue(path, "page_size");
    QVERIFY(pageSize > 0);

    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadWrite));
    const qint64 pages = file.size() / pageSize;
    QVERIFY(pages > 8);
    QVERIFY(file.seek(pages / 4 * pageSize));
    const QByteArray zeros((pages / 2) * pageSize, '\0');
    QCOMPARE(file.write(zeros), zeros.size());
    file.close();
    expectRefused(dir.path(), path);
}

void DurabilityRefuseTest::durability_D2_refusesForeignSqliteDatabase_data() {
    QTest::addColumn<QString>("sql");
    QTest::newRow("plainSqlite") << QStringLiteral(
        "CREATE TABLE customers(id INTEGER PRIMARY KEY, name TEXT);"
        "INSERT INTO customers(name) VALUES('Ada'),('Grace');");
    QTest::newRow("otherApplicationWal") << QStringLiteral(
        "PRAGMA journal_mode=WAL; PRAGMA application_id=305419896; PRAGMA user_version=1;"
        "CREATE TABLE messages(id INTEGER PRIMARY KEY, text TEXT);"
        "INSERT INTO messages(text) VALUES('not a broker');");
    // Our table names, but not our application id: still not ours.
    QTest::newRow("lookalikeTables")
        << QStringLiteral("CREATE TABLE namespaces(name TEXT PRIMARY KEY);"
                          "CREATE TABLE entities(id INTEGER PRIMARY KEY);"
                          "INSERT INTO namespaces VALUES('x');");
}

void DurabilityRefuseTest::durability_D2_refusesForeignSqliteDatabase() {
    QFETCH(QString, sql);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("broker.db"));
    const QString error = execSql(path, sql);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    expectRefused(dir.path(), path);
}

void DurabilityRefuseTest::durability_D2_refusesNewerSchemaVersion() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("broker.db"));
    createHourglassDatabase(path, 10);
    if (QTest::currentTestFailed())
        return;
    // The database is stamped as ours, at our version (StoreSchema.h).
    QCOMPARE(pragmaValue(path, "application_id"), qint64(schema::kApplicationId));
    QCOMPARE(pragmaValue(path, "user_version"), qint64(schema::kVersion));

    const QString error =
        execSql(path, QStringLiteral("PRAGMA user_version=%1").arg(schema::kVersion + 1));
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QCOMPARE(pragmaValue(path, "user_version"), qint64(schema::kVersion + 1));
    expectRefused(dir.path(), path);
}

void DurabilityRefuseTest::durability_D2_numbersAfterMessagesAheadOfTheCounter() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("broker.db"));
    createHourglassDatabase(path, 3); // sequence numbers 1 to 3
    // What a crash between the two batches leaves: the messages stored, the counter not.
    QCOMPARE(execSql(path, QStringLiteral("UPDATE entities SET next_seq = 1")), QString());

    auto opened = openAt(path);
    QVERIFY2(opened.ok(), errorText(opened).constData());
    Broker& broker = *opened.value();
    const auto sent =
        broker.send(QStringLiteral("q"), testing::TestBroker::message(QStringLiteral("after")));
    QVERIFY2(sent.ok(), errorText(sent).constData());
    QCOMPARE(sent->sequenceNumber, 4);
    const auto counts = broker.counts(QStringLiteral("q"));
    QVERIFY(counts.ok());
    QCOMPARE(counts->active, 4);
}

// What a kill -9 leaves while messages are locked (StoreSchema.h): journal rows of hand-outs whose
// deliveries are not in the messages' counts yet, beside a message that already folded its row.
void DurabilityRefuseTest::durability_D2_deliveryJournalAddsBackDeliveries() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("broker.db"));
    createHourglassDatabase(path, 3); // sequence numbers 1 to 3, never delivered
    // Row 7 handed out 1 and 2; 2's lock ended (folded: count 1, delivery_record 7), 1's did not.
    // Row 9 handed out 1 again (its count was folded by an earlier row 4, say: count 1).
    const QByteArray oneAndTwo = schema::encodeSequenceNumbers({1, 2}).toHex();
    const QByteArray one = schema::encodeSequenceNumbers({1}).toHex();
    const QString sql =
        QStringLiteral("UPDATE messages SET delivery_count = 1, delivery_record = 7 WHERE seq = 2; "
                       "UPDATE messages SET delivery_count = 1, delivery_record = 4 WHERE seq = 1; "
                       "INSERT INTO deliveries(id, entity_id, sub_queue, seqs) "
                       "SELECT 7, id, 0, x'%1' FROM entities; "
                       "INSERT INTO deliveries(id, entity_id, sub_queue, seqs) "
                       "SELECT 9, id, 0, x'%2' FROM entities;")
            .arg(QString::fromLatin1(oneAndTwo), QString::fromLatin1(one));
    QCOMPARE(execSql(path, sql), QString());

    {
        auto opened = openAt(path);
        QVERIFY2(opened.ok(), errorText(opened).constData());
        Broker& broker = *opened.value();
        const auto listed = broker.listMessages(QStringLiteral("q"), 0, 10);
        QVERIFY2(listed.ok(), errorText(listed).constData());
        QCOMPARE(listed->size(), 3);
        QCOMPARE(listed->at(0).deliveryCount, quint32(3)); // 1 folded + rows 7 and 9
        QCOMPARE(listed->at(1).deliveryCount, quint32(1)); // row 7 already folded
        QCOMPARE(listed->at(2).deliveryCount, quint32(0));
    }
    // Opening folded the rows into the messages and forgot them: a second restart adds nothing.
    QCOMPARE(pragmaValue(path, "user_version"), qint64(schema::kVersion));
    auto reopened = openAt(path);
    QVERIFY2(reopened.ok(), errorText(reopened).constData());
    Broker& broker = *reopened.value();
    const auto got =
        broker.receive(QStringLiteral("q"), {ReceiveMode::PeekLock, 3, QStringLiteral("r")});
    QVERIFY2(got.ok(), errorText(got).constData());
    QCOMPARE(got->size(), 3);
    QCOMPARE(got->at(0).deliveryCount, quint32(4));
    QCOMPARE(got->at(1).deliveryCount, quint32(2));
    QCOMPARE(got->at(2).deliveryCount, quint32(1));
}

// Schema 1 (before the delivery journal) opens: it gets the journal and keeps every message.
void DurabilityRefuseTest::durability_D2_schemaOneIsUpgraded() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("broker.db"));
    createHourglassDatabase(path, 3);
    QCOMPARE(execSql(path, QStringLiteral("DROP TABLE deliveries; DROP TABLE settings; "
                                          "DROP TABLE sessions; "
                                          "ALTER TABLE messages DROP COLUMN delivery_record; "
                                          "ALTER TABLE bodies DROP COLUMN wire; "
                                          "PRAGMA user_version=1;")),
             QString());
    QCOMPARE(pragmaValue(path, "user_version"), qint64(1));

    auto opened = openAt(path);
    QVERIFY2(opened.ok(), errorText(opened).constData());
    Broker& broker = *opened.value();
    QCOMPARE(pragmaValue(path, "user_version"), qint64(schema::kVersion));
    const auto got =
        broker.receive(QStringLiteral("q"), {ReceiveMode::PeekLock, 10, QStringLiteral("r")});
    QVERIFY2(got.ok(), errorText(got).constData());
    QCOMPARE(got->size(), 3);
    QVERIFY(broker.abandon(LockRef::of(got->first())).ok());
    const auto again =
        broker.receive(QStringLiteral("q"), {ReceiveMode::PeekLock, 1, QStringLiteral("r")});
    QVERIFY2(again.ok(), errorText(again).constData());
    QCOMPARE(again->first().deliveryCount, quint32(2));
}

// Schema 2 (before wire extras and settings) opens: its messages stay, and the new columns and
// table work at once (a message with wire extras, a setting), also after a restart.
void DurabilityRefuseTest::durability_D1_schemaTwoIsUpgraded() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("broker.db"));
    createHourglassDatabase(path, 3);
    QCOMPARE(execSql(path, QStringLiteral("DROP TABLE settings; DROP TABLE sessions; ALTER TABLE "
                                          "bodies DROP COLUMN wire; PRAGMA user_version=2;")),
             QString());
    {
        auto opened = openAt(path);
        QVERIFY2(opened.ok(), errorText(opened).constData());
        Broker& broker = *opened.value();
        QCOMPARE(pragmaValue(path, "user_version"), qint64(schema::kVersion));
        OutgoingMessage message;
        message.messageId = QStringLiteral("extra");
        message.body = "body";
        message.wireExtras = QByteArray("\x01\x02", 2);
        QVERIFY(broker.send(QStringLiteral("q"), message).ok());
        QVERIFY(broker.setSetting(QStringLiteral("amqp.key"), QStringLiteral("secret")).ok());
    }
    auto reopened = openAt(path);
    QVERIFY2(reopened.ok(), errorText(reopened).constData());
    Broker& broker = *reopened.value();
    QCOMPARE(broker.setting(QStringLiteral("amqp.key")), QStringLiteral("secret"));
    const auto listed = broker.listMessages(QStringLiteral("q"), 0, 10, Broker::Bodies::With);
    QVERIFY2(listed.ok(), errorText(listed).constData());
    QCOMPARE(listed->size(), 4);
    QCOMPARE(listed->at(0).wireExtras, QByteArray());
    QCOMPARE(listed->at(3).messageId, QStringLiteral("extra"));
    QCOMPARE(listed->at(3).wireExtras, QByteArray("\x01\x02", 2));
    QCOMPARE(listed->at(3).body, QByteArray("body"));
}

// Schema 3 (before session states) opens: its messages stay, and a session state can be set and
// survives a restart at once (S4).
void DurabilityRefuseTest::durability_D1_schemaThreeIsUpgraded() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("broker.db"));
    createHourglassDatabase(path, 3);
    QCOMPARE(execSql(path, QStringLiteral("DROP TABLE sessions; PRAGMA user_version=3;")),
             QString());
    {
        auto opened = openAt(path);
        QVERIFY2(opened.ok(), errorText(opened).constData());
        Broker& broker = *opened.value();
        QCOMPARE(pragmaValue(path, "user_version"), qint64(schema::kVersion));
        EntityProperties properties = EntityProperties::defaults(Tier::Standard);
        properties.requiresSession = true;
        QVERIFY(broker.createQueue(QStringLiteral("sq"), properties).ok());
        const auto session =
            broker.acceptSession(QStringLiteral("sq"), {QStringLiteral("r"), QStringLiteral("A")});
        QVERIFY2(session.ok(), errorText(session).constData());
        const auto set = broker.setSessionState(SessionRef::of(*session), QByteArray("upgraded"));
        QVERIFY2(set.ok(), errorText(set).constData());
    }
    auto reopened = openAt(path);
    QVERIFY2(reopened.ok(), errorText(reopened).constData());
    Broker& broker = *reopened.value();
    const auto info = broker.session(QStringLiteral("sq"), QStringLiteral("A"));
    QVERIFY2(info.ok(), errorText(info).constData());
    QCOMPARE(info->state, QByteArray("upgraded"));
    const auto listed = broker.listMessages(QStringLiteral("q"), 0, 10);
    QVERIFY2(listed.ok(), errorText(listed).constData());
    QCOMPARE(listed->size(), 3);
}

QTEST_GUILESS_MAIN(DurabilityRefuseTest)
#include "DurabilityRefuseTest.moc"
