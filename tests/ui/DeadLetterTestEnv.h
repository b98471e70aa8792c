#pragma once
// For the dead-letter and export tests: a broker on a temporary database and a paused virtual
// clock behind a BrokerClient, with entities to dead-letter into, and the panel lookups.

#include "ClientCall.h"
#include "IndexlessBroker.h"
#include "TestBroker.h"
#include "UiTestBroker.h"
#include "common/BrokerClient.h"

#include <QTemporaryDir>
#include <QTest>
#include <QWidget>

#include <memory>

namespace hourglass::testing::deadletter {

using namespace hourglass;
using ui::BrokerClient;

const QString kQueue = QStringLiteral("orders");
const QString kDlq = QStringLiteral("orders/$deadletterqueue");

// A broker on a temporary database and a paused virtual clock, handed to a BrokerClient: a queue
// "orders" that dead-letters on expiry, and a topic "t" with subscriptions "s1" and "s2". With
// `withoutIndex`, the broker is seen through IndexlessBroker (a namespace without a sequence
// index).
struct Env {
    QTemporaryDir dir;
    std::shared_ptr<VirtualClock> clock = std::make_shared<VirtualClock>(testing::kTestStart);
    IndexlessBroker* indexless = nullptr;
    std::unique_ptr<BrokerClient> client;

    explicit Env(bool withoutIndex = false) {
        std::unique_ptr<Broker> broker = openUiTestBroker(dir, clock);
        EntityProperties properties = EntityProperties::defaults(Tier::Standard);
        properties.deadLetteringOnMessageExpiration = true;
        if (!broker->createQueue(kQueue, properties) ||
            !broker->createTopic(QStringLiteral("t"), properties) ||
            !broker->createSubscription(QStringLiteral("t/Subscriptions/s1"), properties) ||
            !broker->createSubscription(QStringLiteral("t/Subscriptions/s2"), properties))
            qFatal("creating the entities failed");
        if (withoutIndex) {
            // Fewer rows a read than asked for, as a service's peek may answer.
            auto wrapped = std::make_unique<IndexlessBroker>(std::move(broker), 37);
            indexless = wrapped.get();
            broker = std::move(wrapped);
        }
        client = std::make_unique<BrokerClient>(std::move(broker));
    }

    template <typename Work> auto call(Work work) {
        return hourglass::testing::callAndWait(*client, std::move(work));
    }

    // Sends `count` messages and dead-letters them by hand with this reason (L7).
    void deadLetter(const QString& path, int count, const QString& reason,
                    const QString& description) {
        for (int i = 0; i < count; ++i) {
            OutgoingMessage m = message(QStringLiteral("%1-%2").arg(reason).arg(i));
            // A subscription gets its messages through its topic.
            const QString target = path == kQueue ? kQueue : QStringLiteral("t");
            if (!call([m, target](Broker& b) { return b.send(target, m); }))
                qFatal("send failed");
            auto received = call([path](Broker& b) {
                return b.receive(path, {ReceiveMode::PeekLock, 1, QStringLiteral("tester")});
            });
            if (!received || received->size() != 1)
                qFatal("receive failed");
            const LockRef lock = LockRef::of(received->first());
            if (!call([=](Broker& b) { return b.deadLetter(lock, {reason, description, {}}); }))
                qFatal("deadLetter failed");
        }
    }

    // Sends `count` messages that expire in a minute, then lets them expire into the
    // dead-letter queue (T7).
    void expire(int count) {
        QList<OutgoingMessage> batch;
        for (int i = 0; i < count; ++i) {
            OutgoingMessage m = message(QStringLiteral("ttl-%1").arg(i));
            m.timeToLive = minutes(1);
            batch.append(m);
            if (batch.size() == 1000 || i == count - 1) {
                if (!call([batch](Broker& b) { return b.sendBatch(kQueue, batch); }))
                    qFatal("sendBatch failed");
                batch.clear();
            }
        }
        if (!call([](Broker& b) { return b.advanceClock(minutes(2)); }))
            qFatal("advanceClock failed");
    }

    EntityCounts counts(const QString& path) {
        auto counts = call([path](Broker& b) { return b.counts(path); });
        return counts ? *counts : EntityCounts{};
    }

    static OutgoingMessage message(const QString& id) {
        OutgoingMessage m;
        m.messageId = id;
        m.correlationId = QStringLiteral("corr-") + id;
        m.subject = QStringLiteral("order");
        m.body = "{\"id\":\"" + id.toUtf8() + "\"}";
        m.applicationProperties = {{QStringLiteral("customer"), QStringLiteral("acme")},
                                   {QStringLiteral("attempt"), 3}};
        return m;
    }
};

// A failed Result's error for a QVERIFY2 message (which is built even when the check passes).
template <typename R> QByteArray why(const R& result) {
    return result.ok() ? QByteArray() : result.error().toString().toUtf8();
}

// A named child of a panel; a missing one ends the test run with its name.
template <typename T> T* child(const QWidget& panel, const char* name) {
    T* found = panel.findChild<T*>(QLatin1String(name));
    if (!found)
        qFatal("no child %s", name);
    return found;
}

} // namespace hourglass::testing::deadletter
