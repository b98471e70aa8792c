#include "common/MessageDrag.h"

#include "hourglass/EntityPath.h"
#include <QDataStream>
#include <QFile>
#include <QFileInfo>
#include <QIODevice>
#include <QMimeData>
#include <QMimeDatabase>
#include <QUrl>

namespace hourglass::ui {

namespace {
// Bumped if the payload's layout ever changes, so an old drag is refused rather than misread.
constexpr quint32 kPayloadVersion = 1;
// The engine's limit on a message id (a longer file name is cut, not refused).
constexpr int kMaxMessageIdLength = 128;
} // namespace

QString messagesMimeType() {
    return QStringLiteral("application/x-hourglass-messages");
}

void encodeMessages(const DraggedMessages& messages, QMimeData* mime) {
    QByteArray payload;
    QDataStream out(&payload, QIODevice::WriteOnly);
    out << kPayloadVersion << messages.sourcePath << messages.sequenceNumbers;
    mime->setData(messagesMimeType(), payload);
    mime->setText(QStringLiteral("%1 message(s) from %2")
                      .arg(messages.sequenceNumbers.size())
                      .arg(messages.sourcePath));
}

std::optional<DraggedMessages> decodeMessages(const QMimeData* mime) {
    if (!mime || !mime->hasFormat(messagesMimeType()))
        return std::nullopt;
    QDataStream in(mime->data(messagesMimeType()));
    quint32 version = 0;
    DraggedMessages messages;
    in >> version >> messages.sourcePath >> messages.sequenceNumbers;
    if (in.status() != QDataStream::Ok || version != kPayloadVersion ||
        messages.sourcePath.isEmpty() || messages.sequenceNumbers.isEmpty())
        return std::nullopt;
    return messages;
}

QStringList droppedLocalFiles(const QMimeData* mime) {
    QStringList files;
    if (!mime || !mime->hasUrls())
        return files;
    for (const QUrl& url : mime->urls())
        if (url.isLocalFile())
            files.append(url.toLocalFile());
    return files;
}

QString deadLetterOwner(const QString& path) {
    const EntityPath source = EntityPath::of(path);
    return source.isDeadLetterQueue() ? source.owner().toString() : QString();
}

Result<QList<SendResult>> dropMessages(Broker& broker, const DraggedMessages& messages,
                                       const QString& targetPath, Broker::Transfer mode) {
    if (deadLetterOwner(messages.sourcePath) == targetPath)
        return broker.resubmit(messages.sourcePath, messages.sequenceNumbers);
    return broker.transferMessages(messages.sourcePath, messages.sequenceNumbers, targetPath, mode);
}

Result<QList<SendResult>> sendFiles(Broker& broker, const QString& targetPath,
                                    const QStringList& files) {
    auto target = broker.entity(targetPath);
    if (!target)
        return target.error();
    const qint64 limit = qint64(target->properties.maxMessageSizeInKilobytes) * 1024;
    const QMimeDatabase mimeTypes;
    QList<OutgoingMessage> batch;
    for (const QString& path : files) {
        const QString name = QFileInfo(path).fileName();
        // Checked before reading, so that a huge file is neither read nor half sent; the engine
        // checks again (its size counts properties too).
        const qint64 size = QFileInfo(path).size();
        if (size > limit)
            return makeError(ErrorCode::MessageSizeExceeded,
                             QStringLiteral("'%1' is %2 bytes; '%3' accepts at most %4 bytes.")
                                 .arg(name)
                                 .arg(size)
                                 .arg(target->path)
                                 .arg(limit));
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly))
            return makeError(ErrorCode::InvalidArgument,
                             QStringLiteral("Cannot read '%1': %2").arg(name, file.errorString()));
        OutgoingMessage message;
        message.body = file.readAll();
        message.messageId = name.left(kMaxMessageIdLength);
        message.contentType = mimeTypes.mimeTypeForFileNameAndData(path, message.body).name();
        batch.append(std::move(message));
    }
    auto sent = broker.sendBatch(targetPath, batch);
    if (!sent) {
        Error error = sent.error();
        error.description =
            (files.size() == 1 ? QStringLiteral("'%1': ").arg(QFileInfo(files.first()).fileName())
                               : QStringLiteral("Sending %1 files: ").arg(files.size())) +
            error.description;
        return error;
    }
    return sent;
}

} // namespace hourglass::ui
