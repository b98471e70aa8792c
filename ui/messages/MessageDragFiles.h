#pragma once
// JSON files (MessageExport.h) of a small selection of messages, kept ready so that a drag out of
// the window can carry them as text/uri-list. A drag cannot wait for the engine, and bodies are
// never read on the GUI thread, so the files are written in the background whenever the
// selection changes (up to kMaxMessages messages); a drag that starts before they are ready, or
// over a larger selection, carries the messages only.
//
// Each selection gets its own folder under one temporary directory, removed with this object, so
// that a drop still reading older files is not overwritten.
//
// Threads: GUI thread only; the reads and writes run through BrokerClient.

#include "common/MessageDrag.h"

#include <QList>
#include <QObject>
#include <QUrl>

#include <memory>

class QTemporaryDir;

namespace hourglass::ui {

class BrokerClient;

class MessageDragFiles : public QObject {
    Q_OBJECT
public:
    static constexpr int kMaxMessages = 20;

    explicit MessageDragFiles(BrokerClient& client, QObject* parent = nullptr);
    ~MessageDragFiles() override;

    // Starts writing the files of `messages` unless they are ready or being written already;
    // more than kMaxMessages (or none) only forgets the files of an earlier selection.
    void prepare(const DraggedMessages& messages);
    // The files of exactly `messages`, when ready; empty otherwise.
    QList<QUrl> urlsFor(const DraggedMessages& messages) const;

signals:
    // The files of the latest selection are ready.
    void ready();

private:
    BrokerClient& m_client;
    std::unique_ptr<QTemporaryDir> m_dir;
    quint64 m_generation = 0;
    DraggedMessages m_wanted;
    DraggedMessages m_ready;
    QList<QUrl> m_urls;
};

} // namespace hourglass::ui
