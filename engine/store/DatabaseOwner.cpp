#include "DatabaseOwner.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace hourglass {

namespace {
// The owner file is written by another process: read a little of it, and keep only short,
// printable values of it in an error text.
constexpr qsizetype kOwnerFileReadBytes = 1024;
constexpr qsizetype kValueChars = 80;

QString printablePrefix(const QString& value) {
    QString out;
    for (const QChar c : value.left(kValueChars)) {
        if (c.isPrint())
            out.append(c);
    }
    return out.trimmed();
}

QString ownerFileValue(const QString& contents, const QString& key) {
    const QString prefix = key + u'=';
    for (const QString& line : contents.split(u'\n')) {
        if (line.startsWith(prefix))
            return printablePrefix(line.mid(prefix.size()));
    }
    return {};
}

// "hourglass serve (pid 1234, AMQP on 127.0.0.1:5672)" from the holder's owner file.
QString describeHolder(int fd) {
    QByteArray bytes(kOwnerFileReadBytes, Qt::Uninitialized);
    const ssize_t got = ::pread(fd, bytes.data(), bytes.size(), 0);
    bytes.resize(got > 0 ? got : 0);
    const QString contents = QString::fromUtf8(bytes);
    QString program = ownerFileValue(contents, QStringLiteral("program"));
    if (program.isEmpty())
        program = QStringLiteral("another Hourglass process");
    QStringList about;
    bool pidOk = false;
    const qint64 pid = ownerFileValue(contents, QStringLiteral("pid")).toLongLong(&pidOk);
    if (pidOk && pid > 0)
        about.append(QStringLiteral("pid %1").arg(pid));
    if (const QString detail = ownerFileValue(contents, QStringLiteral("detail"));
        !detail.isEmpty())
        about.append(detail);
    return about.isEmpty()
               ? program
               : QStringLiteral("%1 (%2)").arg(program, about.join(QStringLiteral(", ")));
}
} // namespace

QString DatabaseOwner::ownerFilePath(const QString& databasePath) {
    const QFileInfo info(databasePath);
    QString resolved = info.canonicalFilePath(); // the database exists: follow links
    if (resolved.isEmpty()) {
        const QString folder = QFileInfo(info.absolutePath()).canonicalFilePath();
        resolved =
            folder.isEmpty() ? info.absoluteFilePath() : QDir(folder).filePath(info.fileName());
    }
    return resolved + QStringLiteral(".owner");
}

Result<std::unique_ptr<DatabaseOwner>> DatabaseOwner::claim(const QString& databasePath,
                                                            const QString& program) {
    const QString ownerPath = ownerFilePath(databasePath);
    const QByteArray native = QFile::encodeName(ownerPath);
    int fd = -1;
    int locked = -1;
    // A few tries: each one that fails to match lost a race with an owner removing its file.
    for (int attempt = 0; attempt < 100 && locked != 0; ++attempt) {
        // Never truncated on open: the holder's description must survive a refused opener.
        fd = ::open(native.constData(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
        if (fd < 0)
            return makeError(ErrorCode::GeneralError,
                             QStringLiteral("cannot create %1 to claim the database: %2")
                                 .arg(ownerPath, QString::fromLocal8Bit(std::strerror(errno))));
        do {
            locked = ::flock(fd, LOCK_EX | LOCK_NB);
        } while (locked != 0 && errno == EINTR);
        if (locked != 0)
            break;
        // Locked: but is it still the file at the path (its owner may have removed it between
        // our open and our lock)?
        struct stat held {};
        struct stat named {};
        if (::fstat(fd, &held) == 0 && ::stat(native.constData(), &named) == 0 &&
            held.st_dev == named.st_dev && held.st_ino == named.st_ino)
            break;
        ::close(fd);
        fd = -1;
        locked = -1;
    }
    if (fd < 0)
        return makeError(ErrorCode::GeneralError,
                         QStringLiteral("cannot claim %1: it keeps changing").arg(ownerPath));
    if (locked != 0) {
        const int why = errno;
        if (why == EWOULDBLOCK) {
            const QString holder = describeHolder(fd);
            ::close(fd);
            return makeError(ErrorCode::DatabaseInUse,
                             QStringLiteral("The database %1 is open in %2. Close it there, or "
                                            "open another database.")
                                 .arg(QDir::toNativeSeparators(databasePath), holder));
        }
        ::close(fd);
        return makeError(ErrorCode::GeneralError,
                         QStringLiteral("cannot lock %1: %2")
                             .arg(ownerPath, QString::fromLocal8Bit(std::strerror(why))));
    }
    std::unique_ptr<DatabaseOwner> owner(new DatabaseOwner(
        fd, ownerPath, program.isEmpty() ? QStringLiteral("an Hourglass process") : program));
    owner->write({});
    return owner;
}

DatabaseOwner::~DatabaseOwner() {
    // Removed while still locked (an opener that locks the removed file sees it is gone and
    // tries again); closing the descriptor releases the lock.
    (void)::ftruncate(m_fd, 0);
    ::unlink(QFile::encodeName(m_path).constData());
    ::close(m_fd);
}

void DatabaseOwner::describe(const QString& detail) {
    write(detail);
}

void DatabaseOwner::write(const QString& detail) {
    QString text = QStringLiteral("program=%1\npid=%2\n")
                       .arg(m_program)
                       .arg(QCoreApplication::applicationPid());
    if (!detail.isEmpty())
        text += QStringLiteral("detail=%1\n").arg(detail);
    const QByteArray bytes = text.toUtf8();
    // Best effort: the lock is what keeps a second owner out; the text only names the holder.
    if (::ftruncate(m_fd, 0) == 0)
        (void)::pwrite(m_fd, bytes.constData(), bytes.size(), 0);
}

} // namespace hourglass
