#include "SqliteStatement.h"

#include <sqlite3.h>

namespace hourglass {

SqliteConnection::~SqliteConnection() {
    close();
}

QString SqliteConnection::open(const QString& path, Mode mode) {
    close();
    int flags = SQLITE_OPEN_NOMUTEX; // callers serialise access themselves
    switch (mode) {
    case Mode::ReadWriteCreate:
        flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
        break;
    case Mode::ReadWrite:
        flags |= SQLITE_OPEN_READWRITE;
        break;
    case Mode::ReadOnly:
        flags |= SQLITE_OPEN_READONLY;
        break;
    }
    const int rc = sqlite3_open_v2(path.toUtf8().constData(), &m_db, flags, nullptr);
    if (rc != SQLITE_OK) {
        const QString message =
            m_db ? QString::fromUtf8(sqlite3_errmsg(m_db)) : QString::fromUtf8(sqlite3_errstr(rc));
        close();
        return message.isEmpty() ? QStringLiteral("cannot open the database") : message;
    }
    sqlite3_extended_result_codes(m_db, 1);
    sqlite3_busy_timeout(m_db, 5000);
    return {};
}

void SqliteConnection::close() {
    if (m_db) {
        sqlite3_close_v2(m_db);
        m_db = nullptr;
    }
}

QString SqliteConnection::exec(const char* sql) {
    char* message = nullptr;
    const int rc = sqlite3_exec(m_db, sql, nullptr, nullptr, &message);
    if (rc == SQLITE_OK)
        return {};
    QString text = message ? QString::fromUtf8(message) : QString::fromUtf8(sqlite3_errstr(rc));
    sqlite3_free(message);
    return text;
}

std::optional<qint64> SqliteConnection::queryInt(const char* sql, QString* error) {
    SqliteStatement statement;
    const QString prepared = statement.prepare(m_db, sql);
    if (!prepared.isEmpty()) {
        if (error)
            *error = prepared;
        return std::nullopt;
    }
    const int rc = statement.step();
    if (rc == SQLITE_ROW)
        return statement.columnInt(0);
    if (error)
        *error = rc == SQLITE_DONE ? QStringLiteral("no row") : statement.lastError();
    return std::nullopt;
}

QString SqliteConnection::lastError() const {
    return m_db ? QString::fromUtf8(sqlite3_errmsg(m_db)) : QStringLiteral("no database");
}

SqliteStatement::~SqliteStatement() {
    if (m_stmt)
        sqlite3_finalize(m_stmt);
}

QString SqliteStatement::prepare(sqlite3* db, const char* sql) {
    if (m_stmt) {
        sqlite3_finalize(m_stmt);
        m_stmt = nullptr;
    }
    m_db = db;
    const int rc = sqlite3_prepare_v3(db, sql, -1, SQLITE_PREPARE_PERSISTENT, &m_stmt, nullptr);
    if (rc != SQLITE_OK)
        return QString::fromUtf8(sqlite3_errmsg(db));
    return {};
}

void SqliteStatement::bind(int index, qint64 value) {
    sqlite3_bind_int64(m_stmt, index, value);
}

void SqliteStatement::bindText(int index, const QString& value) {
    if (value.isEmpty()) {
        sqlite3_bind_null(m_stmt, index);
        return;
    }
    const QByteArray utf8 = value.toUtf8();
    sqlite3_bind_text(m_stmt, index, utf8.constData(), static_cast<int>(utf8.size()),
                      SQLITE_TRANSIENT);
}

void SqliteStatement::bindBlob(int index, const QByteArray& value) {
    if (value.isNull()) {
        sqlite3_bind_null(m_stmt, index);
        return;
    }
    // A zero-length blob is still a blob (an empty body), not NULL.
    sqlite3_bind_blob(m_stmt, index, value.constData(), static_cast<int>(value.size()),
                      SQLITE_TRANSIENT);
}

void SqliteStatement::bindNull(int index) {
    sqlite3_bind_null(m_stmt, index);
}

int SqliteStatement::step() {
    return sqlite3_step(m_stmt);
}

QString SqliteStatement::run() {
    const int rc = sqlite3_step(m_stmt);
    QString error;
    if (rc != SQLITE_DONE && rc != SQLITE_ROW)
        error = lastError();
    sqlite3_reset(m_stmt);
    return error;
}

void SqliteStatement::reset() {
    sqlite3_reset(m_stmt);
    sqlite3_clear_bindings(m_stmt);
}

qint64 SqliteStatement::columnInt(int index) const {
    return sqlite3_column_int64(m_stmt, index);
}

bool SqliteStatement::columnIsNull(int index) const {
    return sqlite3_column_type(m_stmt, index) == SQLITE_NULL;
}

QString SqliteStatement::columnText(int index) const {
    const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(m_stmt, index));
    if (!text)
        return {};
    return QString::fromUtf8(text, sqlite3_column_bytes(m_stmt, index));
}

QByteArray SqliteStatement::columnBlob(int index) const {
    const void* data = sqlite3_column_blob(m_stmt, index);
    const int size = sqlite3_column_bytes(m_stmt, index);
    if (!data)
        return sqlite3_column_type(m_stmt, index) == SQLITE_NULL ? QByteArray() : QByteArray("");
    return QByteArray(static_cast<const char*>(data), size);
}

QString SqliteStatement::lastError() const {
    return m_db ? QString::fromUtf8(sqlite3_errmsg(m_db)) : QStringLiteral("not prepared");
}

} // namespace hourglass
