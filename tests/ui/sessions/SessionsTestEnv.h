#pragma once
// For the sessions tests: a queue "orders" that requires sessions (LockDuration 30 s) and a
// plain queue "plain" in namespace "test", on a temporary database and a paused VirtualClock,
// behind a BrokerClient; every call goes through the client, as the panels' do.

#include "ClientCall.h"
#include "TestBroker.h"
#include "UiTestBroker.h"
#include "common/BrokerClient.h"

#include <QTemporaryDir>

#include <memory>

namespace hourglass::testing {

struct SessionsTestEnv {
    QTemporaryDir dir;
    std::shared_ptr<VirtualClock> clock = std::make_shared<VirtualClock>(kTestStart);
    std::unique_ptr<ui::BrokerClient> client;

    SessionsTestEnv() {
        std::unique_ptr<Broker> broker = openUiTestBroker(dir, clock);
        EntityProperties properties = EntityProperties::defaults(Tier::Standard);
        properties.lockDuration = seconds(30);
        properties.requiresSession = true;
        if (!broker->createQueue(QStringLiteral("orders"), properties))
            qFatal("createQueue orders failed");
        if (!broker->createQueue(QStringLiteral("plain"),
                                 EntityProperties::defaults(Tier::Standard)))
            qFatal("createQueue plain failed");
        client = std::make_unique<ui::BrokerClient>(std::move(broker));
    }

    template <typename Work> auto call(Work work) { return callAndWait(*client, std::move(work)); }

    qint64 send(const QString& sessionId, const QString& id) {
        OutgoingMessage m = TestBroker::message(id);
        m.sessionId = sessionId;
        const auto sent = call([m](Broker& b) { return b.send(QStringLiteral("orders"), m); });
        if (!sent)
            qFatal("send: %s", qPrintable(sent.error().toString()));
        return sent->sequenceNumber;
    }

    AcceptedSession accept(const QString& sessionId, const QString& receiver) {
        const auto accepted = call([sessionId, receiver](Broker& b) {
            return b.acceptSession(QStringLiteral("orders"), {receiver, sessionId});
        });
        if (!accepted)
            qFatal("accept: %s", qPrintable(accepted.error().toString()));
        return *accepted;
    }

    SessionInfo session(const QString& sessionId) {
        const auto read =
            call([sessionId](Broker& b) { return b.session(QStringLiteral("orders"), sessionId); });
        if (!read)
            qFatal("session: %s", qPrintable(read.error().toString()));
        return *read;
    }
};

} // namespace hourglass::testing
