#include "messages/MessageDragFiles.h"

#include "common/BrokerClient.h"
#include "messages/MessageExport.h"

#include <QDir>
#include <QTemporaryDir>

namespace hourglass::ui {

namespace {
bool same(const DraggedMessages& a, const DraggedMessages& b) {
    return a.sourcePath == b.sourcePath && a.sequenceNumbers == b.sequenceNumbers;
}
} // namespace

MessageDragFiles::MessageDragFiles(BrokerClient& client, QObject* parent)
    : QObject(parent)
    , m_client(client) {}

MessageDragFiles::~MessageDragFiles() = default;

void MessageDragFiles::prepare(const DraggedMessages& messages) {
    if (same(messages, m_wanted))
        return;
    ++m_generation;
    m_wanted = messages;
    m_ready = {};
    m_urls.clear();
    if (messages.sequenceNumbers.isEmpty() || messages.sequenceNumbers.size() > kMaxMessages)
        return;
    if (!m_dir) {
        m_dir = std::make_unique<QTemporaryDir>();
        if (!m_dir->isValid())
            return; // no place for files: drags carry the messages only
    }
    const QString folder = m_dir->filePath(QString::number(m_generation));
    if (!QDir().mkpath(folder))
        return;
    const quint64 generation = m_generation;
    m_client.call(
        this,
        [messages, folder](Broker& broker) -> Result<QStringList> {
            QList<MessageView> read;
            for (qint64 seq : messages.sequenceNumbers) {
                auto message = broker.message(messages.sourcePath, seq, Broker::Bodies::With);
                if (message)
                    read.append(std::move(message).value());
                else if (message.error().code != ErrorCode::MessageNotFound)
                    return message.error();
            }
            return exportMessages(read, folder);
        },
        [this, generation, messages](Result<QStringList> files) {
            // A failed export only means the drag carries no files; the drop still works.
            if (generation != m_generation || !files)
                return;
            m_ready = messages;
            for (const QString& file : *files)
                m_urls.append(QUrl::fromLocalFile(file));
            emit ready();
        });
}

QList<QUrl> MessageDragFiles::urlsFor(const DraggedMessages& messages) const {
    return same(messages, m_ready) ? m_urls : QList<QUrl>{};
}

} // namespace hourglass::ui
