// RemoteBroker (RemoteBroker.h): construction, the namespace and its clock, and the calls only a
// hosted namespace answers. The entities are in RemoteBrokerEntities.cpp.
#include "RemoteBrokerState.h"

#include "hourglass/EntityPath.h"

namespace hourglass::remote {

RemoteBrokerOptions RemoteBrokerOptions::forConnection(const ConnectionString& connection) {
    RemoteBrokerOptions options;
    options.connection = connection;
    options.admin = AdminClientOptions::forConnection(connection);
    return options;
}

Error onlyWhenHosted(const QString& what) {
    return makeError(
        ErrorCode::InvalidArgument,
        QStringLiteral("%1 is only available on a namespace this window hosts.").arg(what));
}

RemoteBroker::State::State(RemoteBrokerOptions brokerOptions)
    : options(std::move(brokerOptions))
    , admin(options.admin)
    , amqp(std::make_unique<AmqpClient>(options.connection, options.amqp)) {}

QString RemoteBroker::State::namespaceName() const {
    return options.connection.displayName();
}

Result<void> RemoteBroker::State::refuseWhenReadOnly() const {
    if (options.readOnly)
        return makeError(ErrorCode::InvalidArgument,
                         QStringLiteral("This connection is read-only."));
    return {};
}

void RemoteBroker::State::changed(const EntityInfo& entity, bool created) {
    if (created)
        feed.markCreated(entity.path);
    else
        feed.markUpdated(entity.path);
    if (poll)
        poll->remember(entity);
}

void RemoteBroker::State::deleted(const QString& path) {
    feed.markDeleted(path);
    if (poll)
        poll->forget(path);
}

RemoteBroker::RemoteBroker(RemoteBrokerOptions options)
    : m_state(std::make_unique<State>(std::move(options))) {
    State& state = *m_state;
    state.poll = std::make_unique<CountsPoll>([&state] { return state.listEntities(); }, state.feed,
                                              state.options.pollInterval);
}

RemoteBroker::~RemoteBroker() {
    m_state->poll.reset();
    m_state->endWaits();
    m_state->amqp->close(); // its links end: the locks they hold go back
}

const RemoteBrokerOptions& RemoteBroker::options() const {
    return m_state->options;
}

bool RemoteBroker::isReadOnly() const {
    return m_state->options.readOnly;
}

std::chrono::milliseconds RemoteBroker::pollInterval() const {
    return m_state->poll->interval();
}

void RemoteBroker::setPollInterval(std::chrono::milliseconds interval) {
    m_state->poll->setInterval(interval);
}

Instant RemoteBroker::lastPollAt() const {
    return m_state->poll->lastPollAt();
}

QString RemoteBroker::lastListError() const {
    std::lock_guard lock(m_state->listErrorMutex);
    return m_state->listError;
}

void RemoteBroker::describeOwner(const QString&) {}

Result<void> RemoteBroker::createNamespace(const NamespaceInfo&) {
    return onlyWhenHosted(QStringLiteral("Creating a namespace"));
}

Result<void> RemoteBroker::deleteNamespace(const QString&) {
    return onlyWhenHosted(QStringLiteral("Deleting a namespace"));
}

QList<NamespaceInfo> RemoteBroker::namespaces() const {
    NamespaceInfo info;
    info.name = m_state->namespaceName();
    return {info};
}

QString RemoteBroker::setting(const QString&) const {
    return {};
}

Result<void> RemoteBroker::setSetting(const QString&, const QString&) {
    return onlyWhenHosted(QStringLiteral("A database setting"));
}

Result<EntityFlow> RemoteBroker::flow(const QString&) const {
    return onlyWhenHosted(QStringLiteral("The flow count"));
}

Result<Broker::SequenceIndex> RemoteBroker::sequenceIndex(const QString&, int) const {
    return onlyWhenHosted(QStringLiteral("Paging by sequence index"));
}

Clock& RemoteBroker::clock() const {
    return m_state->clock;
}

int RemoteBroker::runDue() {
    return 0; // the service keeps its own time
}

Instant RemoteBroker::nextDueAt() const {
    return kNever;
}

Result<void> RemoteBroker::advanceClock(Millis) {
    return onlyWhenHosted(QStringLiteral("The virtual clock"));
}

ChangeFeed* RemoteBroker::changes() const {
    return &m_state->feed;
}

QString RemoteBroker::databasePath() const {
    return {};
}

void RemoteBroker::setOperationObserver(std::shared_ptr<OperationObserver>) {}

bool RemoteBroker::hasOperationObserver() const {
    return false;
}

BrokerCapabilities RemoteBroker::capabilities() const {
    BrokerCapabilities capabilities;
    capabilities.hostsDatabase = false;
    capabilities.listsSessions = true; // com.microsoft:get-message-sessions
    return capabilities;
}

} // namespace hourglass::remote
