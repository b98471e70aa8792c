#pragma once
// The Microsoft Entra ID sign-ins of this session, one per saved namespace that uses one
// (EntraChoice): made when the namespace is first opened, kept in memory (never written
// anywhere) so that connecting again after Disconnect needs no new sign-in while its refresh
// token lasts, and given up when the window goes. A sign-in runs on a thread of its own (it
// waits minutes on the user) while EntraSignInDialog says what to do and offers Cancel; the
// browser is the system's (QDesktopServices::openUrl).

#include "hourglass/remote/AdminClient.h"
#include "hourglass/remote/AmqpClient.h"
#include "namespaces/SavedNamespace.h"

#include <QHash>
#include <QObject>
#include <QPointer>

#include <functional>
#include <memory>

class QWidget;

namespace hourglass::remote {
class EntraSignIn;
}

namespace hourglass::ui {

class EntraSignIns : public QObject {
    Q_OBJECT
public:
    // What a signed-in namespace's clients take.
    struct Providers {
        remote::TokenProvider amqp;
        remote::BearerTokenProvider admin;
    };
    // On the GUI thread: the providers, or why not (`cancelled` when the user gave up).
    using Done = std::function<void(std::optional<Providers> providers, const QString& problem,
                                    bool cancelled)>;

    EntraSignIns(QWidget* dialogParent, QObject* parent = nullptr);
    // Cancels the sign-ins under way; their answers are dropped.
    ~EntraSignIns() override;

    // Signs in for `saved` (its EntraChoice), unless this session holds a sign-in of the same
    // choice already; then `done`.
    void signIn(const SavedNamespace& saved, Done done);

private:
    struct Held {
        EntraChoice choice;
        std::shared_ptr<remote::EntraSignIn> signIn;
    };
    static Providers providersOf(const remote::EntraSignIn& signIn);

    QPointer<QWidget> m_dialogParent;
    QHash<QString, Held> m_held; // by saved namespace id
};

} // namespace hourglass::ui
