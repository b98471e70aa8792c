#pragma once
// Messages already in hand (peek results, held locks, a dead-letter page, search hits) as a table
// with the columns, roles and countdowns of MessageListModel, so that CountdownDelegate,
// CountdownTicker and sorting by Qt::UserRole work on it unchanged. It adds the dead-letter
// columns; a panel hides the columns it does not need. Meant for bounded lists (the caller
// decides how many messages to hold); the million-row list is MessageListModel's job.
//
// Threads: GUI thread only.

#include "messages/MessageListModel.h"

#include <QAbstractTableModel>
#include <QList>

namespace hourglass::ui {

class BrokerClient;

class MessageViewModel : public QAbstractTableModel {
    Q_OBJECT
public:
    // MessageListModel's columns first, in its order (same numbers), then these.
    enum Column {
        DeadLetterReasonColumn = MessageListModel::ColumnCount,
        DeadLetterDescriptionColumn,
        DeadLetterSourceColumn,
        ColumnCount
    };

    // The client gives the clock the countdowns run on.
    explicit MessageViewModel(BrokerClient& client, QObject* parent = nullptr);

    void setMessages(QList<MessageView> messages);
    void appendMessages(const QList<MessageView>& messages);
    // Replaces the row holding the same sequence number, or appends the message.
    void upsert(const MessageView& message);
    void removeMessage(qint64 sequenceNumber);
    void clear();

    const QList<MessageView>& messages() const { return m_messages; }
    const MessageView& messageAt(int row) const { return m_messages.at(row); }
    // The row of a sequence number, or -1.
    int rowOf(qint64 sequenceNumber) const;
    // The span a full lock bar stands for (the entity's LockDuration); 0 draws no bar length.
    void setLockDuration(Millis lockDuration);
    // Repaints the countdown columns of rows first..last (connect CountdownTicker to it).
    void refreshCountdowns(int firstRow, int lastRow);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    BrokerClient& m_client;
    QList<MessageView> m_messages;
    Millis m_lockDuration = 0;
};

} // namespace hourglass::ui
