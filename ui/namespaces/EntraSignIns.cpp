#include "namespaces/EntraSignIns.h"

#include "hourglass/remote/EntraSignIn.h"
#include "namespaces/EntraSignInDialog.h"

#include <QCoreApplication>
#include <QDesktopServices>
#include <QThread>
#include <QWidget>

namespace hourglass::ui {

EntraSignIns::EntraSignIns(QWidget* dialogParent, QObject* parent)
    : QObject(parent)
    , m_dialogParent(dialogParent) {}

EntraSignIns::~EntraSignIns() {
    for (const Held& held : std::as_const(m_held))
        held.signIn->cancel();
}

EntraSignIns::Providers EntraSignIns::providersOf(const remote::EntraSignIn& signIn) {
    return {signIn.tokenProvider(), signIn.bearerTokenProvider()};
}

void EntraSignIns::signIn(const SavedNamespace& saved, Done done) {
    const auto found = m_held.constFind(saved.id);
    if (found != m_held.constEnd()) {
        if (found->choice == saved.entra && found->signIn->isSignedIn()) {
            done(providersOf(*found->signIn), QString(), false);
            return;
        }
        found->signIn->cancel(); // another choice now, or a sign-in that never finished
    }
    auto signIn = std::make_shared<remote::EntraSignIn>(saved.entra.settings());
    m_held.insert(saved.id, Held{saved.entra, signIn});

    QPointer<EntraSignInDialog> dialog =
        new EntraSignInDialog(saved.name, saved.entra.deviceCode, m_dialogParent);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::rejected, this, [signIn] { signIn->cancel(); });
    dialog->open();

    const bool deviceCode = saved.entra.deviceCode;
    QPointer<EntraSignIns> self(this);
    // A thread of its own rather than the pool's: it waits minutes on the user.
    QThread* worker = QThread::create([signIn, deviceCode, dialog, self, done] {
        const Result<void> result =
            deviceCode
                ? signIn->signInWithDeviceCode([dialog](const remote::DeviceCodePrompt& p) {
                      QMetaObject::invokeMethod(
                          qApp,
                          [dialog, p] {
                              if (dialog)
                                  dialog->showDeviceCode(p);
                          },
                          Qt::QueuedConnection);
                  })
                : signIn->signInWithBrowser([](const QUrl& url) {
                      QMetaObject::invokeMethod(
                          qApp, [url] { QDesktopServices::openUrl(url); }, Qt::QueuedConnection);
                  });
        QMetaObject::invokeMethod(
            qApp,
            [self, dialog, signIn, result, done] {
                if (dialog)
                    dialog->accept(); // closes it without cancelling anything
                if (!self)
                    return;
                if (result)
                    done(providersOf(*signIn), QString(), false);
                else
                    done(std::nullopt, result.error().description,
                         result.error().code == ErrorCode::GeneralError);
            },
            Qt::QueuedConnection);
    });
    connect(worker, &QThread::finished, worker, &QObject::deleteLater);
    worker->start();
}

} // namespace hourglass::ui
