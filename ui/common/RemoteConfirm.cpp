#include "common/RemoteConfirm.h"

#include "common/BrokerClient.h"

#include <QCoreApplication>
#include <QMessageBox>
#include <QPushButton>

namespace hourglass::ui {

namespace {
QString tr(const char* text) {
    return QCoreApplication::translate("hourglass::ui::RemoteConfirm", text);
}
} // namespace

QString remoteNamespaceLine(const BrokerClient& client) {
    if (client.remoteLabel().isEmpty())
        return {};
    return tr("On the remote namespace %1.").arg(client.remoteLabel());
}

void askOnRemote(const BrokerClient& client, QWidget* parent, const QString& question,
                 const QString& verb, std::function<void()> go) {
    if (client.remoteLabel().isEmpty()) {
        go();
        return;
    }
    auto* box = new QMessageBox(QMessageBox::Warning, verb,
                                question + QLatin1Char('\n') + remoteNamespaceLine(client),
                                QMessageBox::Cancel, parent);
    box->setObjectName(QStringLiteral("confirmRemote"));
    box->setInformativeText(tr("This cannot be undone."));
    QPushButton* yes = box->addButton(verb, QMessageBox::AcceptRole);
    box->setDefaultButton(QMessageBox::Cancel);
    box->setAttribute(Qt::WA_DeleteOnClose);
    QObject::connect(box, &QMessageBox::buttonClicked, box,
                     [yes, go = std::move(go)](QAbstractButton* clicked) {
                         if (clicked == yes)
                             go();
                     });
    box->open();
}

} // namespace hourglass::ui
