#pragma once
// For the peek and lock panel tests: one queue "q" in namespace "test" on a temporary database
// and a paused VirtualClock, behind a BrokerClient, plus the engine reads the tests check
// against (every call goes through the client, as the panels' do).

#include "ClientCall.h"
#include "TestBroker.h"
#include "UiTestBroker.h"
#include "common/BrokerClient.h"

#include <QTemporaryDir>

#include <memory>

namespace hourglass::testing {

struct LocksTestEnv {
    QTemporaryDir dir;
    std::shared_ptr<VirtualClock> clock = std::make_shared<VirtualClock>(kTestStart);
    std::unique_ptr<ui::BrokerClient> client;

    explicit LocksTestEnv(Millis lockDuration = seconds(30)) {
        std::unique_ptr<Broker> broker = openUiTestBroker(dir, clock);
        EntityProperties properties = EntityProperties::defaults(Tier::Standard);
        properties.lockDuration = lockDuration;
        if (!broker->createQueue(QStringLiteral("q"), properties))
            qFatal("createQueue failed");
        client = std::make_unique<ui::BrokerClient>(std::move(broker));
    }

    template <typename Work> auto call(Work work) { return callAndWait(*client, std::move(work)); }

    Instant now() const { return clock->now(); }

    qint64 send(const QString& id, std::optional<Millis> ttl = std::nullopt) {
        OutgoingMessage m = TestBroker::message(id);
        m.timeToLive = ttl;
        const auto sent = call([m](Broker& b) { return b.send(QStringLiteral("q"), m); });
        if (!sent)
            qFatal("send: %s", qPrintable(sent.error().toString()));
        return sent->sequenceNumber;
    }

    void sendMany(int count) {
        QList<OutgoingMessage> batch;
        for (int i = 0; i < count; ++i)
            batch.append(TestBroker::message(QStringLiteral("m%1").arg(i)));
        const auto sent =
            call([batch](Broker& b) { return b.sendBatch(QStringLiteral("q"), batch); });
        if (!sent)
            qFatal("sendBatch: %s", qPrintable(sent.error().toString()));
    }

    QList<MessageView> receive(int count, const QString& receiver) {
        ReceiveOptions options{ReceiveMode::PeekLock, count, receiver};
        auto taken = call([options](Broker& b) { return b.receive(QStringLiteral("q"), options); });
        if (!taken)
            qFatal("receive: %s", qPrintable(taken.error().toString()));
        return *taken;
    }

    EntityCounts counts(const QString& path = QStringLiteral("q")) {
        const auto read = call([path](Broker& b) { return b.counts(path); });
        if (!read)
            qFatal("counts: %s", qPrintable(read.error().toString()));
        return *read;
    }

    Result<MessageView> message(qint64 sequenceNumber, const QString& path = QStringLiteral("q")) {
        return call([path, sequenceNumber](Broker& b) { return b.message(path, sequenceNumber); });
    }

    QList<MessageView> all(const QString& path = QStringLiteral("q")) {
        const auto read = call([path](Broker& b) { return b.listMessages(path, 0, 10000); });
        if (!read)
            qFatal("listMessages: %s", qPrintable(read.error().toString()));
        return *read;
    }
};

} // namespace hourglass::testing
