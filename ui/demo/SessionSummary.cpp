#include "demo/SessionSummary.h"

#include "common/BrokerClient.h"
#include "hourglass/Broker.h"
#include "hourglass/ChangeFeed.h"
#include "hourglass/EntityPath.h"

#include <algorithm>

namespace hourglass::ui {

namespace {
// The feed names paths qualified ("ns:path"); ours may be unqualified (first namespace).
bool names(const QSet<QString>& paths, const QString& ours) {
    return EntityPath::of(ours).isNamedIn(paths);
}
} // namespace

SessionSummary::SessionSummary(BrokerClient& client, QWidget* parent)
    : QLabel(parent)
    , m_client(client) {
    setTextFormat(Qt::PlainText);
    setToolTip(tr("Sessions of this entity: those holding messages, and those a receiver "
                  "holds the lock of"));
    hide();
    connect(&m_client, &BrokerClient::changed, this, &SessionSummary::onChanged);
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
    if (qualifiedPath == m_path)
        return;
    m_path = qualifiedPath;
    ++m_generation;
    m_refresh.reset();
    m_counts = {};
    setText({});
    hide();
    refresh();
}

void SessionSummary::refresh() {
    if (m_path.isEmpty() || !m_refresh.start())
        return;
    m_client.call(
        this,
        [path = m_path](Broker& broker) {
            Counts counts;
            const auto entity = broker.entity(path);
            if (!entity || entity->kind == EntityKind::Topic || !entity->properties.requiresSession)
                return counts;
            counts.sessionful = true;
            const auto sessions = broker.listSessions(path, QString(), kMaxSessions);
            if (!sessions)
                return counts;
            counts.capped = sessions->size() >= kMaxSessions;
            for (const SessionInfo& session : *sessions) {
                if (session.active + session.deferred + session.scheduled + session.locked > 0)
                    ++counts.withMessages;
                if (!session.lockedBy.isEmpty())
                    ++counts.locked;
            }
            return counts;
        },
        [this, generation = m_generation](Counts counts) {
            if (generation != m_generation)
                return;
            m_refresh.finish();
            m_counts = counts;
            setText(textFor(counts));
            setVisible(counts.sessionful);
            emit refreshed();
            if (m_refresh.takeQueued())
                refresh();
        });
}

void SessionSummary::onChanged(const ChangeBatch& batch) {
    if (m_path.isEmpty())
        return;
    if (names(batch.sessionsChanged, m_path) || names(batch.countsChanged, m_path) ||
        names(batch.messagesAdded, m_path) || names(batch.messagesRemoved, m_path) ||
        names(batch.updated, m_path) || names(batch.created, m_path) ||
        names(batch.deleted, m_path))
        refresh();
}

} // namespace hourglass::ui
