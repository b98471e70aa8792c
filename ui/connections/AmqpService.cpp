#include "AmqpService.h"

#include <QCoreApplication>
#include <QMap>
#include <QPointer>
#include <QSettings>
#include <QStringList>
#include <QThreadPool>

namespace hourglass::ui {

namespace {
const QString kEnabledKey = QStringLiteral("amqp/enabled");
const QString kHostKey = QStringLiteral("amqp/host");
const QString kPortKey = QStringLiteral("amqp/port");
const QString kAcceptedHostsKey = QStringLiteral("amqp/acceptedHosts");
// Why applications lose their connection when the user changes the endpoint's settings.
const QString kSettingsChangedReason =
    QStringLiteral("The endpoint was restarted with new settings.");
// Before the key moved into the database it was kept here; it is removed on the next save.
const QString kOldKeyKey = QStringLiteral("amqp/key");

// The endpoint's reasons come from the socket layer and may lack the full stop that the
// sentences around them need ("... Address already in use - listen on 127.0.0.1:5672").
QString asSentence(QString text) {
    text = text.trimmed();
    if (!text.isEmpty() && !text.endsWith(QLatin1Char('.')) && !text.endsWith(QLatin1Char(')')))
        text += QLatin1Char('.');
    return text;
}
} // namespace

AmqpSettings AmqpSettings::load() {
    QSettings stored;
    AmqpSettings settings;
    settings.enabled = stored.value(kEnabledKey, true).toBool();
    settings.host = stored.value(kHostKey, settings.host).toString();
    settings.port = quint16(stored.value(kPortKey, settings.port).toUInt());
    settings.acceptedHosts = stored.value(kAcceptedHostsKey).toStringList();
    return settings;
}

void AmqpSettings::save() const {
    QSettings stored;
    stored.setValue(kEnabledKey, enabled);
    stored.setValue(kHostKey, host);
    stored.setValue(kPortKey, port);
    stored.setValue(kAcceptedHostsKey, acceptedHosts);
    stored.remove(kOldKeyKey);
}

AmqpService::AmqpService(QObject* parent)
    : QObject(parent)
    , m_settings(AmqpSettings::load()) {
    connect(&m_snapshotTimer, &QTimer::timeout, this, &AmqpService::readSnapshot);
    m_snapshotTimer.start(kSnapshotIntervalMs);
}

void AmqpService::readSnapshot() {
    m_snapshot = m_endpoint ? m_endpoint->snapshot() : amqp::EndpointSnapshot{};
    emit snapshotChanged();
}

AmqpService::~AmqpService() {
    stop(amqp::kShuttingDownReason);
}

void AmqpService::attach(std::shared_ptr<Broker> broker, const QString& closeReason) {
    stop(closeReason);
    m_broker = std::move(broker);
    // The key belongs to the database (it guards that data): each database has its own. A
    // memory read, no disk.
    m_settings.key = m_broker ? m_broker->setting(amqp::kKeySetting) : QString();
    restart(closeReason);
}

void AmqpService::apply(const AmqpSettings& settings) {
    const bool keyChanged = settings.key != m_settings.key;
    m_settings = settings;
    m_settings.save();
    if (keyChanged && m_broker)
        keepKey(m_settings.key);
    restart(kSettingsChangedReason);
}

void AmqpService::keepKey(const QString& key) {
    // Durable before setSetting returns: a disk sync, so not on the GUI thread. The endpoint
    // uses the new key at once; only its keeping in the database happens meanwhile.
    std::shared_ptr<Broker> broker = m_broker;
    QPointer<AmqpService> self(this);
    QThreadPool::globalInstance()->start([broker, key, self] {
        const auto kept = broker->setSetting(amqp::kKeySetting, key);
        if (kept)
            return;
        const QString why = kept.error().description;
        QMetaObject::invokeMethod(
            qApp,
            [self, why] {
                if (self)
                    emit self->failed(
                        tr("The AMQP key could not be kept in the database: %1").arg(why));
            },
            Qt::QueuedConnection);
    });
}

void AmqpService::stop(const QString& closeReason) {
    // Waits for the wire's broker calls in flight (each one a send or a settlement: a disk sync
    // at most), so that everything acknowledged is durable before the broker may close.
    if (m_endpoint) {
        m_endpoint->stop(closeReason);
        if (m_broker)
            m_broker->describeOwner({});
    }
    m_endpoint.reset();
}

void AmqpService::restart(const QString& closeReason) {
    stop(closeReason);
    m_problem.clear();
    if (m_broker && m_settings.enabled) {
        amqp::EndpointOptions options;
        options.host = m_settings.host;
        options.port = m_settings.port;
        options.acceptedHosts = m_settings.acceptedHosts;
        if (!m_settings.key.isEmpty())
            options.key.value = m_settings.key;
        auto endpoint = std::make_unique<amqp::AmqpEndpoint>(*m_broker, options);
        const auto started = endpoint->start();
        if (started) {
            m_endpoint = std::move(endpoint);
            // A second opener of the database is told where this window serves it (a small
            // file write, no sync).
            m_broker->describeOwner(
                QStringLiteral("AMQP on %1:%2").arg(options.host).arg(*started));
        } else {
            m_problem = asSentence(started.error().description);
            emit failed(tr("The AMQP endpoint is not serving: %1 The window works on; change "
                           "the port in View > AMQP endpoint…")
                            .arg(m_problem));
        }
    }
    readSnapshot();
    emit statusChanged();
}

AmqpService::LockHolders AmqpService::lockHolders() {
    readSnapshot();
    LockHolders holders;
    for (const amqp::WireConnection& connection : m_snapshot.connections) {
        if (connection.locksHeld > 0) {
            ++holders.applications;
            holders.locks += connection.locksHeld;
        }
    }
    return holders;
}

void AmqpService::connectionStringOf(const QString& namespaceName, QObject* context,
                                     std::function<void(const QString&)> done) {
    if (!m_endpoint) {
        done({});
        return;
    }
    const QString known = m_endpoint->connectionString(namespaceName);
    if (!known.isEmpty() || !m_broker) {
        done(known);
        return;
    }
    // A namespace created a moment ago: its key is made and kept on disk first, by a worker.
    // It holds what it needs (the keys, the broker), not the endpoint, which may stop meanwhile.
    std::shared_ptr<amqp::NamespaceKeyRing> keys = m_endpoint->keys();
    std::shared_ptr<Broker> broker = m_broker;
    const quint16 port = m_endpoint->port();
    const QString wanted = namespaceName.isEmpty() ? m_endpoint->defaultNamespace() : namespaceName;
    QPointer<QObject> receiver(context);
    QThreadPool::globalInstance()->start([keys, broker, port, wanted, receiver, done] {
        (void)keys->refresh(*broker);
        const auto key = keys->keyOf(wanted);
        const QString text = key ? amqp::connectionStringFor(port, key->key) : QString();
        QMetaObject::invokeMethod(
            qApp,
            [receiver, done, text] {
                if (receiver)
                    done(text);
            },
            Qt::QueuedConnection);
    });
}

AmqpService::State AmqpService::state() const {
    if (!m_settings.enabled)
        return State::Off;
    if (!m_broker)
        return State::NoDatabase;
    return m_endpoint ? State::Serving : State::NotServing;
}

QString AmqpService::statusText() const {
    switch (state()) {
    case State::Off:
        return tr("AMQP off");
    case State::NoDatabase:
        return tr("AMQP: no database");
    case State::NotServing:
        return tr("AMQP: not serving on port %1").arg(m_settings.port);
    case State::Serving:
        break;
    }
    // The count of the snapshot the Connections view shows, not a newer one.
    const int connections = int(m_snapshot.connections.size());
    const QString host =
        amqp::isLoopbackHost(m_settings.host) ? QStringLiteral("localhost") : m_settings.host;
    const QString count =
        connections == 1 ? tr("1 connection") : tr("%1 connections").arg(connections);
    // Which namespace each connection uses (its token's key tells), once it sent one.
    QMap<QString, int> perNamespace;
    for (const amqp::WireConnection& connection : m_snapshot.connections) {
        for (const QString& name : connection.namespaces)
            ++perNamespace[name];
    }
    QStringList uses;
    for (auto it = perNamespace.cbegin(); it != perNamespace.cend(); ++it)
        uses.append(tr("%1: %2").arg(it.key()).arg(it.value()));
    if (uses.isEmpty())
        return tr("AMQP %1:%2 · %3").arg(host).arg(m_snapshot.port).arg(count);
    return tr("AMQP %1:%2 · %3 (%4)")
        .arg(host)
        .arg(m_snapshot.port)
        .arg(count, uses.join(QStringLiteral(", ")));
}

} // namespace hourglass::ui
