// The Messages tab on a real remote namespace: RemoteBroker over an in-process `hourglass`
// namespace (ServedNamespace.h, plain AMQP and HTTP administration, its clock on real time as a
// service's is). The list pages forward through peek as the view scrolls, each row with its time
// to live counting down, and select all stands for every message of the queue.

#include "ServedNamespace.h"
#include "common/BrokerClient.h"
#include "common/DurationText.h"
#include "messages/MessageListModel.h"
#include "messages/MessageListPanel.h"

#include "hourglass/remote/RemoteBroker.h"

#include <QElapsedTimer>
#include <QLabel>
#include <QTableView>
#include <QTest>

#include <algorithm>
#include <memory>
#include <optional>

using namespace hourglass;
using namespace hourglass::ui;
using Model = MessageListModel;

namespace {

constexpr int kMessages = 450;

std::shared_ptr<Broker> remoteFor(const testing::ServedNamespace& served) {
    auto options = remote::RemoteBrokerOptions::forConnection(served.connection());
    options.admin.timeout = std::chrono::milliseconds(5000);
    options.amqp.callTimeoutMs = 5000;
    options.pollInterval = std::chrono::hours(1);
    return std::make_shared<remote::RemoteBroker>(options);
}

bool scrollUntil(QTableView& view, int rows) {
    QElapsedTimer timer;
    timer.start();
    while (timer.elapsed() < 20000) {
        view.scrollToBottom();
        QTest::qWait(20);
        if (view.model()->rowCount() >= rows)
            return view.model()->rowCount() == rows;
    }
    return false;
}

} // namespace

class TestUiRemoteList : public QObject {
    Q_OBJECT
private slots:
    void pagesForwardThroughPeek();
};

void TestUiRemoteList::pagesForwardThroughPeek() {
    testing::ServedNamespace served(testing::ServedNamespace::Transport::Plain);
    served.testBroker().clock().resetToRealTime();
    QVERIFY(served.broker().createQueue(QStringLiteral("jobs"), {}).ok());
    QList<OutgoingMessage> batch;
    for (int i = 0; i < kMessages; ++i) {
        OutgoingMessage m = testing::TestBroker::message(QStringLiteral("m%1").arg(i));
        if (i % 3 == 0)
            m.timeToLive = hours(1);
        batch.append(m);
    }
    QVERIFY(served.broker().sendBatch(QStringLiteral("jobs"), batch).ok());

    BrokerClient client(remoteFor(served));
    QVERIFY(!client.capabilities().hostsDatabase);
    MessageListPanel panel(client);
    panel.resize(900, 400);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    panel.setPath(QStringLiteral("jobs"));
    Model* model = panel.model();

    QTRY_VERIFY_WITH_TIMEOUT(model->rowCount() >= Model::kPageSize, 10000);
    QVERIFY(model->lastError().isEmpty());
    QVERIFY(model->rowCount() < kMessages);
    QCOMPARE(model->total(), kMessages);
    auto* title = panel.findChild<QLabel*>(QStringLiteral("messageListTitle"));
    QVERIFY2(title->text().contains(QStringLiteral("450 messages")), qPrintable(title->text()));

    // Select all on the first page stands for every message of the queue.
    panel.view()->selectAll();
    QCOMPARE(panel.selectedRowCount(), kMessages);
    std::optional<Result<QList<qint64>>> resolved;
    panel.resolveSelection(&panel, [&](Result<QList<qint64>> numbers) { resolved = numbers; });
    QTRY_VERIFY_WITH_TIMEOUT(resolved.has_value(), 20000);
    QVERIFY2(resolved->ok(), qPrintable(resolved->ok() ? QString() : resolved->error().toString()));
    QCOMPARE((*resolved)->size(), kMessages);
    panel.view()->clearSelection();

    QVERIFY(scrollUntil(*panel.view(), kMessages));
    for (int row = 0; row < kMessages; ++row)
        QCOMPARE(model->index(row, Model::MessageIdColumn).data().toString(),
                 QStringLiteral("m%1").arg(row));
    // The time to live counts down on the local clock.
    const QModelIndex ttl = model->index(kMessages - 3, Model::TimeToLiveColumn);
    const Countdown before = ttl.data(Model::CountdownRole).value<Countdown>();
    QCOMPARE(before.kind, Countdown::Kind::Running);
    QVERIFY2(before.fraction > 0.9 && before.fraction <= 1.0, qPrintable(before.text));
    QTRY_VERIFY_WITH_TIMEOUT(
        ttl.data(Model::CountdownRole).value<Countdown>().fraction < before.fraction, 5000);
}

QTEST_MAIN(TestUiRemoteList)
#include "tst_ui_remote_list.moc"
