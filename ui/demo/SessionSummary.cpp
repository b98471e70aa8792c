#include "demo/SessionSummary.h"

#include "sessions/SessionListModel.h"

namespace hourglass::ui {

SessionSummary::SessionSummary(BrokerClient& client, QWidget* parent)
    : QLabel(parent)
    , m_sessions(new SessionListModel(client, this, kMaxSessions)) {
    setTextFormat(Qt::PlainText);
    setToolTip(tr("Sessions of this entity: those holding messages, and those a receiver "
                  "holds the lock of"));
    hide();
    connect(m_sessions, &SessionListModel::refreshed, this, &SessionSummary::count);
}

QString SessionSummary::textFor(const Counts& counts) {
    if (!counts.sessionful)
        return {};
    const QString more = counts.capped ? QStringLiteral("+") : QString();
    return tr("Sessions: %1%2 with messages · %3%2 locked")
        .arg(counts.withMessages)
        .arg(more)
        .arg(counts.locked);
}

void SessionSummary::setPath(const QString& qualifiedPath) {
    if (qualifiedPath == m_sessions->path())
        return;
    m_counts = {};
    setText({});
    hide();
    m_sessions->setPath(qualifiedPath);
}

void SessionSummary::count() {
    // The model says so on a new path too, before it has read anything: nothing to count yet.
    if (m_sessions->availability() == SessionListModel::Availability::Unknown)
        return;
    Counts counts;
    counts.sessionful = m_sessions->availability() == SessionListModel::Availability::Sessionful;
    if (counts.sessionful) {
        const int rows = m_sessions->rowCount();
        counts.capped = rows >= kMaxSessions;
        for (int row = 0; row < rows; ++row) {
            const SessionInfo& session = m_sessions->sessionAt(row);
            if (session.active + session.deferred + session.scheduled + session.locked > 0)
                ++counts.withMessages;
            if (!session.lockedBy.isEmpty())
                ++counts.locked;
        }
    }
    m_counts = counts;
    setText(textFor(counts));
    setVisible(counts.sessionful);
    emit refreshed();
}

} // namespace hourglass::ui
