#include "deadletter/DeadLetterReasonsModel.h"

#include "common/BrokerClient.h"
#include "hourglass/EntityPath.h"

#include <QLocale>

#include <algorithm>

namespace hourglass::ui {

DeadLetterReasonsModel::DeadLetterReasonsModel(BrokerClient& client, QObject* parent)
    : QAbstractTableModel(parent)
    , m_client(client) {
    connect(&m_client, &BrokerClient::changed, this, [this](const ChangeBatch& batch) {
        if (!m_entityPath.isEmpty() &&
            EntityPath::of(m_entityPath).deadLetterQueue().messagesChangedIn(batch))
            refresh();
    });
}

void DeadLetterReasonsModel::setEntityPath(const QString& qualifiedEntityPath) {
    beginResetModel();
    m_entityPath = qualifiedEntityPath;
    ++m_generation;
    m_loaded = false;
    m_refresh.reset();
    m_total = 0;
    m_lastError.clear();
    m_reasons.clear();
    endResetModel();
    emit refreshed();
    refresh();
}

void DeadLetterReasonsModel::refresh() {
    if (m_entityPath.isEmpty())
        return;
    if (!m_refresh.start())
        return;
    const QString path = m_entityPath;
    const quint64 generation = m_generation;
    m_client.call(
        this, [path](Broker& broker) { return broker.deadLetterReasons(path); },
        [this, generation](Result<QMap<QString, qint64>> result) {
            if (generation != m_generation)
                return;
            m_refresh.finish();
            apply(std::move(result));
            if (m_refresh.takeQueued())
                refresh();
        });
}

void DeadLetterReasonsModel::apply(Result<QMap<QString, qint64>> result) {
    QList<QPair<QString, qint64>> reasons;
    qint64 total = 0;
    if (result) {
        for (auto it = result->begin(); it != result->end(); ++it) {
            reasons.append({it.key(), it.value()});
            total += it.value();
        }
        std::stable_sort(reasons.begin(), reasons.end(),
                         [](const auto& a, const auto& b) { return a.second > b.second; });
    }
    const bool sameRows =
        m_loaded && reasons.size() == m_reasons.size() &&
        std::equal(reasons.begin(), reasons.end(), m_reasons.begin(),
                   [](const auto& a, const auto& b) { return a.first == b.first; });
    m_lastError = result ? QString() : result.error().toString();
    m_total = total;
    if (sameRows) {
        // Only the counts moved: keep the rows (and the view's selection) in place.
        m_reasons = std::move(reasons);
        if (rowCount() > 0)
            emit dataChanged(index(0, CountColumn), index(rowCount() - 1, CountColumn));
    } else {
        beginResetModel();
        m_reasons = std::move(reasons);
        m_loaded = true;
        endResetModel();
    }
    emit refreshed();
}

std::optional<QString> DeadLetterReasonsModel::reasonAt(int row) const {
    if (row < 1 || row > m_reasons.size())
        return std::nullopt;
    return m_reasons.at(row - 1).first;
}

int DeadLetterReasonsModel::rowOf(const QString& reason) const {
    for (int i = 0; i < m_reasons.size(); ++i)
        if (m_reasons.at(i).first == reason)
            return i + 1;
    return -1;
}

int DeadLetterReasonsModel::rowCount(const QModelIndex& parent) const {
    // Row 0 is "All reasons"; shown once there is something to count.
    if (parent.isValid() || !m_loaded || m_reasons.isEmpty())
        return 0;
    return int(m_reasons.size()) + 1;
}

int DeadLetterReasonsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant DeadLetterReasonsModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const std::optional<QString> reason = reasonAt(index.row());
    const qint64 count = reason ? m_reasons.at(index.row() - 1).second : m_total;
    if (index.column() == ReasonColumn) {
        switch (role) {
        case Qt::DisplayRole:
            if (!reason)
                return tr("All reasons");
            return reason->isEmpty() ? tr("(no reason)") : *reason;
        case Qt::ToolTipRole:
            return reason ? *reason : tr("Every dead-lettered message");
        case Qt::UserRole:
            return reason ? *reason : QVariant();
        default:
            return {};
        }
    }
    switch (role) {
    case Qt::DisplayRole:
        return QLocale().toString(count);
    case Qt::UserRole:
        return count;
    case Qt::TextAlignmentRole:
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    default:
        return {};
    }
}

QVariant DeadLetterReasonsModel::headerData(int section, Qt::Orientation orientation,
                                            int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case ReasonColumn:
        return tr("Reason");
    case CountColumn:
        return tr("Messages");
    default:
        return {};
    }
}

} // namespace hourglass::ui
