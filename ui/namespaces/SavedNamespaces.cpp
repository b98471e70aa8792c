#include "namespaces/SavedNamespaces.h"

#include <qt6keychain/keychain.h>

#include <QSettings>
#include <QUuid>

#include <algorithm>

namespace hourglass::ui {

namespace {

// A keychain's error text is the platform's, not a peer's, but it still goes to the window in
// one line: keep it short.
constexpr int kProblemLength = 160;

QString shortLine(const QString& text) {
    QString line = text.simplified();
    if (line.size() > kProblemLength)
        line = line.left(kProblemLength - 1) + QChar(0x2026);
    return line;
}

} // namespace

SavedNamespaces::SavedNamespaces(QSettings* settings, const QString& service, QObject* parent)
    : QObject(parent)
    , m_settings(settings)
    , m_service(service) {
    if (!m_settings) {
        m_ownSettings = std::make_unique<QSettings>();
        m_settings = m_ownSettings.get();
    }
}

SavedNamespaces::~SavedNamespaces() = default;

QSettings& SavedNamespaces::settings() const {
    return *m_settings;
}

QString SavedNamespaces::entryName(const QString& id) const {
    return QStringLiteral("namespace/") + id;
}

QList<SavedNamespace> SavedNamespaces::list() const {
    QList<SavedNamespace> result;
    for (const QString& id : savedNamespaceIds(settings())) {
        if (auto saved = readSavedNamespace(settings(), id))
            result.append(*saved);
    }
    std::sort(result.begin(), result.end(), [](const SavedNamespace& a, const SavedNamespace& b) {
        return QString::localeAwareCompare(a.name, b.name) < 0;
    });
    return result;
}

std::optional<SavedNamespace> SavedNamespaces::find(const QString& id) const {
    if (id.isEmpty())
        return std::nullopt;
    return readSavedNamespace(settings(), id);
}

QString SavedNamespaces::unavailableText() {
    return tr("No system keychain is available: keys are not saved, and are asked for each time.");
}

void SavedNamespaces::setKeychain(Keychain keychain) {
    if (m_keychain == keychain)
        return;
    m_keychain = keychain;
    emit keychainChanged(keychain);
}

void SavedNamespaces::prepare(QKeychain::Job* job, const QString& id) {
    job->setAutoDelete(true);
    job->setInsecureFallback(false); // never the secret in a settings file
    job->setKey(entryName(id));
}

QString SavedNamespaces::noteAnswer(const QKeychain::Job* job) {
    switch (job->error()) {
    case QKeychain::NoError:
    case QKeychain::EntryNotFound:
    case QKeychain::AccessDenied:
    case QKeychain::AccessDeniedByUser:
    case QKeychain::CouldNotDeleteEntry:
        // The keychain answered, whatever it answered.
        setKeychain(Keychain::Available);
        break;
    case QKeychain::NoBackendAvailable:
    case QKeychain::NotImplemented:
    case QKeychain::OtherError:
        setKeychain(Keychain::Unavailable);
        break;
    }
    return job->error() == QKeychain::NoError ? QString() : shortLine(job->errorString());
}

void SavedNamespaces::checkKeychain() {
    auto* job = new QKeychain::ReadPasswordJob(m_service);
    job->setAutoDelete(true);
    job->setKey(QStringLiteral("keychain-probe")); // never written: "not found" is the answer
    connect(job, &QKeychain::Job::finished, this,
            [this](QKeychain::Job* finished) { noteAnswer(finished); });
    job->start();
}

void SavedNamespaces::updateSettings(const SavedNamespace& saved) {
    if (saved.id.isEmpty())
        return;
    writeSavedNamespace(settings(), saved.withoutSecret());
    settings().sync();
}

QString SavedNamespaces::save(const SavedNamespace& saved) {
    SavedNamespace bare = saved.withoutSecret();
    if (bare.id.isEmpty())
        bare.id = QUuid::createUuid().toString(QUuid::WithoutBraces);
    if (bare.name.trimmed().isEmpty())
        bare.name = bare.connection.displayName();
    writeSavedNamespace(settings(), bare);
    settings().sync();
    const QString id = bare.id;

    const NamespaceSecret secret = saved.secret();
    if (m_keychain == Keychain::Unavailable) {
        // Nowhere to keep it: the key is asked for when the namespace is opened.
        const QString problem = secret.isEmpty() ? QString() : unavailableText();
        QMetaObject::invokeMethod(
            this, [this, id, problem] { emit this->saved(id, false, problem); },
            Qt::QueuedConnection);
        return id;
    }
    if (secret.isEmpty()) {
        // Nothing to keep: a secret an older save kept for this id must not outlive it.
        auto* job = new QKeychain::DeletePasswordJob(m_service);
        prepare(job, id);
        connect(job, &QKeychain::Job::finished, this, [this, id](QKeychain::Job* finished) {
            QString problem = noteAnswer(finished);
            if (finished->error() == QKeychain::EntryNotFound)
                problem.clear();
            emit this->saved(id, false, problem);
        });
        job->start();
        return id;
    }
    auto* job = new QKeychain::WritePasswordJob(m_service);
    prepare(job, id);
    job->setBinaryData(secret.toJson());
    connect(job, &QKeychain::Job::finished, this, [this, id](QKeychain::Job* finished) {
        const QString problem = noteAnswer(finished);
        emit this->saved(id, finished->error() == QKeychain::NoError, problem);
    });
    job->start();
    return id;
}

void SavedNamespaces::readSecret(const QString& id) {
    auto* job = new QKeychain::ReadPasswordJob(m_service);
    prepare(job, id);
    connect(job, &QKeychain::Job::finished, this, [this, id](QKeychain::Job* finished) {
        const QString problem = noteAnswer(finished);
        const auto* read = static_cast<QKeychain::ReadPasswordJob*>(finished);
        const NamespaceSecret secret = finished->error() == QKeychain::NoError
                                           ? NamespaceSecret::fromJson(read->binaryData())
                                           : NamespaceSecret();
        emit secretRead(id, secret, problem);
    });
    job->start();
}

void SavedNamespaces::remove(const QString& id) {
    if (id.isEmpty())
        return;
    removeSavedNamespace(settings(), id);
    settings().sync();
    auto* job = new QKeychain::DeletePasswordJob(m_service);
    prepare(job, id);
    connect(job, &QKeychain::Job::finished, this, [this, id](QKeychain::Job* finished) {
        QString problem = noteAnswer(finished);
        if (finished->error() == QKeychain::EntryNotFound)
            problem.clear(); // nothing was kept: nothing is left
        emit removed(id, problem);
    });
    job->start();
}

} // namespace hourglass::ui
