#pragma once
// Why the messages of one dead-letter queue are there: DeadLetterReason -> count
// (Broker::deadLetterReasons), most frequent first, under an "All reasons" row that carries the
// total. Live: a change naming the entity's dead-letter queue re-reads the counts in the
// background (coalesced with a read in flight; replies for another entity are dropped).
//
// Threads: GUI thread only.

#include "common/CoalescedRefresh.h"
#include "hourglass/ChangeFeed.h"
#include "hourglass/Status.h"

#include <QAbstractTableModel>
#include <QList>
#include <QPair>

#include <optional>

namespace hourglass::ui {

class BrokerClient;

class DeadLetterReasonsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { ReasonColumn, CountColumn, ColumnCount };

    explicit DeadLetterReasonsModel(BrokerClient& client, QObject* parent = nullptr);

    // The entity ("ns:orders", "ns:t/Subscriptions/s") whose dead-letter queue to count; empty
    // shows nothing.
    void setEntityPath(const QString& qualifiedEntityPath);
    QString entityPath() const { return m_entityPath; }
    // Re-reads the counts (coalesced with a read in flight).
    void refresh();

    bool isLoaded() const { return m_loaded; }
    qint64 total() const { return m_total; }
    // The engine's error of the last read (entity deleted, ...), else empty.
    QString lastError() const { return m_lastError; }
    // The reason of a row; nullopt for the "All reasons" row (and out of range rows).
    std::optional<QString> reasonAt(int row) const;
    // The row of a reason, or -1.
    int rowOf(const QString& reason) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

signals:
    // A read was applied: rows, total() and lastError() may have changed.
    void refreshed();

private:
    void apply(Result<QMap<QString, qint64>> result);

    BrokerClient& m_client;
    QString m_entityPath;
    quint64 m_generation = 0; // bumped per entity: drops replies for the previous one
    bool m_loaded = false;
    CoalescedRefresh m_refresh; // one read at a time, one more queued
    qint64 m_total = 0;
    QString m_lastError;
    QList<QPair<QString, qint64>> m_reasons; // most frequent first
};

} // namespace hourglass::ui
