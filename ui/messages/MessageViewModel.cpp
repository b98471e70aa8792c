#include "messages/MessageViewModel.h"

#include "common/BrokerClient.h"
#include "messages/MessageColumns.h"

namespace hourglass::ui {

MessageViewModel::MessageViewModel(BrokerClient& client, QObject* parent)
    : QAbstractTableModel(parent)
    , m_client(client) {}

void MessageViewModel::setMessages(QList<MessageView> messages) {
    beginResetModel();
    m_messages = std::move(messages);
    endResetModel();
}

void MessageViewModel::appendMessages(const QList<MessageView>& messages) {
    if (messages.isEmpty())
        return;
    const int first = int(m_messages.size());
    beginInsertRows({}, first, first + int(messages.size()) - 1);
    m_messages.append(messages);
    endInsertRows();
}

void MessageViewModel::upsert(const MessageView& message) {
    const int row = rowOf(message.sequenceNumber);
    if (row < 0) {
        appendMessages({message});
        return;
    }
    m_messages[row] = message;
    emit dataChanged(index(row, 0), index(row, ColumnCount - 1));
}

void MessageViewModel::removeMessage(qint64 sequenceNumber) {
    const int row = rowOf(sequenceNumber);
    if (row < 0)
        return;
    beginRemoveRows({}, row, row);
    m_messages.removeAt(row);
    endRemoveRows();
}

void MessageViewModel::clear() {
    setMessages({});
}

int MessageViewModel::rowOf(qint64 sequenceNumber) const {
    for (int row = 0; row < m_messages.size(); ++row)
        if (m_messages[row].sequenceNumber == sequenceNumber)
            return row;
    return -1;
}

void MessageViewModel::setLockDuration(Millis lockDuration) {
    m_lockDuration = lockDuration;
    if (!m_messages.isEmpty())
        refreshCountdowns(0, int(m_messages.size()) - 1);
}

void MessageViewModel::refreshCountdowns(int firstRow, int lastRow) {
    firstRow = std::max(firstRow, 0);
    lastRow = std::min(lastRow, int(m_messages.size()) - 1);
    if (firstRow > lastRow)
        return;
    const QList<int> roles{Qt::DisplayRole, Qt::UserRole, MessageListModel::CountdownRole};
    for (int column : {int(MessageListModel::StateColumn), int(MessageListModel::TimeToLiveColumn),
                       int(MessageListModel::LockColumn)})
        emit dataChanged(index(firstRow, column), index(lastRow, column), roles);
}

int MessageViewModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(m_messages.size());
}

int MessageViewModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant MessageViewModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.model() != this || index.row() >= m_messages.size())
        return {};
    const MessageView& m = m_messages[index.row()];
    const int column = index.column();
    switch (role) {
    case Qt::DisplayRole:
        return columns::display(m, column, m_client.clock().now(), m_lockDuration);
    case Qt::UserRole:
        return columns::raw(m, column, m_client.clock().now(), m_lockDuration);
    case Qt::TextAlignmentRole:
        return columns::alignment(column);
    case Qt::ToolTipRole:
        return columns::toolTip(m, column);
    case MessageListModel::ExpiresAtRole:
        return m.expiresAt;
    case MessageListModel::LockedUntilRole:
        return m.lockedUntil;
    case MessageListModel::CountdownRole:
        return columns::countdown(m, column, m_client.clock().now(), m_lockDuration);
    default:
        return {};
    }
}

QVariant MessageViewModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    return columns::header(section);
}

} // namespace hourglass::ui
