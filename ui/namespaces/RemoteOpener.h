#pragma once
// Opens a saved namespace: its secret from the system keychain (or, where there is none or it
// holds nothing for it, from the user: KeyPrompt), then the remote broker, made and tried off the
// GUI thread (the entity listing must answer: a wrong key, an unreachable host or a certificate
// that does not verify is said here, before any panel shows). One opening per namespace at a
// time; each ends in exactly one of opened, failed or cancelled.

#include "hourglass/Broker.h"
#include "hourglass/remote/RemoteBroker.h"
#include "namespaces/SavedNamespace.h"

#include <QHash>
#include <QObject>
#include <QPointer>

#include <memory>

class QWidget;

namespace hourglass::ui {

class EntraSignIns;
class SavedNamespaces;

class RemoteOpener : public QObject {
    Q_OBJECT
public:
    // `namespaces` (not owned) keeps the list and the keys; `promptParent` owns the key prompt.
    RemoteOpener(SavedNamespaces& namespaces, QWidget* promptParent, QObject* parent = nullptr);

    // Opens `saved` (without its secret: it is read from the keychain or asked for).
    void open(const SavedNamespace& saved);
    // Opens `saved` with the secret it holds (just typed into the Connect dialog).
    void openWithSecret(const SavedNamespace& saved);
    bool isOpening(const QString& id) const { return m_opening.contains(id); }
    // Gives up opening `id` (the user cancelled): its answer, when it comes, is dropped and the
    // broker closed; none of the signals follows.
    void drop(const QString& id) { m_opening.remove(id); }

signals:
    // The broker is a remote::RemoteBroker whose change feed lives on this object's thread.
    void opened(const QString& id, std::shared_ptr<hourglass::Broker> broker);
    // One line: why (never the key or the connection string).
    void failed(const QString& id, const QString& problem);
    // The user closed the key prompt.
    void cancelled(const QString& id);

private:
    void onSecretRead(const QString& id, const NamespaceSecret& secret, const QString& problem);
    void askForKey(const QString& id, const QString& why);
    // Signs in first when the namespace uses Microsoft Entra ID (EntraSignIns).
    void connectNow(const SavedNamespace& withSecret);
    void connectWith(const SavedNamespace& withSecret, remote::RemoteBrokerOptions options);

    SavedNamespaces& m_namespaces;
    QPointer<QWidget> m_promptParent;
    EntraSignIns* m_entra;
    // The namespaces being opened, without their secrets.
    QHash<QString, SavedNamespace> m_opening;
};

} // namespace hourglass::ui
