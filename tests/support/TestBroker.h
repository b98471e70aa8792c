#pragma once
// A broker for one test: its own database in a QTemporaryDir, on a paused VirtualClock that
// starts at a fixed instant, so that every test is deterministic and never sleeps.

#include "Broker.h"

#include <QTemporaryDir>

#include <memory>

namespace hourglass::testing {

// 2026-01-01T00:00:00Z: the instant every test clock starts at.
inline constexpr Instant kTestStart = 1767225600000;

class TestBroker {
public:
    // Opens a broker with one namespace "test" of the given tier.
    explicit TestBroker(Tier tier = Tier::Standard);

    Broker& broker() { return *m_broker; }
    Broker* operator->() { return m_broker.get(); }
    VirtualClock& clock() { return *m_clock; }
    std::shared_ptr<VirtualClock> clockPtr() const { return m_clock; }
    QString databasePath() const;
    QString dir() const { return m_dir.path(); }

    // Closes the engine and opens the same database again (as after a crash, D2).
    void reopen();
    // Moves the virtual clock ahead, firing everything due on the way.
    void advance(Millis delta);

    // Minimal message with the given id and body.
    static OutgoingMessage message(const QString& messageId, const QByteArray& body = "body");

private:
    QTemporaryDir m_dir;
    std::shared_ptr<VirtualClock> m_clock;
    std::unique_ptr<Broker> m_broker;
};

} // namespace hourglass::testing
