#pragma once
// What a drag of messages carries between the explorer's views, and the broker work a drop turns
// into. A drag names its source path (qualified, "ns:q" or "ns:q/$deadletterqueue") and sequence
// numbers, never message bodies: the drop target asks the engine to transfer them, so that a move
// is one atomic engine call (never in both entities, never in neither).
//
// Files dropped from the desktop become messages: each file's bytes are the body, its MIME type
// (by name and content) the content type and its name the message id.
//
// The broker functions here run on a worker thread (inside BrokerClient::call), never on the GUI
// thread: they read files and write the database.

#include "hourglass/Broker.h"
#include "hourglass/Status.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

class QMimeData;

namespace hourglass::ui {

struct DraggedMessages {
    QString sourcePath; // qualified; may end in "/$deadletterqueue"
    QList<qint64> sequenceNumbers;
};

// "application/x-hourglass-messages"
QString messagesMimeType();

// Puts `messages` into `mime` under messagesMimeType() (also a short text/plain for other apps).
void encodeMessages(const DraggedMessages& messages, QMimeData* mime);
// The messages `mime` carries, or nothing when it carries none or is malformed.
std::optional<DraggedMessages> decodeMessages(const QMimeData* mime);

// The local files `mime` carries (text/uri-list with file: URLs); empty when none.
QStringList droppedLocalFiles(const QMimeData* mime);

// "ns:q" for "ns:q/$deadletterqueue"; empty when `path` is not a dead-letter path.
QString deadLetterOwner(const QString& path);

// Worker-thread bodies of a drop.
// Messages onto `targetPath`: resubmit when the source is the target's own dead-letter queue,
// else transferMessages with Move or Copy.
Result<QList<SendResult>> dropMessages(Broker& broker, const DraggedMessages& messages,
                                       const QString& targetPath, Broker::Transfer mode);
// Files onto `targetPath`, one message each, in one all-or-nothing batch. A file that cannot be
// read, or that the entity refuses as too large, fails the whole drop with an error naming it.
Result<QList<SendResult>> sendFiles(Broker& broker, const QString& targetPath,
                                    const QStringList& files);

} // namespace hourglass::ui
