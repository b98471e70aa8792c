// NamespaceTreeModel as a drop target (see the header): messages dragged from a message list or
// a dead-letter list, and files dragged from the desktop.
#include "common/MessageDrag.h"
#include "common/MessageTransfer.h"
#include "tree/NamespaceTreeModel.h"

#include <QFileInfo>
#include <QMimeData>

namespace hourglass::ui {

namespace {

using NodeKind = NamespaceTreeModel::NodeKind;

} // namespace

Qt::ItemFlags NamespaceTreeModel::flags(const QModelIndex& index) const {
    Qt::ItemFlags flags = QAbstractItemModel::flags(index);
    const auto kind = NodeKind(index.data(KindRole).toInt());
    if (index.isValid() && kind != NodeKind::Namespace && kind != NodeKind::DeadLetterQueue)
        flags |= Qt::ItemIsDropEnabled;
    return flags;
}

Qt::DropActions NamespaceTreeModel::supportedDropActions() const {
    return Qt::MoveAction | Qt::CopyAction;
}

QStringList NamespaceTreeModel::mimeTypes() const {
    return {messagesMimeType(), QStringLiteral("text/uri-list")};
}

// A tree drop lands on a row (the view uses overwrite mode); row >= 0 names a child of parent.
QModelIndex NamespaceTreeModel::dropTarget(int row, int column, const QModelIndex& parent) const {
    return row >= 0 ? index(row, std::max(column, 0), parent) : parent;
}

std::optional<Error> NamespaceTreeModel::dropRefusal(const QMimeData* data, Qt::DropAction action,
                                                     const QModelIndex& target) const {
    const auto refuse = [](ErrorCode code, const QString& text) {
        return std::optional<Error>(makeError(code, text));
    };
    const EntityInfo* info = entityAt(target);
    const auto kind = NodeKind(target.data(KindRole).toInt());
    if (!info)
        return refuse(ErrorCode::InvalidArgument,
                      tr("Drop onto a queue, a topic or a subscription."));
    if (kind == NodeKind::DeadLetterQueue)
        return refuse(ErrorCode::InvalidArgument,
                      tr("A dead-letter queue only takes messages by dead-lettering."));
    if (action != Qt::MoveAction && action != Qt::CopyAction)
        return refuse(ErrorCode::InvalidArgument, tr("Messages can only be moved or copied."));
    if (info->properties.status == EntityStatus::Disabled ||
        info->properties.status == EntityStatus::SendDisabled)
        return refuse(ErrorCode::MessagingEntityDisabled,
                      tr("'%1' is %2: it accepts no messages.")
                          .arg(info->path, entityStatusName(info->properties.status)));
    const QString targetPath = target.data(PathRole).toString();
    if (const auto messages = decodeMessages(data)) {
        if (messages->sourcePath == targetPath)
            return refuse(ErrorCode::InvalidArgument,
                          tr("The messages are already in '%1'.").arg(info->path));
        return std::nullopt;
    }
    const QStringList files = droppedLocalFiles(data);
    if (files.isEmpty())
        return refuse(ErrorCode::InvalidArgument, tr("Only messages and local files drop here."));
    if (kind == NodeKind::Subscription)
        return refuse(ErrorCode::InvalidArgument,
                      tr("Files are sent to a queue or a topic, not to a subscription."));
    const qint64 limit = qint64(info->properties.maxMessageSizeInKilobytes) * 1024;
    for (const QString& file : files) {
        // A stat, not a read: cheap enough while dragging.
        const QFileInfo fileInfo(file);
        if (fileInfo.isDir())
            return refuse(ErrorCode::InvalidArgument,
                          tr("'%1' is a folder, not a file.").arg(fileInfo.fileName()));
        if (fileInfo.size() > limit)
            return refuse(ErrorCode::MessageSizeExceeded,
                          tr("'%1' is %2 bytes; '%3' accepts messages up to %4 bytes.")
                              .arg(fileInfo.fileName())
                              .arg(fileInfo.size())
                              .arg(info->path)
                              .arg(limit));
    }
    return std::nullopt;
}

bool NamespaceTreeModel::canDropMimeData(const QMimeData* data, Qt::DropAction action, int row,
                                         int column, const QModelIndex& parent) const {
    return !dropRefusal(data, action, dropTarget(row, column, parent)).has_value();
}

bool NamespaceTreeModel::dropMimeData(const QMimeData* data, Qt::DropAction action, int row,
                                      int column, const QModelIndex& parent) {
    const QModelIndex target = dropTarget(row, column, parent);
    if (auto refusal = dropRefusal(data, action, target)) {
        emit dropFailed(*refusal);
        return false;
    }
    const QString targetPath = target.data(PathRole).toString();
    const QString targetName = entityAt(target)->path;
    const auto report = [this](QString text) {
        return [this, text](Result<QList<SendResult>> result) {
            if (result)
                emit dropFinished(text.arg(countOf(result->size(), tr("message"))));
            else
                emit dropFailed(result.error());
        };
    };
    if (const auto messages = decodeMessages(data)) {
        // The same path as the lists' Move to… and Copy to… (MessageTransfer.h).
        transferMessages(
            m_client, this, *messages, targetPath, targetName,
            action == Qt::CopyAction ? Broker::Transfer::Copy : Broker::Transfer::Move,
            [this](const QString& text) { emit dropFinished(text); },
            [this](const Error& error) { emit dropFailed(error); });
        return true;
    }
    const QStringList files = droppedLocalFiles(data);
    m_client.call(
        this, [files, targetPath](Broker& broker) { return sendFiles(broker, targetPath, files); },
        report(tr("Sent %1 to '%2' from %3.")
                   .arg(QStringLiteral("%1"), targetName, countOf(files.size(), tr("file")))));
    return true;
}

} // namespace hourglass::ui
