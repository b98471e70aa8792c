#pragma once
// The window's AMQP endpoint: started on the open database's broker (127.0.0.1:5672 unless the
// settings say otherwise), moved to the next database when another one opens, stopped when the
// window closes. On or off, host and port are remembered for this user; the key is kept in the
// database it guards (Broker::setting). Says what it is doing
// through `statusChanged` (the status-bar item) and `failed` (the message bar): a busy port does
// not stop the window.
//
// With TLS on, the endpoint also listens on a TLS port (5671 unless the settings say otherwise)
// with a server certificate of the local certificate authority `serve` uses too (the same
// folder): the certificate is made or checked by a worker (a disk write on first use), and the
// endpoint starts once it is ready. Both ports serve the administration API as well as AMQP.
//
// The endpoint's snapshot (its connections, links and locks) is read here, twice a second and
// on demand, and handed to every view through `snapshotChanged`: the status-bar item's count and
// the Connections view always show the same snapshot, never one a tick older than the other.

#include "hourglass/Broker.h"
#include "hourglass/amqp/AmqpEndpoint.h"
#include "hourglass/tls/LocalCertificates.h"

#include <QObject>
#include <QString>
#include <QStringList>
#include <QTimer>

#include <functional>
#include <memory>
#include <optional>

namespace hourglass::ui {

struct AmqpSettings {
    bool enabled = true;
    QString host = QStringLiteral("127.0.0.1");
    quint16 port = 5672; // 0: any free port (tests)
    QString key;         // empty: the emulator's well-known key; kept in the database
    // Host names a token's audience may name besides localhost and the address listened on
    // (serve's --accept-host): the names containers reach this machine by.
    QStringList acceptedHosts;
    // A second port where TLS ends first, for the connection string without the emulator's
    // flag (what applications written for Azure use unchanged).
    bool tlsEnabled = false;
    quint16 tlsPort = 5671; // 0: any free port (tests)

    bool operator==(const AmqpSettings&) const = default;
    static AmqpSettings load();
    void save() const;
};

class AmqpService : public QObject {
    Q_OBJECT
public:
    explicit AmqpService(QObject* parent = nullptr);
    ~AmqpService() override;

    // Serves `broker` from now on (null: serves nothing). Stops the endpoint of the previous
    // broker first, closing its applications' connections with `closeReason` (the description
    // of their amqp:connection:forced close): call before that broker goes away.
    void attach(std::shared_ptr<Broker> broker,
                const QString& closeReason = amqp::kDatabaseClosedReason);
    // New settings: saved, and the endpoint restarted with them.
    void apply(const AmqpSettings& settings);
    const AmqpSettings& settings() const { return m_settings; }
    // Where the local certificate authority lives (default: LocalCertificates::defaultFolder(),
    // serve's); tests give a folder of their own. Used from the next start on.
    void setCertificateFolder(const QString& folder) { m_certificateFolder = folder; }
    const QString& certificateFolder() const { return m_certificateFolder; }

    // How applications reach the TLS port and trust it, for the settings dialog; `serving`
    // false (and the rest empty) while there is no TLS port.
    struct TlsTrust {
        bool serving = false;
        quint16 port = 0;
        QString connectionString; // the default namespace's, without the emulator's flag
        QString caFile;           // the authority clients trust
        QString fingerprint;      // its SHA-256, "AB:CD:..."
    };
    TlsTrust tlsTrust() const;
    // Why the TLS port is not serving although it should (its certificate could not be made),
    // as a sentence; empty otherwise. The plain port serves regardless.
    QString tlsProblem() const { return m_tlsProblem; }

    // What the endpoint is doing, for views that say it in words.
    // Starting: the TLS port's certificate is being made or checked by a worker.
    enum class State { Off, NoDatabase, Starting, NotServing, Serving };
    State state() const;
    // Null when not serving (off, no database, or the port could not be bound).
    amqp::AmqpEndpoint* endpoint() const { return m_endpoint.get(); }
    // "AMQP localhost:5672 · 2 connections", "AMQP off", "AMQP: port 5672 busy"...
    QString statusText() const;
    // Why the endpoint is not serving although it should, as a sentence; empty otherwise.
    QString problem() const { return m_problem; }
    // The snapshot last read (empty when not serving), and reading one now (a copy under the
    // endpoint's lock: no disk, no wait on the proactor); either way `snapshotChanged` follows.
    const amqp::EndpointSnapshot& snapshot() const { return m_snapshot; }
    void readSnapshot();
    static constexpr int kSnapshotIntervalMs = 500;

    // Connected applications that hold message locks, and how many locks they hold in all,
    // from a snapshot read now (the window asks before it lets them go).
    struct LockHolders {
        int applications = 0;
        int locks = 0;
    };
    LockHolders lockHolders();
    // The connection string of `namespaceName` (empty: the default one) for `done`, called on
    // `context`'s thread: at once when its key is known, else once a worker made it (a disk
    // write, never on the window's thread). Empty when not serving or for an unknown namespace.
    void connectionStringOf(const QString& namespaceName, QObject* context,
                            std::function<void(const QString&)> done);

signals:
    void statusChanged();
    // A new snapshot was read: the views take it from snapshot().
    void snapshotChanged();
    void failed(const QString& message);

private:
    void restart(const QString& closeReason);
    // Starts the endpoint on the plain port, and on the TLS port with `certificate` when given;
    // when the TLS port cannot be served, the plain one alone.
    void start(const std::optional<tls::CertificateFiles>& certificate);
    // An endpoint started with the settings (and a TLS port with `certificate`), or null with
    // `why` said as a sentence.
    std::unique_ptr<amqp::AmqpEndpoint>
    startEndpoint(const std::optional<tls::CertificateFiles>& certificate, QString* why);
    // Keeps why the TLS port is not serving and says it in the message bar.
    void tlsNotServing(const QString& why);
    // Has a worker make or check the TLS certificate, then starts (unless a newer start or a
    // stop came meanwhile: the generation tells).
    void prepareCertificateThenStart();
    void stop(const QString& closeReason);
    void keepKey(const QString& key);

    AmqpSettings m_settings;
    std::shared_ptr<Broker> m_broker; // kept alive while the endpoint serves it
    std::unique_ptr<amqp::AmqpEndpoint> m_endpoint;
    QString m_problem;
    QString m_tlsProblem;
    QString m_certificateFolder;
    std::optional<tls::CertificateFiles> m_certificate; // of the TLS port serving now
    bool m_preparing = false;                           // a worker makes the certificate
    quint64 m_generation = 0; // each start or stop; a worker's late answer is dropped
    amqp::EndpointSnapshot m_snapshot;
    QTimer m_snapshotTimer;
};

} // namespace hourglass::ui
