#include "namespaces/RemoteOpener.h"

#include "hourglass/remote/RemoteBroker.h"
#include "namespaces/EntraSignIns.h"
#include "namespaces/KeyPrompt.h"
#include "namespaces/RemoteOptions.h"
#include "namespaces/SavedNamespaces.h"

#include <QCoreApplication>
#include <QThread>
#include <QThreadPool>
#include <QWidget>

namespace hourglass::ui {

RemoteOpener::RemoteOpener(SavedNamespaces& namespaces, QWidget* promptParent, QObject* parent)
    : QObject(parent)
    , m_namespaces(namespaces)
    , m_promptParent(promptParent)
    , m_entra(new EntraSignIns(promptParent, this)) {
    connect(&m_namespaces, &SavedNamespaces::secretRead, this, &RemoteOpener::onSecretRead);
}

void RemoteOpener::open(const SavedNamespace& saved) {
    if (m_opening.contains(saved.id))
        return;
    m_opening.insert(saved.id, saved.withoutSecret());
    // A string that carries no credential (Microsoft Entra ID, or none) needs no secret.
    if (saved.connection.credential == remote::ConnectionString::Credential::None) {
        connectNow(saved);
        return;
    }
    if (m_namespaces.keychain() == SavedNamespaces::Keychain::Unavailable) {
        askForKey(saved.id, SavedNamespaces::unavailableText());
        return;
    }
    m_namespaces.readSecret(saved.id); // onSecretRead
}

void RemoteOpener::openWithSecret(const SavedNamespace& saved) {
    if (m_opening.contains(saved.id))
        return;
    m_opening.insert(saved.id, saved.withoutSecret());
    connectNow(saved);
}

void RemoteOpener::onSecretRead(const QString& id, const NamespaceSecret& secret,
                                const QString& problem) {
    if (!m_opening.contains(id))
        return; // another reader's answer
    if (secret.isEmpty()) {
        askForKey(id, problem.isEmpty() ? tr("The keychain holds no key for this namespace.")
                                        : tr("The keychain gave no key: %1").arg(problem));
        return;
    }
    connectNow(m_opening.value(id).withSecret(secret));
}

void RemoteOpener::askForKey(const QString& id, const QString& why) {
    const SavedNamespace saved = m_opening.value(id);
    auto* prompt = new KeyPrompt(saved, why, m_promptParent);
    prompt->setAttribute(Qt::WA_DeleteOnClose);
    connect(prompt, &KeyPrompt::secretGiven, this, [this, id](const NamespaceSecret& secret) {
        if (m_opening.contains(id))
            connectNow(m_opening.value(id).withSecret(secret));
    });
    connect(prompt, &QDialog::rejected, this, [this, id] {
        if (m_opening.remove(id))
            emit cancelled(id);
    });
    prompt->open();
}

void RemoteOpener::connectNow(const SavedNamespace& withSecret) {
    if (!withSecret.entra.signIn ||
        withSecret.connection.credential != remote::ConnectionString::Credential::None) {
        connectWith(withSecret, remoteOptionsFor(withSecret));
        return;
    }
    // One sign-in gives both planes their tokens.
    QPointer<RemoteOpener> self(this);
    m_entra->signIn(withSecret, [self, withSecret](std::optional<EntraSignIns::Providers> given,
                                                   const QString& problem, bool cancelled) {
        if (!self || !self->m_opening.contains(withSecret.id))
            return;
        if (!given) {
            self->m_opening.remove(withSecret.id);
            if (cancelled)
                emit self->cancelled(withSecret.id);
            else
                emit self->failed(withSecret.id, problem);
            return;
        }
        remote::RemoteBrokerOptions options = remoteOptionsFor(withSecret);
        options.amqp.tokenProvider = given->amqp;
        options.admin.tokenProvider = given->admin;
        self->connectWith(withSecret, std::move(options));
    });
}

void RemoteOpener::connectWith(const SavedNamespace& withSecret,
                               remote::RemoteBrokerOptions options) {
    const QString id = withSecret.id;
    QPointer<RemoteOpener> self(this);
    QThread* gui = thread();
    // Making the broker starts its poll; listing the entities waits for the wire (at most the
    // administration client's time-out): never on the GUI thread.
    QThreadPool::globalInstance()->start([self, id, options, gui] {
        auto broker = std::make_shared<remote::RemoteBroker>(options);
        broker->entities({});
        QString problem = broker->lastListError();
        std::shared_ptr<Broker> opened;
        if (problem.isEmpty()) {
            // The feed belongs to the thread that made it; the window's client reads it.
            broker->changes()->moveToThread(gui);
            opened = std::move(broker);
        } else {
            broker.reset(); // closes here, off the GUI thread
        }
        QMetaObject::invokeMethod(
            qApp,
            [self, id, opened, problem] {
                if (!self || !self->m_opening.remove(id)) {
                    // Dropped meanwhile: closed on a worker, as a disconnection would.
                    if (opened) {
                        opened->changes()->moveToThread(nullptr);
                        QThreadPool::globalInstance()->start([opened] {});
                    }
                    return;
                }
                if (opened)
                    emit self->opened(id, opened);
                else
                    emit self->failed(id, problem);
            },
            Qt::QueuedConnection);
    });
}

} // namespace hourglass::ui
