#pragma once
// The sequence numbers of a selection that reaches rows of the windowed message list not loaded
// yet, read in the background as soon as the selection settles. A drag has to start at once and
// cannot wait for such a read (MessageSelection::resolve), so it takes what was read ahead; until
// then it is refused with a word that the read is under way.
//
// Threads: GUI thread only.

#include "hourglass/Status.h"

#include <QList>
#include <QObject>
#include <QTimer>

#include <functional>
#include <optional>

namespace hourglass::ui {

class SelectionPrefetch : public QObject {
    Q_OBJECT
public:
    using Done = std::function<void(Result<QList<qint64>>)>;
    // Reads the selection's sequence numbers; calls done on the GUI thread (unless context is
    // gone), possibly before it returns.
    using Resolve = std::function<void(QObject* context, Done done)>;

    static constexpr int kSettleMs = 150; // a selection dragged out with the mouse settles first

    explicit SelectionPrefetch(Resolve resolve, QObject* parent = nullptr);

    // The selection, or the list under it, changed: what was read is forgotten, and read again
    // once the selection settles when `needed` (some selected rows are not loaded).
    void invalidate(bool needed);
    // What was read for the selection as it is now; empty while reading or when nothing was
    // needed.
    const std::optional<Result<QList<qint64>>>& result() const { return m_result; }
    bool isReading() const { return m_timer.isActive() || m_reading; }

signals:
    void ready();

private:
    void read();

    Resolve m_resolve;
    QTimer m_timer;
    quint64 m_generation = 0; // a read started for an older selection reports to nobody
    bool m_reading = false;
    std::optional<Result<QList<qint64>>> m_result;
};

} // namespace hourglass::ui
