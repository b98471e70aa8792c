#pragma once
// One background read at a time, coalesced: a refresh asked for while one is running is queued
// (once, however often it is asked), and started by the owner when the running one is back.
//
//     void Model::refresh() {
//         if (!m_refresh.start())
//             return; // one is running: queued
//         m_client.call(this, read, [this](Snapshot snapshot) {
//             m_refresh.finish();
//             apply(snapshot);
//             if (m_refresh.takeQueued())
//                 refresh();
//         });
//     }
//
// reset() forgets both the running read and a queued one, for an owner that now shows something
// else (its generation check drops the running read's reply).
//
// Threads: the owner's thread only (the GUI thread).

#include <utility>

namespace hourglass::ui {

class CoalescedRefresh {
public:
    // True when nothing was running: the caller starts its read now. False when one is running:
    // another is queued instead.
    bool start() {
        if (m_running) {
            m_queued = true;
            return false;
        }
        m_running = true;
        return true;
    }
    // The running read is back.
    void finish() { m_running = false; }
    // Whether a refresh was asked for meanwhile; the caller starts it. Forgets it either way.
    bool takeQueued() { return std::exchange(m_queued, false); }
    void reset() {
        m_running = false;
        m_queued = false;
    }

private:
    bool m_running = false;
    bool m_queued = false;
};

} // namespace hourglass::ui
