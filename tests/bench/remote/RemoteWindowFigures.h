#pragma once
// The window's side of remote_bench: the real MainWindow (offscreen) beside an empty database of
// its own, a served namespace opened through File > Connect to namespace... as a user opens one,
// and the figures taken on the GUI thread while the remote calls run.

#include "GuiThreadProbe.h"

#include <QString>
#include <QTemporaryDir>

#include <memory>

namespace hourglass::ui {
class MainWindow;
class RemoteNamespaceView;
} // namespace hourglass::ui

namespace hourglass::bench {

// The GUI thread's longest stretch in a phase (GuiThreadProbe), named.
struct PhaseStretch {
    QString phase;
    GuiThreadProbe::Stretch stretch;
};

class RemoteWindowFigures {
public:
    RemoteWindowFigures();
    ~RemoteWindowFigures();

    // The GUI thread while the window opened its own (empty) database, panels and all: what the
    // window costs before any remote call, for comparison.
    PhaseStretch localOpening() const { return m_localOpening; }

    // Saves and opens the namespace `connection` through the Connect dialog. The figure: from
    // the Save click to the tree showing `entities` entities (queues, topics, subscriptions),
    // the queue `queue` with its count of `messages`.
    struct Opening {
        double connectedMs = 0; // the namespace opened (its header says connected)
        double treeMs = 0;      // every entity in the tree with its counts
        PhaseStretch busy;
    };
    Opening open(const QString& connection, int entities, const QString& queue, qint64 messages);

    // Selects the queue in the tree (after selecting `other`, so that it is a fresh selection),
    // then pages the message list down as a user dragging to the end would, until it holds
    // `rows` rows. The figures: from the selection to the first page's rows painted, and to
    // `rows` rows in the list.
    struct Paging {
        double firstPaintMs = 0;
        double allRowsMs = 0;
        int pages = 0; // the pages the list read
        PhaseStretch busy;
    };
    Paging pageThrough(const QString& queue, const QString& other, int rows);

private:
    QTemporaryDir m_dir;
    std::unique_ptr<ui::MainWindow> m_window;
    ui::RemoteNamespaceView* m_view = nullptr;
    GuiThreadProbe m_probe;
    PhaseStretch m_localOpening;
};

} // namespace hourglass::bench
