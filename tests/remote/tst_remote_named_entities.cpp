// A key that cannot list its namespace (the administration API answers 401: no Manage right, or a
// signature made for one entity) still browses the entities the user names: the text the user
// writes (NamedEntities.h), then RemoteBroker against an in-process namespace
// (ServedNamespace.h) with a signature scoped to one entity: the named entities listed with
// their counts unknown, peek, send, receive and settle on them, what needs the API refused with
// its 401, and a wrong key still said to be wrong.

#include "ServedNamespace.h"
#include "WorkerCall.h"

#include "hourglass/amqpcodec/SasToken.h"
#include "hourglass/remote/NamedEntities.h"
#include "hourglass/remote/RemoteBroker.h"

#include <QDateTime>
#include <QTest>

#include <memory>

using namespace hourglass;
using namespace hourglass::remote;
using namespace hourglass::testing;

namespace {

QStringList pathsOf(const QList<EntityInfo>& entities) {
    QStringList paths;
    for (const EntityInfo& entity : entities)
        paths.append(entity.path);
    return paths;
}

// An emulator-style string carrying a signature made for `audiencePath` only (an entity of the
// served namespace, or a wrong key's signature for it).
QString scopedConnectionText(const ServedNamespace& served, const QString& audiencePath,
                             const QString& entityPath, const QString& keyValue) {
    const QString audience =
        QStringLiteral("sb://localhost:%1/%2").arg(served.port()).arg(audiencePath);
    const qint64 expires = QDateTime::currentSecsSinceEpoch() + 3600;
    const QString token = amqp::makeSasToken(
        audience, amqp::SasKey{QStringLiteral("RootManageSharedAccessKey"), keyValue}, expires);
    QString text = QStringLiteral("Endpoint=sb://localhost:%1;SharedAccessSignature=%2;"
                                  "UseDevelopmentEmulator=true")
                       .arg(served.port())
                       .arg(token);
    if (!entityPath.isEmpty())
        text += QStringLiteral(";EntityPath=") + entityPath;
    return text;
}

std::unique_ptr<RemoteBroker> remoteFor(const QString& connectionText,
                                        const QList<NamedEntity>& alsoNamed = {}) {
    const auto parsed = parseConnectionString(connectionText);
    if (!parsed)
        qFatal("bad connection string in a test");
    RemoteBrokerOptions options = RemoteBrokerOptions::forConnection(*parsed);
    options.admin.timeout = std::chrono::milliseconds(5000);
    options.amqp.callTimeoutMs = 5000;
    options.pollInterval = std::chrono::hours(1);
    options.namedEntities += alsoNamed;
    return std::make_unique<RemoteBroker>(options);
}

OutgoingMessage textMessage(const QString& body) {
    OutgoingMessage message;
    message.body = body.toUtf8();
    return message;
}

} // namespace

class TestRemoteNamedEntities : public QObject {
    Q_OBJECT

private slots:
    void theTextReadsKindsFromPathsAndWords() {
        const auto named = parseNamedEntities(
            QStringLiteral("orders\n\n# a comment\ntopic events\n  events/subscriptions/audit \n"
                           "QUEUE invoices\nsubscription billing/Subscriptions/all\nORDERS"));
        QVERIFY2(named, qPrintable(named ? QString() : named.error().toString()));
        const QList<NamedEntity> expected{
            {QStringLiteral("ORDERS"), EntityKind::Queue},
            {QStringLiteral("events"), EntityKind::Topic},
            {QStringLiteral("events/subscriptions/audit"), EntityKind::Subscription},
            {QStringLiteral("invoices"), EntityKind::Queue},
            {QStringLiteral("billing/Subscriptions/all"), EntityKind::Subscription},
        };
        QCOMPARE(*named, expected);
        // What is written back reads the same.
        const auto again = parseNamedEntities(namedEntitiesText(*named));
        QVERIFY(again);
        QCOMPARE(*again, expected);
    }

    void aBadLineIsNamedAndNothingIsRead_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("line");
        QTest::newRow("unknown kind") << QStringLiteral("orders\nstream events") << "Line 2";
        QTest::newRow("bad path") << QStringLiteral("a//b") << "Line 1";
        QTest::newRow("three words") << QStringLiteral("\ntopic events more") << "Line 2";
        QTest::newRow("subscription kind, queue path")
            << QStringLiteral("subscription orders") << "Line 1";
        QTest::newRow("queue kind, subscription path")
            << QStringLiteral("queue t/subscriptions/s") << "Line 1";
        QTest::newRow("dead-letter queue") << QStringLiteral("orders/$deadletterqueue") << "Line 1";
        QTest::newRow("namespace") << QStringLiteral("other:orders") << "Line 1";
    }
    void aBadLineIsNamedAndNothingIsRead() {
        QFETCH(QString, text);
        QFETCH(QString, line);
        const auto named = parseNamedEntities(text);
        QVERIFY(!named);
        QCOMPARE(named.error().code, ErrorCode::InvalidArgument);
        QVERIFY2(named.error().description.startsWith(line), qPrintable(named.error().description));
    }

    void aSubscriptionBringsItsTopicAndTheListIsOrdered() {
        const QList<NamedEntity> named{
            {QStringLiteral("zeta/subscriptions/b"), EntityKind::Subscription},
            {QStringLiteral("orders"), EntityKind::Queue},
            {QStringLiteral("zeta/subscriptions/a"), EntityKind::Subscription},
        };
        const QList<EntityInfo> infos = namedEntityInfos(named, QStringLiteral("contoso"));
        QCOMPARE(pathsOf(infos),
                 (QStringList{"orders", "zeta", "zeta/subscriptions/a", "zeta/subscriptions/b"}));
        QCOMPARE(infos[1].kind, EntityKind::Topic);
        QCOMPARE(infos[2].kind, EntityKind::Subscription);
        QCOMPARE(infos[2].topicPath, QStringLiteral("zeta"));
        QCOMPARE(infos[2].name, QStringLiteral("a"));
        for (const EntityInfo& info : infos) {
            QVERIFY(!info.countsKnown);
            QCOMPARE(info.namespaceName, QStringLiteral("contoso"));
        }
        // The string's EntityPath names a subscription or (it cannot tell a topic) a queue.
        QCOMPARE(namedEntityOf(QStringLiteral("t/Subscriptions/s")).kind, EntityKind::Subscription);
        QCOMPARE(namedEntityOf(QStringLiteral("orders")).kind, EntityKind::Queue);
    }

    void aKeyForOneQueueBrowsesItAndWorksItsMessages() {
        ServedNamespace served(ServedNamespace::Transport::Plain);
        QVERIFY(served.broker().createQueue(QStringLiteral("orders"), {}));
        QVERIFY(served.broker().createQueue(QStringLiteral("secret"), {}));
        QVERIFY(served.broker().send(QStringLiteral("orders"), textMessage("first")));
        // The signature is made for "orders": the API reads that queue but lists nothing, and
        // "secret", named as well, is beyond it.
        auto remote = remoteFor(scopedConnectionText(served, QStringLiteral("orders"),
                                                     QStringLiteral("orders"),
                                                     QStringLiteral("SAS_KEY_VALUE")),
                                {{QStringLiteral("secret"), EntityKind::Queue}});

        const auto listed = onWorker([&] { return remote->entities({}); });
        QCOMPARE(pathsOf(listed), (QStringList{"orders", "secret"}));
        QVERIFY(listed[0].countsKnown);
        QCOMPARE(listed[0].counts.active, 1);
        QVERIFY(!listed[1].countsKnown);
        QCOMPARE(listed[1].counts, EntityCounts{});
        QCOMPARE(listed[1].namespaceName, QStringLiteral("localhost"));
        QVERIFY(remote->listsNamedOnly());
        QCOMPARE(remote->lastListError(), QString());

        // The data plane works on it: peek, send, receive and settle.
        const auto peeked = onWorker([&] { return remote->peek(QStringLiteral("orders"), 0, 10); });
        QVERIFY2(peeked, qPrintable(peeked ? QString() : peeked.error().toString()));
        QCOMPARE(peeked->size(), 1);
        QCOMPARE(peeked->first().body, QByteArray("first"));
        QVERIFY(onWorker([&] {
            return remote->send(QStringLiteral("localhost:orders"), textMessage("second"));
        }));
        QVERIFY(onWorker([&] { return remote->checkReceiver(QStringLiteral("orders")); }));
        ReceiveOptions receive;
        receive.maxCount = 2;
        receive.receiver = QStringLiteral("window");
        QList<MessageView> got;
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                const auto more =
                    onWorker([&] { return remote->receive(QStringLiteral("orders"), receive); });
                if (more)
                    got += *more;
                return got.size() == 2;
            }(),
            10000);
        for (const MessageView& message : got)
            QVERIFY(onWorker([&] { return remote->complete(LockRef::of(message)); }));
        QTRY_COMPARE(served.broker().counts(QStringLiteral("orders"))->active, 0);

        // A named entity beyond the API reads as named, its counts unknown; one not named
        // answers the API's 401, as does what only the API can do.
        const auto named = onWorker([&] { return remote->entity(QStringLiteral("secret")); });
        QVERIFY(named);
        QVERIFY(!named->countsKnown);
        QVERIFY(
            onWorker([&] { return remote->counts(QStringLiteral("secret/$deadletterqueue")); }));
        QVERIFY(onWorker([&] { return remote->checkReceiver(QStringLiteral("secret")); }));
        QVERIFY(served.broker().createQueue(QStringLiteral("unnamed"), {}));
        const auto other = onWorker([&] { return remote->entity(QStringLiteral("unnamed")); });
        QVERIFY(!other);
        QCOMPARE(other.error().code, ErrorCode::Unauthorized);
        const auto created =
            onWorker([&] { return remote->createQueue(QStringLiteral("more"), {}); });
        QVERIFY(!created);
        QCOMPARE(created.error().code, ErrorCode::Unauthorized);
        QVERIFY(!served.broker().entity(QStringLiteral("more")));
    }

    void aSubscriptionNamedBesideTheStringsEntityIsListedWithItsTopic() {
        ServedNamespace served(ServedNamespace::Transport::Plain);
        QVERIFY(served.broker().createTopic(QStringLiteral("events"), {}));
        QVERIFY(served.broker().createSubscription(QStringLiteral("events/subscriptions/audit"), {},
                                                   {}));
        QVERIFY(served.broker().send(QStringLiteral("events"), textMessage("hello")));
        auto remote =
            remoteFor(scopedConnectionText(served, QStringLiteral("events"), QString(),
                                           QStringLiteral("SAS_KEY_VALUE")),
                      {{QStringLiteral("events/subscriptions/audit"), EntityKind::Subscription}});
        const auto listed = onWorker([&] { return remote->entities({}); });
        // Each as the service names it (the signature for the topic reads its subscription).
        QCOMPARE(pathsOf(listed), (QStringList{"events", "events/Subscriptions/audit"}));
        QCOMPARE(listed.first().kind, EntityKind::Topic);
        const auto peeked = onWorker(
            [&] { return remote->peek(QStringLiteral("events/subscriptions/audit"), 0, 10); });
        QVERIFY2(peeked, qPrintable(peeked ? QString() : peeked.error().toString()));
        QCOMPARE(peeked->size(), 1);
        // A topic is no receiver, whether the API or the names say what it is.
        const auto topicReceive =
            onWorker([&] { return remote->checkReceiver(QStringLiteral("events")); });
        QVERIFY(!topicReceive);
        QCOMPARE(topicReceive.error().code, ErrorCode::InvalidArgument);
    }

    void aWrongKeyIsStillSaidToBeWrong() {
        ServedNamespace served(ServedNamespace::Transport::Plain);
        QVERIFY(served.broker().createQueue(QStringLiteral("orders"), {}));
        auto remote = remoteFor(scopedConnectionText(served, QStringLiteral("orders"),
                                                     QStringLiteral("orders"),
                                                     QStringLiteral("not-the-key")));
        QVERIFY(onWorker([&] { return remote->entities({}); }).isEmpty());
        QVERIFY(!remote->listsNamedOnly());
        QVERIFY(!remote->lastListError().isEmpty());
        QVERIFY(!remote->lastListError().contains(QStringLiteral("name the entities")));
        QVERIFY2(!remote->lastListError().contains(QStringLiteral("not-the-key")),
                 qPrintable(remote->lastListError()));
    }

    void withoutNamesA401IsTheListsError() {
        ServedNamespace served(ServedNamespace::Transport::Plain);
        QVERIFY(served.broker().createQueue(QStringLiteral("orders"), {}));
        auto remote = remoteFor(scopedConnectionText(served, QStringLiteral("orders"), QString(),
                                                     QStringLiteral("SAS_KEY_VALUE")));
        QVERIFY(onWorker([&] { return remote->entities({}); }).isEmpty());
        QVERIFY(!remote->listsNamedOnly());
        // The key is good (the AMQP side took it): the user learns what to do.
        QVERIFY2(remote->lastListError().contains(QStringLiteral("name the entities")),
                 qPrintable(remote->lastListError()));
    }
};

QTEST_GUILESS_MAIN(TestRemoteNamedEntities)
#include "tst_remote_named_entities.moc"
