#include "hourglass/Broker.h"

#include "BrokerWrite.h"
#include "EmbeddedBroker.h"

namespace hourglass {

// ---- Helpers shared by the Broker*.cpp files

qint64 messageSize(const OutgoingMessage& m) {
    qint64 size = m.body.size() + m.wireExtras.size();
    for (const SystemTextProperty& property : kSystemTextProperties)
        size += (m.*property.member).toUtf8().size();
    if (!m.applicationProperties.isEmpty())
        size += encodeProperties(m.applicationProperties).size();
    return size;
}

OutgoingMessage outgoingFromStored(const StoredMessage& row) {
    OutgoingMessage m;
    m.systemProperties() = row.systemProperties();
    m.body = row.body;
    m.wireExtras = row.wireExtras;
    m.applicationProperties = decodeProperties(row.applicationProperties);
    return m;
}

LockRef LockRef::of(const MessageView& message) {
    LockRef ref;
    ref.entityPath = message.subQueue == SubQueue::DeadLetter
                         ? message.entityPath + kDeadLetterSuffix
                         : message.entityPath;
    ref.lockToken = message.lockToken;
    ref.receiver = message.lockHolder;
    return ref;
}

// ---- BrokerImpl: construction, loading, resolution

BrokerImpl::BrokerImpl(std::unique_ptr<Store> store, std::shared_ptr<Clock> clock)
    : m_store(std::move(store))
    , m_clock(std::move(clock))
    , m_feed(std::make_unique<ChangeFeed>()) {}

Tier BrokerImpl::tierOf(const QString& namespaceName) const {
    for (const auto& ns : m_namespaces) {
        if (ns.name.compare(namespaceName, Qt::CaseInsensitive) == 0)
            return ns.tier;
    }
    return Tier::Standard;
}

Result<QString> BrokerImpl::namespaceOf(const ParsedPath& parsed) const {
    if (parsed.namespaceName.isEmpty()) {
        if (m_namespaces.empty())
            return makeError(ErrorCode::MessagingEntityNotFound,
                             QStringLiteral("There is no namespace yet; create one first."));
        return m_namespaces.front().name;
    }
    for (const auto& ns : m_namespaces) {
        if (ns.name.compare(parsed.namespaceName, Qt::CaseInsensitive) == 0)
            return ns.name;
    }
    return makeError(
        ErrorCode::MessagingEntityNotFound,
        QStringLiteral("The namespace '%1' does not exist.").arg(parsed.namespaceName));
}

Result<BrokerImpl::Target> BrokerImpl::resolve(const QString& path) const {
    if (const auto it = m_resolved.constFind(path); it != m_resolved.cend())
        return it.value();
    auto target = resolveUncached(path);
    if (target) {
        if (m_resolved.size() > 4096)
            m_resolved.clear();
        m_resolved.insert(path, *target);
    }
    return target;
}

Result<BrokerImpl::Target> BrokerImpl::resolveUncached(const QString& path) const {
    auto parsed = parseEntityPath(path);
    if (!parsed)
        return parsed.error();
    auto ns = namespaceOf(*parsed);
    if (!ns)
        return ns.error();
    Entity* entity = m_registry.find(*ns, parsed->entityPath);
    if (!entity)
        return makeError(ErrorCode::MessagingEntityNotFound,
                         QStringLiteral("The messaging entity '%1' could not be found in "
                                        "namespace '%2'.")
                             .arg(parsed->entityPath, *ns));
    if (parsed->deadLetter && entity->kind == EntityKind::Topic)
        return makeError(ErrorCode::InvalidArgument,
                         QStringLiteral("A topic has no dead-letter queue; its subscriptions do."));
    return Target{entity, parsed->deadLetter ? SubQueue::DeadLetter : SubQueue::Main};
}

Result<BrokerImpl::Target> BrokerImpl::fireDueAndResolve(const QString& path, Instant& now) {
    now = m_clock->now();
    processDue(now);
    return resolve(path);
}

// ---- Broker facade

Broker::~Broker() = default;

// The constructor, and the operations an OperationObserver hears about: BrokerObserved.cpp.

Result<std::unique_ptr<Broker>> Broker::open(const BrokerOptions& options) {
    // One owner per database, claimed before anything reads the file: a database open
    // elsewhere (another process, or another broker of this one) is not even read.
    if (options.databasePath.isEmpty())
        return makeError(ErrorCode::InvalidArgument, QStringLiteral("no database path given"));
    auto owner = DatabaseOwner::claim(options.databasePath, options.owner);
    if (!owner)
        return owner.error();
    const auto sync =
        options.durability == Durability::PowerSafe ? Store::Sync::Full : Store::Sync::Normal;
    auto store = Store::open(options.databasePath, sync, std::move(owner).value());
    if (!store)
        return store.error();
    std::shared_ptr<Clock> clock = options.clock;
    if (!clock)
        clock = std::make_shared<SystemClock>();
    auto impl = std::make_unique<BrokerImpl>(std::move(store).value(), std::move(clock));
    {
        BrokerWrite write(*impl);
        if (auto loaded = impl->load(); !loaded)
            return loaded.error();
        // What loading wrote (the delivery journal folded into the counts) is stored before the
        // broker serves anyone.
        if (auto durable = write.commit(); !durable)
            return durable.error();
    }
    // From here on a failed write puts memory back to what the database holds (~Broker clears
    // the handler before the implementation goes away).
    BrokerImpl* raw = impl.get();
    impl->m_store->setFailureHandler([raw] { raw->recoverFromFailedWrite(); });
    return std::unique_ptr<Broker>(new EmbeddedBroker(std::move(impl)));
}

Result<QList<MessageView>> EmbeddedBroker::listMessages(const QString& path,
                                                        qint64 fromSequenceNumber, int maxCount,
                                                        Bodies bodies) const {
    return m_impl->m_reads.list(path, fromSequenceNumber, maxCount, bodies == Bodies::With);
}

Clock& EmbeddedBroker::clock() const {
    return *m_impl->m_clock;
}

int EmbeddedBroker::runDue() {
    return m_impl->runDue();
}

ChangeFeed* EmbeddedBroker::changes() const {
    return m_impl->m_feed.get();
}

void EmbeddedBroker::describeOwner(const QString& detail) {
    m_impl->m_store->describeOwner(detail);
}

BrokerCapabilities EmbeddedBroker::capabilities() const {
    BrokerCapabilities capabilities;
    capabilities.hostsDatabase = true;
    capabilities.listsSessions = true;
    return capabilities;
}

QString EmbeddedBroker::databasePath() const {
    return m_impl->m_store->path();
}

} // namespace hourglass
