// The Connections view with a real AMQP 1.0 client (Proton's C API, as the SDKs speak it):
// the connection appears with its container id and key, its links with their settle modes, and
// the locks its receiver holds in sequence order; "Close connection" ends it, its locks return
// to the queue at once (L14), and the view says again that no application is connected. The
// status-bar item counts the connections of the very snapshot the view shows, never lagging it.

#include "UiTestBroker.h"
#include "WireTestClient.h"
#include "common/BrokerClient.h"
#include "connections/AmqpService.h"
#include "connections/AmqpStatusItem.h"
#include "connections/ConnectionsModel.h"
#include "connections/ConnectionsPanel.h"
#include "window/MainWindow.h"

#include <QAbstractItemModelTester>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QStandardPaths>
#include <QTest>
#include <QTreeView>

using namespace hourglass;
using namespace hourglass::ui;
using hourglass::testing::WireTestClient;

namespace {

constexpr int kWaitMs = 10000;
const QString kQueue = QStringLiteral("orders");

// The link under `connection` with this address and direction ("client sends"...).
QModelIndex linkRow(const QAbstractItemModel& model, const QModelIndex& connection,
                    const QString& address, const QString& direction) {
    for (int row = 0; row < model.rowCount(connection); ++row) {
        const QModelIndex link = model.index(row, ConnectionsModel::Name, connection);
        if (link.data().toString() == address &&
            link.siblingAtColumn(ConnectionsModel::Role).data().toString() == direction)
            return link;
    }
    return {};
}

QStringList childNames(const QAbstractItemModel& model, const QModelIndex& parent) {
    QStringList names;
    for (int row = 0; row < model.rowCount(parent); ++row)
        names.append(model.index(row, 0, parent).data().toString());
    return names;
}

} // namespace

class UiConnectionsWireTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().remove(QStringLiteral("amqp"));
        QSettings().remove(QStringLiteral("window"));
    }

    void aClientAppearsWithItsLinksAndLocksAndIsClosed() {
        AmqpSettings settings;
        settings.port = 0;
        settings.save();
        QTemporaryDir dir;
        auto broker = testing::openUiTestBroker(dir, std::make_shared<VirtualClock>());
        QVERIFY(broker->createQueue(kQueue, {}));
        for (int i = 0; i < 6; ++i) {
            OutgoingMessage message;
            message.body = QByteArray::number(i);
            QVERIFY(broker->send(kQueue, message));
        }
        const std::shared_ptr<Broker> shared = std::move(broker);
        MainWindow window;
        window.setClient(std::make_unique<BrokerClient>(shared));
        window.serveAmqp();
        auto* panel = window.findChild<ConnectionsPanel*>(QStringLiteral("connectionsView"));
        ConnectionsModel& model = *panel->model();
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        const quint16 port = window.amqp()->endpoint()->snapshot().port;

        WireTestClient client({port, kQueue, QStringLiteral("wire-test-client"), 6});
        QTRY_COMPARE_WITH_TIMEOUT(client.held(), 6, kWaitMs);
        QCOMPARE(shared->counts(kQueue)->locked, 6);

        // The connection, as the client opened it and as the token signed it.
        auto* status = window.findChild<AmqpStatusItem*>(QStringLiteral("amqpStatus"));
        QVERIFY(status);
        QTRY_COMPARE_WITH_TIMEOUT(model.rowCount(), 1, kWaitMs);
        // The same snapshot, at the same moment: no second read a tick later.
        QVERIFY2(status->text().contains(QStringLiteral("· 1 connection")),
                 qPrintable(status->text()));
        // Once its token is in: the namespace it uses, in the status bar and the view.
        QTRY_VERIFY2_WITH_TIMEOUT(status->text().endsWith(QStringLiteral("(test: 1)")),
                                  qPrintable(status->text()), kWaitMs);
        QTRY_VERIFY_WITH_TIMEOUT(
            model.index(0, 0).data().toString().endsWith(QStringLiteral("· namespace test")),
            kWaitMs);
        const QModelIndex connection = model.index(0, 0);
        QTRY_COMPARE_WITH_TIMEOUT(model.index(0, ConnectionsModel::Role).data().toString(),
                                  QStringLiteral("wire-test-client"), kWaitMs);
        QCOMPARE(model.index(0, ConnectionsModel::Mode).data().toString(),
                 QStringLiteral("RootManageSharedAccessKey"));
        QVERIFY(connection.data().toString().contains(QStringLiteral("127.0.0.1:")));

        // Its receiver, peek-lock, holding the six locks in the order the queue handed them out.
        QModelIndex receiver;
        QTRY_VERIFY_WITH_TIMEOUT(
            (receiver = linkRow(model, connection, kQueue, QStringLiteral("client receives")),
             model.rowCount(receiver) == 6),
            kWaitMs);
        QCOMPARE(receiver.siblingAtColumn(ConnectionsModel::Mode).data().toString(),
                 QStringLiteral("peek-lock"));
        QCOMPARE(childNames(model, receiver), (QStringList{"message 1", "message 2", "message 3",
                                                           "message 4", "message 5", "message 6"}));
        QCOMPARE(model.index(0, ConnectionsModel::Role, receiver).data().toString(), kQueue);
        QCOMPARE(connection.siblingAtColumn(ConnectionsModel::Locks).data().toString(),
                 QStringLiteral("6"));
        QVERIFY(linkRow(model, connection, kQueue, QStringLiteral("client sends")).isValid());
        // The client's $cbs links are listed as well: the view hides nothing of the wire.
        QVERIFY(linkRow(model, connection, QStringLiteral("$cbs"), QStringLiteral("client sends"))
                    .isValid());
        // What arrived shows what it holds.
        QVERIFY(panel->view()->isExpanded(connection));
        QVERIFY(panel->view()->isExpanded(receiver));

        // The operator closes it from one of its locks: the connection goes, its locks return.
        panel->view()->setCurrentIndex(model.index(2, 0, receiver));
        auto* close = panel->findChild<QPushButton*>(QStringLiteral("closeConnection"));
        QVERIFY(!close->isHidden());
        QVERIFY(close->isEnabled());
        close->click();
        QTRY_VERIFY_WITH_TIMEOUT(client.ended(), kWaitMs);
        QTRY_COMPARE_WITH_TIMEOUT(model.rowCount(), 0, kWaitMs);
        QVERIFY2(status->text().endsWith(QStringLiteral("· 0 connections")),
                 qPrintable(status->text()));
        QTRY_COMPARE_WITH_TIMEOUT(shared->counts(kQueue)->locked, 0, kWaitMs);
        QCOMPARE(shared->counts(kQueue)->active, 6);
        panel->refresh();
        QCOMPARE(panel->findChild<QLabel*>(QStringLiteral("connectionsEmpty"))->text(),
                 QStringLiteral("No application is connected."));
    }
};

QTEST_MAIN(UiConnectionsWireTest)
#include "tst_ui_connections_wire.moc"
