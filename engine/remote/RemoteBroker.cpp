// RemoteBroker (RemoteBroker.h): construction, the namespace and its clock, and the calls only a
// hosted namespace answers. The entities are in RemoteBrokerEntities.cpp.
#include "RemoteBrokerState.h"

#include "hourglass/EntityPath.h"

namespace hourglass::remote {

RemoteBrokerOptions RemoteBrokerOptions::forConnection(const ConnectionString& connection) {
    RemoteBrokerOptions options;
    options.connection = connection;
    options.admin = AdminClientOptions::forConnection(connection);
    if (!connection.entityPath.isEmpty())
        options.namedEntities.append(namedEntityOf(connection.entityPath));
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

QString unqualified(const QString& path) {
    const qsizetype colon = path.indexOf(u':');
    return colon < 0 ? path : path.mid(colon + 1);
}

LockRef unqualified(const LockRef& lock) {
    LockRef local = lock;
    local.entityPath = unqualified(lock.entityPath);
    return local;
}

SessionRef unqualified(const SessionRef& session) {
    SessionRef local = session;
    local.entityPath = unqualified(session.entityPath);
    return local;
}

QString namespaceNameOf(const ConnectionString& connection) {
    QString name = connection.host.section(u'.', 0, 0);
    for (QChar& c : name)
        if (!(c.isLetterOrNumber() && c.unicode() < 128) && c != u'-')
            c = u'-';
    // An IPv6 address is all separators: a name still.
    return name.isEmpty() || name.count(u'-') == name.size() ? QStringLiteral("namespace") : name;
}

QString RemoteBroker::State::namespaceName() const {
    return namespaceNameOf(options.connection);
}

QString RemoteBroker::State::qualified(const QString& path) const {
    return namespaceName() + u':' + path;
}

Result<void> RemoteBroker::State::refuseWhenReadOnly() const {
    if (options.readOnly)
        return makeError(ErrorCode::InvalidArgument,
                         QStringLiteral("This connection is read-only."));
    return {};
}

void RemoteBroker::State::changed(const EntityInfo& entity, bool created) {
    if (created)
        feed.markCreated(qualified(entity.path));
    else
        feed.markUpdated(qualified(entity.path));
    if (poll)
        poll->remember(entity);
}

void RemoteBroker::State::deleted(const QString& path) {
    feed.markDeleted(qualified(path));
    if (poll)
        poll->forget(path);
}

RemoteBroker::RemoteBroker(RemoteBrokerOptions options)
    : m_state(std::make_unique<State>(std::move(options))) {
    State& state = *m_state;
    state.poll =
        std::make_unique<CountsPoll>([&state] { return state.listEntities(); }, state.feed,
                                     state.options.pollInterval, state.namespaceName() + u':');
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

bool RemoteBroker::listsNamedOnly() const {
    return m_state->namedOnly;
}

Instant RemoteBroker::connectionLostAt() const {
    return m_state->amqp->connectionLostAt();
}

QString RemoteBroker::connectionProblem() const {
    return m_state->amqp->connectionProblem();
}

Instant RemoteBroker::lastConnectionBreakAt() const {
    return m_state->amqp->lastConnectionBreakAt();
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
