#include "common/MessageTransfer.h"

#include "common/BrokerClient.h"

#include <QCoreApplication>

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
    client.call(
        context,
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
}

} // namespace hourglass::ui
