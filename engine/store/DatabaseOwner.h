#pragma once
// One owner per database: the process that opens a database holds an exclusive flock() on a file
// beside it, "<database>.owner", for as long as the database is open. The operating system
// releases the lock when the process ends however it ends (kill -9 included), so a stale owner
// never locks a database out. A second opener, in another process or in the same one (two open
// file descriptions conflict), is refused at once with DatabaseInUse naming the holder.
//
// Why a file beside the database and not a lock on it: SQLite's own POSIX locks on the database
// are dropped whenever any descriptor of that file closes in the process, and SQLite changes
// them as it works; flock() on a file of our own is independent of both.
//
// The file names its owner, one "key=value" line each: program (who opened it), pid, and detail
// (e.g. the AMQP address serve listens on, written once it is known). The owner removes the file
// when the database closes (and when opening fails, so a refused foreign file's folder is left
// as it was); an opener that locked a file just removed sees it is no longer the one at the path
// and tries again, so two openers never hold two different files.

#include "hourglass/Status.h"

#include <QString>

#include <memory>

namespace hourglass {

class DatabaseOwner {
public:
    // Claims `databasePath` for `program` (e.g. "hourglass serve"); DatabaseInUse when another
    // owner holds it, GeneralError when the owner file cannot be created or locked.
    static Result<std::unique_ptr<DatabaseOwner>> claim(const QString& databasePath,
                                                        const QString& program);
    ~DatabaseOwner();
    DatabaseOwner(const DatabaseOwner&) = delete;
    DatabaseOwner& operator=(const DatabaseOwner&) = delete;

    // Rewrites what the file says about the owner, keeping the lock (e.g. once serve's port is
    // known).
    void describe(const QString& detail);

    // The owner file of a database: beside the file the path resolves to, so that two spellings
    // of one database (relative, through a symbolic link) share one owner file.
    static QString ownerFilePath(const QString& databasePath);

private:
    DatabaseOwner(int fd, QString path, QString program)
        : m_fd(fd)
        , m_path(std::move(path))
        , m_program(std::move(program)) {}
    void write(const QString& detail);

    int m_fd = -1;
    QString m_path; // of the owner file
    QString m_program;
};

} // namespace hourglass
