#pragma once
// A broker for one test: its own database in a QTemporaryDir, on a paused VirtualClock that
// starts at a fixed instant, so that every test is deterministic and never sleeps.

#include "hourglass/Broker.h"

#include <QTemporaryDir>

#include <memory>

namespace hourglass::testing {

// 2026-01-01T00:00:00Z: the instant every test clock starts at.
inline constexpr Instant kTestStart = 1767225600000;

class TestBroker {
public:
    // Opens a broker with one namespace "test" of the given tier.
    explicit TestBroker(Tier tier = Tier::Standard);
    // Opens the existing database of another TestBroker on a paused clock at `now`, and creates
    // nothing: the child process of a kill -9 restart (KilledRestart.h) works on its parent's
    // database this way. The database is not removed afterwards; its owner does that.
    TestBroker(const QString& databasePath, Instant now);

    Broker& broker() { return *m_broker; }
    Broker* operator->() { return m_broker.get(); }
    VirtualClock& clock() { return *m_clock; }
    std::shared_ptr<VirtualClock> clockPtr() const { return m_clock; }
    QString databasePath() const { return m_databasePath; }

    // Closes the engine cleanly (its store writes everything pending) and opens the same
    // database again. This is a clean restart, not a crash: KilledRestart.h has the kill -9 one.
    void reopen();
    // Closes the engine cleanly; reopen() opens it again. Until then only clock() may be used.
    void close();
    // Moves the virtual clock ahead, firing everything due on the way.
    void advance(Millis delta);

    // Minimal message with the given id and body.
    static OutgoingMessage message(const QString& messageId, const QByteArray& body = "body");

private:
    std::unique_ptr<QTemporaryDir> m_dir; // null when the database belongs to another TestBroker
    QString m_databasePath;
    std::shared_ptr<VirtualClock> m_clock;
    std::unique_ptr<Broker> m_broker;
};

} // namespace hourglass::testing
