#include "HeldLocksQuestion.h"

#include "AmqpService.h"

#include <QCoreApplication>
#include <QMessageBox>
#include <QPushButton>

namespace hourglass::ui {

namespace {
QString tr(const char* text) {
    return QCoreApplication::translate("HeldLocksQuestion", text);
}
} // namespace

QString heldLocksQuestionText(int applications, int locks, LettingGo why) {
    const QString who = applications == 1 ? tr("1 application holds")
                                          : tr("%1 applications hold").arg(applications);
    const QString what = locks == 1 ? tr("1 message lock") : tr("%1 message locks").arg(locks);
    const QString question =
        why == LettingGo::Quit ? tr("Quit anyway?") : tr("Open the other database anyway?");
    return tr("%1 %2. %3 Their locks go back to the queues.").arg(who, what, question);
}

bool askBeforeLettingGo(AmqpService& service, QWidget* parent, LettingGo why,
                        std::function<void()> proceed) {
    const AmqpService::LockHolders holders = service.lockHolders();
    if (holders.locks == 0)
        return false;
    const bool quit = why == LettingGo::Quit;
    auto* box = new QMessageBox(QMessageBox::Question, quit ? tr("Quit") : tr("Open database"),
                                heldLocksQuestionText(holders.applications, holders.locks, why),
                                QMessageBox::Ok | QMessageBox::Cancel, parent);
    box->setObjectName(QStringLiteral("heldLocksQuestion"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->button(QMessageBox::Ok)->setText(quit ? tr("Quit") : tr("Open"));
    box->setDefaultButton(QMessageBox::Cancel);
    // By the button: QMessageBox finishes with the button's code, not Accepted.
    QObject::connect(box, &QMessageBox::buttonClicked, box,
                     [box, proceed = std::move(proceed)](QAbstractButton* button) {
                         if (box->standardButton(button) == QMessageBox::Ok)
                             proceed();
                     });
    box->open();
    return true;
}

} // namespace hourglass::ui
