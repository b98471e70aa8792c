#pragma once
// For the drag-and-drop tests: the dead-letter Env ("orders", topic "t") plus an empty queue "b"
// to drop onto, and lookups of tree rows by path.

#include "DeadLetterTestEnv.h"
#include "common/MessageDrag.h"
#include "tree/NamespaceTreeModel.h"

#include <QMimeData>

#include <functional>
#include <memory>

namespace hourglass::testing::dragdrop {

using namespace hourglass::testing::deadletter;
using ui::NamespaceTreeModel;

inline const QString kTarget = QStringLiteral("b");

// The dead-letter Env plus the queue "b".
struct DropEnv : Env {
    DropEnv() {
        if (!call([](Broker& b) {
                return b.createQueue(kTarget, EntityProperties::defaults(Tier::Standard));
            }))
            qFatal("createQueue failed");
    }

    QList<qint64> sendTo(const QString& path, int count) {
        QList<OutgoingMessage> batch;
        for (int i = 0; i < count; ++i)
            batch.append(message(QStringLiteral("m-%1").arg(i)));
        auto sent = call([path, batch](Broker& b) { return b.sendBatch(path, batch); });
        if (!sent)
            qFatal("sendBatch failed");
        QList<qint64> out;
        for (const SendResult& r : *sent)
            out.append(r.sequenceNumber);
        return out;
    }

    QList<MessageView> messages(const QString& path) {
        auto list =
            call([path](Broker& b) { return b.listMessages(path, 0, 1000, Broker::Bodies::With); });
        return list ? *list : QList<MessageView>{};
    }

    void update(const QString& path, std::function<void(EntityProperties&)> change) {
        auto info = call([path](Broker& b) { return b.entity(path); });
        EntityProperties properties = info->properties;
        change(properties);
        if (!call([=](Broker& b) { return b.updateEntity(path, properties); }))
            qFatal("updateEntity failed");
    }
};

inline std::unique_ptr<QMimeData> messagesMime(const QString& source, const QList<qint64>& seqs) {
    auto mime = std::make_unique<QMimeData>();
    ui::encodeMessages({source, seqs}, mime.get());
    return mime;
}

inline QModelIndex rowOf(const QAbstractItemModel& model, const QString& path) {
    const QModelIndexList found = model.match(model.index(0, 0), NamespaceTreeModel::PathRole, path,
                                              1, Qt::MatchExactly | Qt::MatchRecursive);
    return found.isEmpty() ? QModelIndex() : found.first();
}

// Waits for the tree's first snapshot to show `path`.
inline bool waitForRow(NamespaceTreeModel& model, const QString& path) {
    return QTest::qWaitFor([&] { return model.isLoaded() && rowOf(model, path).isValid(); });
}

} // namespace hourglass::testing::dragdrop
