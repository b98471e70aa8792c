#include "common/MessageTransfer.h"

#include "common/BrokerClient.h"
#include "common/RemoteConfirm.h"

#include <QApplication>
#include <QCoreApplication>
#include <QPointer>
#include <QWidget>

namespace hourglass::ui {

namespace {
QString tr(const char* text) {
    return QCoreApplication::translate("hourglass::ui::MessageTransfer", text);
}
} // namespace

QString moveMessagesHint() {
    return tr("Drag messages onto an entity to move them; Ctrl to copy. Or right-click: Move "
              "to…, Copy to…");
}

QString countOf(qsizetype n, const QString& one) {
    return n == 1 ? QStringLiteral("1 %1").arg(one) : QStringLiteral("%1 %2s").arg(n).arg(one);
}

void transferMessages(BrokerClient& client, QObject* context, const DraggedMessages& messages,
                      const QString& targetPath, const QString& targetName, Broker::Transfer mode,
                      std::function<void(const QString&)> finished,
                      std::function<void(const Error&)> failed) {
    const bool resubmit = deadLetterOwner(messages.sourcePath) == targetPath;
    const QString verb = resubmit                         ? tr("Resubmitted")
                         : mode == Broker::Transfer::Copy ? tr("Copied")
                                                          : tr("Moved");
    QPointer<QObject> guard(context);
    auto run = [&client, guard, messages, targetPath, targetName, mode, verb,
                finished = std::move(finished), failed = std::move(failed)]() mutable {
        if (!guard)
            return;
        client.call(
            guard.data(),
            [messages, targetPath, mode](Broker& broker) {
                return dropMessages(broker, messages, targetPath, mode);
            },
            [verb, targetName, finished = std::move(finished),
             failed = std::move(failed)](Result<QList<SendResult>> result) {
                if (result)
                    finished(tr("%1 %2 to '%3'.")
                                 .arg(verb, countOf(result->size(), tr("message")), targetName));
                else
                    failed(result.error());
            });
    };
    if (mode == Broker::Transfer::Copy)
        return run();
    // Moving takes the messages out of where they are: on a remote namespace, asked first.
    auto* parent = qobject_cast<QWidget*>(context);
    askOnRemote(client, parent ? parent->window() : QApplication::activeWindow(),
                tr("Move %1 to '%2'? Each is sent there, then taken from where it is.")
                    .arg(countOf(messages.sequenceNumbers.size(), tr("message")), targetName),
                tr("Move"), std::move(run));
}

} // namespace hourglass::ui
