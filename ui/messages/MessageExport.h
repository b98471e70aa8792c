#pragma once
// Messages as JSON files, for an operator who wants to keep, diff or replay what a queue held.
// One object per message: every system property, the application properties with their types
// by Service Bus's names (engine/PropertyTypes.h: Int32, Int64, DateTime, Guid...; read back
// exactly: an Int32 stays an Int32, a 64-bit integer is written as a decimal string), and
// the body as text when it is valid UTF-8, else as base64, with "bodyEncoding" saying which.
//
// Functions over MessageViews already in hand (no widgets); exportMessages and exportStored do
// file I/O (and exportStored broker reads), so panels run them on a worker thread, in a BulkJob
// step.

#include "hourglass/Broker.h"
#include "hourglass/Message.h"
#include "hourglass/Status.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>
#include <QVariantMap>

namespace hourglass::ui {

// "hourglass.message/1": the "format" field of every exported object.
QString messageExportFormat();

// The message as one JSON object (see the header comment). A message read without its body
// (hasBody false) says so with "bodyEncoding": "none" and a null body.
QJsonObject messageToJson(const MessageView& message);

// The application properties as messageToJson writes them: name -> {"type": ..., "value": ...}.
QJsonObject applicationPropertiesToJson(const QVariantMap& properties);
// The inverse: the same names, values and QVariant types; an unknown type or a value that does
// not fit its type is refused with InvalidArgument naming the property.
Result<QVariantMap> applicationPropertiesFromJson(const QJsonObject& object);

// "<entity>-<sequence number>.json", the entity path made file-name-safe ("t/Subscriptions/s"
// becomes "t_Subscriptions_s").
QString exportFileName(const MessageView& message);

// Writes one file per message into `directory` (which must exist and be writable) and returns
// their paths in message order. Each file is written whole or not at all (QSaveFile); the first
// failure stops the export with an error naming the file, the files before it staying written.
Result<QStringList> exportMessages(const QList<MessageView>& messages, const QString& directory);

// A BulkJob step's body: reads these messages of `path` with their bodies and exports them into
// `directory`. A message gone meanwhile is skipped; any other error stops the export.
Result<void> exportStored(Broker& broker, const QString& path, const QList<qint64>& sequenceNumbers,
                          const QString& directory);

} // namespace hourglass::ui
