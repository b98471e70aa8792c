#include "AmqpService.h"

#include "hourglass/admin/AdminStreamServices.h"

#include <QCoreApplication>
#include <QHostAddress>
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
const QString kTlsEnabledKey = QStringLiteral("amqp/tlsEnabled");
const QString kTlsPortKey = QStringLiteral("amqp/tlsPort");
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

// The names the TLS certificate must cover besides localhost and the loopback addresses: the
// address listened on unless it is a wildcard, and the accepted host names (as serve does).
QStringList certificateHostNames(const AmqpSettings& settings) {
    QStringList names;
    for (const QString& host : QStringList{settings.host} + settings.acceptedHosts) {
        const QHostAddress address(host);
        if (host.isEmpty() || address == QHostAddress::AnyIPv4 ||
            address == QHostAddress::AnyIPv6 || address == QHostAddress::Any)
            continue;
        if (!names.contains(host, Qt::CaseInsensitive))
            names.append(host);
    }
    return names;
}
} // namespace

AmqpSettings AmqpSettings::load() {
    QSettings stored;
    AmqpSettings settings;
    settings.enabled = stored.value(kEnabledKey, true).toBool();
    settings.host = stored.value(kHostKey, settings.host).toString();
    settings.port = quint16(stored.value(kPortKey, settings.port).toUInt());
    settings.acceptedHosts = stored.value(kAcceptedHostsKey).toStringList();
    settings.tlsEnabled = stored.value(kTlsEnabledKey, settings.tlsEnabled).toBool();
    settings.tlsPort = quint16(stored.value(kTlsPortKey, settings.tlsPort).toUInt());
    return settings;
}

void AmqpSettings::save() const {
    QSettings stored;
    stored.setValue(kEnabledKey, enabled);
    stored.setValue(kHostKey, host);
    stored.setValue(kPortKey, port);
    stored.setValue(kAcceptedHostsKey, acceptedHosts);
    stored.setValue(kTlsEnabledKey, tlsEnabled);
    stored.setValue(kTlsPortKey, tlsPort);
    stored.remove(kOldKeyKey);
}

AmqpService::AmqpService(QObject* parent)
    : QObject(parent)
    , m_settings(AmqpSettings::load())
    , m_certificateFolder(tls::LocalCertificates::defaultFolder()) {
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
    // A certificate a worker is making now is for a start that no longer happens.
    ++m_generation;
    m_preparing = false;
    m_certificate.reset();
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
    m_tlsProblem.clear();
    if (m_broker && m_settings.enabled) {
        if (m_settings.tlsEnabled) {
            prepareCertificateThenStart();
            return;
        }
        start(std::nullopt);
        return;
    }
    readSnapshot();
    emit statusChanged();
}

void AmqpService::prepareCertificateThenStart() {
    m_preparing = true;
    const quint64 generation = m_generation;
    const QString folder = m_certificateFolder;
    const QStringList hosts = certificateHostNames(m_settings);
    QPointer<AmqpService> self(this);
    // Made on first use and checked on every start (expiry, names covered): key generation and
    // file writes with a sync, never on the window's thread.
    QThreadPool::globalInstance()->start([self, generation, folder, hosts] {
        auto made = tls::LocalCertificates::ensure(folder, hosts);
        QMetaObject::invokeMethod(
            qApp,
            [self, generation, made = std::move(made)] {
                if (!self || self->m_generation != generation || !self->m_preparing)
                    return;
                self->m_preparing = false;
                if (made) {
                    self->start(*made);
                    return;
                }
                self->tlsNotServing(asSentence(made.error().description));
                self->start(std::nullopt);
            },
            Qt::QueuedConnection);
    });
    readSnapshot();
    emit statusChanged();
}

std::unique_ptr<amqp::AmqpEndpoint>
AmqpService::startEndpoint(const std::optional<tls::CertificateFiles>& certificate, QString* why) {
    amqp::EndpointOptions options;
    options.host = m_settings.host;
    options.port = m_settings.port;
    options.acceptedHosts = m_settings.acceptedHosts;
    if (!m_settings.key.isEmpty())
        options.key.value = m_settings.key;
    if (certificate)
        options.tls = amqp::EndpointTls{m_settings.tlsPort, certificate->serverCertificate,
                                        certificate->serverKey};
    auto endpoint = std::make_unique<amqp::AmqpEndpoint>(*m_broker, options);
    // The administration API on the same ports, as serve has it: applications that create their
    // entities at start-up reach it with the same connection string.
    endpoint->setStreamServices(admin::adminStreamServices(*m_broker, endpoint->keys()));
    const auto started = endpoint->start();
    if (!started) {
        *why = asSentence(started.error().description);
        return nullptr;
    }
    return endpoint;
}

void AmqpService::start(const std::optional<tls::CertificateFiles>& certificate) {
    QString why;
    auto endpoint = startEndpoint(certificate, &why);
    if (!endpoint && certificate) {
        // The TLS port taken (by `serve --tls`, say) or its certificate refused: the plain port
        // serves on without it, and the reason is said.
        const QString tlsWhy = why;
        endpoint = startEndpoint(std::nullopt, &why);
        if (endpoint)
            tlsNotServing(tlsWhy);
    }
    if (endpoint) {
        m_endpoint = std::move(endpoint);
        if (m_endpoint->tlsPort())
            m_certificate = certificate;
        // A second opener of the database is told where this window serves it (a small
        // file write, no sync).
        m_broker->describeOwner(
            QStringLiteral("AMQP on %1:%2").arg(m_settings.host).arg(m_endpoint->port()));
    } else {
        m_problem = why;
        emit failed(tr("The AMQP endpoint is not serving: %1 The window works on; change "
                       "the port in View > AMQP endpoint…")
                        .arg(m_problem));
    }
    readSnapshot();
    emit statusChanged();
}

void AmqpService::tlsNotServing(const QString& why) {
    m_tlsProblem = why;
    emit failed(tr("The TLS port is not serving: %1 The plain port serves on (View > AMQP "
                   "endpoint… changes it).")
                    .arg(why));
}

AmqpService::TlsTrust AmqpService::tlsTrust() const {
    TlsTrust trust;
    if (!m_endpoint || !m_certificate || m_endpoint->tlsPort() == 0)
        return trust;
    trust.serving = true;
    trust.port = m_endpoint->tlsPort();
    trust.connectionString = m_endpoint->tlsConnectionString();
    trust.caFile = m_certificate->caCertificate;
    trust.fingerprint = m_certificate->caFingerprintSha256;
    return trust;
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
    if (m_preparing)
        return State::Starting;
    return m_endpoint ? State::Serving : State::NotServing;
}

QString AmqpService::statusText() const {
    switch (state()) {
    case State::Off:
        return tr("AMQP off");
    case State::NoDatabase:
        return tr("AMQP: no database");
    case State::Starting:
        return tr("AMQP: starting…");
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
    // The TLS port beside the plain one: "AMQP localhost:5672, TLS 5671 · ...".
    QString address = QStringLiteral("%1:%2").arg(host).arg(m_snapshot.port);
    if (const quint16 tlsPort = m_endpoint ? m_endpoint->tlsPort() : 0)
        address = tr("%1, TLS %2").arg(address).arg(tlsPort);
    if (uses.isEmpty())
        return tr("AMQP %1 · %2").arg(address, count);
    return tr("AMQP %1 · %2 (%3)").arg(address, count, uses.join(QStringLiteral(", ")));
}

} // namespace hourglass::ui
