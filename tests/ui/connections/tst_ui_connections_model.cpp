// The Connections view's tree over successive snapshots of the endpoint: connections, links and
// locks come and go with the right row signals (QAbstractItemModelTester checks every one), a
// row that appears arrives whole inside one insertion, rows that stay keep their place (and
// persistent indexes, so expansion and selection stay), and locks read in sequence order.

#include "connections/ConnectionsModel.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

using namespace hourglass;
using namespace hourglass::ui;

using Snapshot = QList<amqp::WireConnection>;
Q_DECLARE_METATYPE(Snapshot)

namespace {

constexpr Instant kNow = 1'000'000;

amqp::WireLock lock(qint64 sequenceNumber) {
    amqp::WireLock k;
    k.token = QUuid(uint(sequenceNumber), 0, 0, 0, 0, 0, 0, 0, 0, 0, 1);
    k.entityPath = QStringLiteral("orders");
    k.sequenceNumber = sequenceNumber;
    k.lockedUntil = kNow + 30'000;
    return k;
}

amqp::WireLink receiverLink(const QString& name, const QList<qint64>& lockedSequenceNumbers = {}) {
    amqp::WireLink link;
    link.name = name;
    link.address = name;
    link.direction = amqp::WireLink::Direction::ClientReceives;
    link.settleMode = QStringLiteral("peek-lock");
    for (qint64 sequenceNumber : lockedSequenceNumbers)
        link.locks.append(lock(sequenceNumber));
    return link;
}

amqp::WireLink senderLink(const QString& name) {
    amqp::WireLink link;
    link.name = name;
    link.address = name;
    return link;
}

amqp::WireConnection connection(quint64 id, const QList<amqp::WireLink>& links = {}) {
    amqp::WireConnection c;
    c.id = id;
    c.peer = QStringLiteral("127.0.0.1:%1").arg(40000 + id);
    c.links = links;
    return c;
}

// The tree as one line: "1(r(3 5) s) 2" is connection 1 with links r (locks of messages 3 and
// 5) and s, then connection 2 with no link.
QString dump(const ConnectionsModel& model, const QModelIndex& parent = {}) {
    QStringList rows;
    for (int row = 0; row < model.rowCount(parent); ++row) {
        const QModelIndex index = model.index(row, 0, parent);
        QString label;
        switch (model.kind(index)) {
        case ConnectionsModel::Kind::Connection:
            label = QString::number(index.data(ConnectionsModel::ConnectionIdRole).toULongLong());
            break;
        case ConnectionsModel::Kind::Link:
            label = index.data().toString();
            break;
        case ConnectionsModel::Kind::Lock:
            label = index.data().toString().section(QLatin1Char(' '), 1); // "message 5"
            break;
        }
        if (model.rowCount(index) > 0)
            label += QLatin1Char('(') + dump(model, index) + QLatin1Char(')');
        rows.append(label);
    }
    return rows.join(QLatin1Char(' '));
}

// Where rows were inserted: "parent:first-last", the parent as dump() labels it ("-" for the
// top level).
QStringList insertions(const QSignalSpy& spy) {
    QStringList out;
    for (const QList<QVariant>& call : spy) {
        const QModelIndex parent = call.at(0).value<QModelIndex>();
        out.append(QStringLiteral("%1:%2-%3")
                       .arg(parent.isValid()
                                ? parent.data().toString().section(QLatin1Char(' '), 0, 0)
                                : QStringLiteral("-"))
                       .arg(call.at(1).toInt())
                       .arg(call.at(2).toInt()));
    }
    return out;
}

} // namespace

class UiConnectionsModelTest : public QObject {
    Q_OBJECT
private slots:
    void snapshotsFollowOneAnother_data() {
        QTest::addColumn<Snapshot>("before");
        QTest::addColumn<Snapshot>("after");
        QTest::addColumn<QString>("shown");
        QTest::addColumn<QStringList>("inserted"); // by the second snapshot

        const Snapshot none;
        const Snapshot one = {connection(1, {receiverLink("r", {3, 5}), senderLink("s")})};
        QTest::newRow("a connection arrives with its links and locks in one insertion")
            << none << one << "1(r(3 5) s)" << QStringList{"-:0-0"};
        QTest::newRow("everything goes") << one << none << "" << QStringList{};
        QTest::newRow("a lock arrives under a known link")
            << one << Snapshot{connection(1, {receiverLink("r", {3, 5, 8}), senderLink("s")})}
            << "1(r(3 5 8) s)" << QStringList{"r:2-2"};
        QTest::newRow("a lock of an earlier message arrives: in sequence order")
            << one << Snapshot{connection(1, {receiverLink("r", {3, 5, 1}), senderLink("s")})}
            << "1(r(1 3 5) s)" << QStringList{"r:0-0"};
        QTest::newRow("a lock goes")
            << one << Snapshot{connection(1, {receiverLink("r", {5}), senderLink("s")})}
            << "1(r(5) s)" << QStringList{};
        QTest::newRow("the endpoint lists locks in no order")
            << none << Snapshot{connection(1, {receiverLink("r", {9, 2, 7, 4})})} << "1(r(2 4 7 9))"
            << QStringList{"-:0-0"};
        QTest::newRow("a link arrives with its locks in one insertion")
            << one
            << Snapshot{connection(
                   1, {receiverLink("r", {3, 5}), senderLink("s"), receiverLink("q", {4})})}
            << "1(r(3 5) s q(4))" << QStringList{"#1:2-2"};
        QTest::newRow("a new link goes below the others whatever the endpoint's order")
            << one
            << Snapshot{connection(
                   1, {receiverLink("q", {4}), senderLink("s"), receiverLink("r", {3, 5})})}
            << "1(r(3 5) s q(4))" << QStringList{"#1:2-2"};
        QTest::newRow("a link goes with its locks")
            << one << Snapshot{connection(1, {senderLink("s")})} << "1(s)" << QStringList{};
        QTest::newRow("a connection arrives before a known one: by id")
            << Snapshot{connection(5)} << Snapshot{connection(2, {senderLink("s")}), connection(5)}
            << "2(s) 5" << QStringList{"-:0-0"};
        QTest::newRow("connections listed in no order")
            << none << Snapshot{connection(7), connection(3)} << "3 7"
            << QStringList{"-:0-0", "-:1-1"};
        QTest::newRow("a connection goes, the other stays")
            << Snapshot{connection(1, {receiverLink("r", {3})}), connection(2, {senderLink("s")})}
            << Snapshot{connection(2, {senderLink("s")})} << "2(s)" << QStringList{};
        QTest::newRow("a sender and a receiver share a name")
            << none << Snapshot{connection(1, {senderLink("x"), receiverLink("x", {1})})}
            << "1(x x(1))" << QStringList{"-:0-0"};
    }
    void snapshotsFollowOneAnother() {
        QFETCH(Snapshot, before);
        QFETCH(Snapshot, after);
        QFETCH(QString, shown);
        QFETCH(QStringList, inserted);
        ConnectionsModel model([] { return kNow; });
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setSnapshot(before);
        QSignalSpy spy(&model, &QAbstractItemModel::rowsInserted);
        model.setSnapshot(after);
        QCOMPARE(dump(model), shown);
        QCOMPARE(insertions(spy), inserted);
        // The same snapshot again changes nothing.
        QSignalSpy changes(&model, &QAbstractItemModel::dataChanged);
        QSignalSpy moves(&model, &QAbstractItemModel::rowsMoved);
        model.setSnapshot(after);
        QCOMPARE(dump(model), shown);
        QCOMPARE(changes.count(), 0);
        QCOMPARE(moves.count(), 0);
    }

    // The row the operator expanded or selected is still that row after other rows came and
    // went around it.
    void rowsThatStayKeepTheirIndexes() {
        ConnectionsModel model([] { return kNow; });
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setSnapshot({connection(1, {receiverLink("r", {3, 5})}), connection(2)});
        const QPersistentModelIndex link = model.index(0, 0, model.index(0, 0));
        const QPersistentModelIndex lockOf5 = model.index(1, 0, link);
        QCOMPARE(lockOf5.data().toString(), QStringLiteral("message 5"));
        model.setSnapshot(
            {connection(0), connection(1, {senderLink("s"), receiverLink("r", {1, 5, 6})})});
        QCOMPARE(dump(model), QStringLiteral("0 1(r(1 5 6) s)"));
        QVERIFY(lockOf5.isValid());
        QCOMPARE(lockOf5.data().toString(), QStringLiteral("message 5"));
        QCOMPARE(lockOf5.row(), 1);
        QCOMPARE(link.data().toString(), QStringLiteral("r"));
    }

    // What changed in a row is repainted, and only that row.
    void aChangedRowIsRepainted() {
        ConnectionsModel model([] { return kNow; });
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        Snapshot snapshot{connection(1, {receiverLink("r", {3})})};
        model.setSnapshot(snapshot);
        QSignalSpy changes(&model, &QAbstractItemModel::dataChanged);
        snapshot[0].links[0].credit = 7;
        model.setSnapshot(snapshot);
        QCOMPARE(changes.count(), 1);
        const QModelIndex link = model.index(0, ConnectionsModel::Credit, model.index(0, 0));
        QCOMPARE(changes.at(0).at(0).value<QModelIndex>().row(), link.row());
        QCOMPARE(changes.at(0).at(0).value<QModelIndex>().parent(), link.parent());
        QCOMPARE(link.data().toString(), QStringLiteral("7"));
    }

    // One tick repaints the time-left column of each link's locks in one signal per link.
    void countdownsFollowTheClock() {
        Instant now = kNow;
        ConnectionsModel model([&now] { return now; });
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setSnapshot({connection(1, {receiverLink("r", {3, 5}), receiverLink("q", {4})})});
        const QModelIndex lock =
            model.index(0, ConnectionsModel::Locks, model.index(0, 0, model.index(0, 0)));
        QCOMPARE(lock.data().toString(), QStringLiteral("30s"));
        now += 12'000;
        QSignalSpy changes(&model, &QAbstractItemModel::dataChanged);
        model.refreshCountdowns();
        QCOMPARE(changes.count(), 2);
        QCOMPARE(lock.data().toString(), QStringLiteral("18s"));
        QCOMPARE(changes.at(0).at(0).value<QModelIndex>().row(), 0);
        QCOMPARE(changes.at(0).at(1).value<QModelIndex>().row(), 1);
    }
};

QTEST_GUILESS_MAIN(UiConnectionsModelTest)
#include "tst_ui_connections_model.moc"
