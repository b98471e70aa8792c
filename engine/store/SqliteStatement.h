#pragma once
// Thin RAII wrappers over the SQLite C API: a connection and a prepared statement. Statements are
// prepared once and reset after each use (prepared statements on every hot path).

#include <QByteArray>
#include <QString>

#include <optional>

struct sqlite3;
struct sqlite3_stmt;

namespace hourglass {

class SqliteConnection {
public:
    SqliteConnection() = default;
    ~SqliteConnection();
    SqliteConnection(const SqliteConnection&) = delete;
    SqliteConnection& operator=(const SqliteConnection&) = delete;

    enum class Mode { ReadWriteCreate, ReadWrite, ReadOnly };
    // Returns an empty string on success, else SQLite's message.
    QString open(const QString& path, Mode mode);
    void close();
    sqlite3* handle() const { return m_db; }

    // Runs one or more statements without results. Empty string on success.
    QString exec(const char* sql);
    // The first column of the first row of a query, as an integer (nullopt on error / no row).
    std::optional<qint64> queryInt(const char* sql, QString* error = nullptr);
    QString lastError() const;

private:
    sqlite3* m_db = nullptr;
};

class SqliteStatement {
public:
    SqliteStatement() = default;
    ~SqliteStatement();
    SqliteStatement(const SqliteStatement&) = delete;
    SqliteStatement& operator=(const SqliteStatement&) = delete;

    // Empty string on success.
    QString prepare(sqlite3* db, const char* sql);
    bool isPrepared() const { return m_stmt != nullptr; }

    void bind(int index, qint64 value);
    void bind(int index, int value) { bind(index, static_cast<qint64>(value)); }
    void bindText(int index, const QString& value); // an empty string binds NULL
    void bindBlob(int index, const QByteArray& value);
    void bindNull(int index);

    // SQLITE_ROW, SQLITE_DONE or an error code.
    int step();
    // Steps once expecting SQLITE_DONE; resets; returns an empty string or the error.
    QString run();
    void reset();

    qint64 columnInt(int index) const;
    bool columnIsNull(int index) const;
    QString columnText(int index) const;
    QByteArray columnBlob(int index) const;

    QString lastError() const;

private:
    sqlite3_stmt* m_stmt = nullptr;
    sqlite3* m_db = nullptr;
};

} // namespace hourglass
