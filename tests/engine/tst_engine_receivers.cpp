// What a receiver may take messages from, decided once, by the broker (S1, L12): checkReceiver
// answers for a plain receiver as receive() would, without receiving (the AMQP endpoint asks it
// when a receiver attaches); and the refusals of a call that does not fit the kind of entity
// (a receive from a topic, a plain receive from a session entity, a session accepted on a plain
// one, a message without SessionId to a session entity) say so (Error::wrongEntityKind), apart
// from refusals of a bad value.

#include "EngineChecks.h"
#include "TestBroker.h"

#include <QTest>

using namespace hourglass;
using namespace hourglass::testing;

namespace {
const QString kQueue = QStringLiteral("test:plain");
const QString kSessionQueue = QStringLiteral("test:sessions");
const QString kTopic = QStringLiteral("test:events");
} // namespace

class TestEngineReceivers : public QObject {
    Q_OBJECT
private slots:
    void init() {
        m_broker = std::make_unique<TestBroker>();
        const auto defaults = EntityProperties::defaults(Tier::Standard);
        QVERIFY((*m_broker)->createQueue(kQueue, defaults).ok());
        EntityProperties sessions = defaults;
        sessions.requiresSession = true;
        QVERIFY((*m_broker)->createQueue(kSessionQueue, sessions).ok());
        QVERIFY((*m_broker)->createTopic(kTopic, defaults).ok());
    }
    void cleanup() { m_broker.reset(); }

    void S1_checkReceiverAnswersAsReceiveWould_data() {
        QTest::addColumn<QString>("path");
        QTest::addColumn<int>("code"); // -1: fits
        QTest::addColumn<bool>("wrongKind");
        QTest::newRow("plain queue") << kQueue << -1 << false;
        QTest::newRow("its dead-letter queue")
            << kQueue + QStringLiteral("/$deadletterqueue") << -1 << false;
        QTest::newRow("session queue") << kSessionQueue << int(ErrorCode::InvalidArgument) << true;
        QTest::newRow("session queue's dead-letter queue")
            << kSessionQueue + QStringLiteral("/$deadletterqueue") << -1 << false;
        QTest::newRow("topic") << kTopic << int(ErrorCode::InvalidArgument) << true;
        QTest::newRow("missing") << QStringLiteral("test:nothing")
                                 << int(ErrorCode::MessagingEntityNotFound) << false;
        QTest::newRow("not a path")
            << QStringLiteral("test:a//b") << int(ErrorCode::InvalidArgument) << false;
    }
    void S1_checkReceiverAnswersAsReceiveWould() {
        QFETCH(QString, path);
        QFETCH(int, code);
        QFETCH(bool, wrongKind);
        Broker& broker = m_broker->broker();
        const auto checked = broker.checkReceiver(path);
        const auto received = broker.receive(path, peekLock(QStringLiteral("r")));
        QCOMPARE(checked.ok(), code < 0);
        QCOMPARE(received.ok(), code < 0);
        if (code < 0)
            return;
        QCOMPARE(int(checked.error().code), code);
        QCOMPARE(checked.error().wrongEntityKind, wrongKind);
        QCOMPARE(checked.error().code, received.error().code);
        QCOMPARE(received.error().wrongEntityKind, wrongKind);
    }

    // The check reads: no activity (A2), and the entity's status is not looked at (a disabled
    // queue's first receive says so itself).
    void A2_checkReceiverIsNoActivityAndIgnoresStatus() {
        Broker& broker = m_broker->broker();
        const Instant before = broker.entity(kQueue)->lastActivityAt;
        m_broker->advance(60000);
        QVERIFY(broker.checkReceiver(kQueue).ok());
        QCOMPARE(broker.entity(kQueue)->lastActivityAt, before);
        EntityProperties disabled = broker.entity(kQueue)->properties;
        disabled.status = EntityStatus::Disabled;
        QVERIFY(broker.updateEntity(kQueue, disabled).ok());
        QVERIFY(broker.checkReceiver(kQueue).ok());
        const auto received = broker.receive(kQueue, peekLock(QStringLiteral("r")));
        QVERIFY(!received);
        QCOMPARE(received.error().code, ErrorCode::MessagingEntityDisabled);
    }

    // Every refusal of a call that does not fit the kind of entity says so; a bad value does not.
    void S1_wrongKindOfEntityIsToldApart() {
        Broker& broker = m_broker->broker();
        const auto unsent = broker.send(kSessionQueue, TestBroker::message(QStringLiteral("m")));
        QVERIFY(!unsent);
        QCOMPARE(unsent.error().code, ErrorCode::InvalidArgument);
        QVERIFY(unsent.error().wrongEntityKind);

        SessionAcceptOptions options;
        options.receiver = QStringLiteral("r");
        options.sessionId = QStringLiteral("s");
        for (const QString& path :
             {kQueue, kTopic, kSessionQueue + QStringLiteral("/$deadletterqueue")}) {
            const auto accepted = broker.acceptSession(path, options);
            QVERIFY(!accepted);
            QCOMPARE(accepted.error().code, ErrorCode::InvalidArgument);
            QVERIFY2(accepted.error().wrongEntityKind, qPrintable(path));
        }
        options.sessionId = QString(); // a bad value, on the right kind of entity
        const auto empty = broker.acceptSession(kSessionQueue, options);
        QVERIFY(!empty);
        QCOMPARE(empty.error().code, ErrorCode::InvalidArgument);
        QVERIFY(!empty.error().wrongEntityKind);
        const auto badCount = broker.receive(kQueue, peekLock(QStringLiteral("r"), 0));
        QVERIFY(!badCount);
        QVERIFY(!badCount.error().wrongEntityKind);
    }

private:
    std::unique_ptr<TestBroker> m_broker;
};

QTEST_GUILESS_MAIN(TestEngineReceivers)
#include "tst_engine_receivers.moc"
