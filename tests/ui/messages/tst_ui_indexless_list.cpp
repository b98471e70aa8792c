// The Messages tab on a namespace without a sequence index (a remote one: peek is all it has),
// over IndexlessBroker: the list pages forward from the first message as the view scrolls, every
// row keeps its countdown, the page after the rows read is read ahead and appended at once when
// the view asks for it, a refresh keeps the rows read, and select all, purge and the body
// search reach every message, with sequenceIndex never asked.

#include "ClientCall.h"
#include "IndexlessBroker.h"
#include "TestBroker.h"
#include "UiTestBroker.h"
#include "common/BrokerClient.h"
#include "common/DurationText.h"
#include "messages/MessageListModel.h"
#include "messages/MessageListPanel.h"
#include "messages/MessageSearch.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QElapsedTimer>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <optional>

using namespace hourglass;
using namespace hourglass::ui;
using Model = MessageListModel;

namespace {

constexpr int kMessages = 450;
// Fewer rows a read than the list asks for, as a service's peek may answer.
constexpr int kPeekLimit = 37;

// A queue "q" of kMessages messages (m0, m1, ...; every third one with a time to live, every
// tenth with "needle" in its body) on a paused virtual clock, behind IndexlessBroker and a
// BrokerClient.
struct Env {
    QTemporaryDir dir;
    std::shared_ptr<VirtualClock> clock = std::make_shared<VirtualClock>(testing::kTestStart);
    testing::IndexlessBroker* indexless = nullptr;
    std::unique_ptr<BrokerClient> client;

    Env() {
        std::unique_ptr<Broker> broker = testing::openUiTestBroker(dir, clock);
        if (!broker->createQueue(QStringLiteral("q"), EntityProperties::defaults(Tier::Standard)))
            qFatal("createQueue failed");
        QList<OutgoingMessage> batch;
        for (int i = 0; i < kMessages; ++i) {
            OutgoingMessage m = testing::TestBroker::message(
                QStringLiteral("m%1").arg(i), i % 10 == 0 ? "a needle in it" : "hay");
            if (i % 3 == 0)
                m.timeToLive = minutes(10);
            batch.append(m);
        }
        if (!broker->sendBatch(QStringLiteral("q"), batch))
            qFatal("sendBatch failed");
        auto wrapped = std::make_unique<testing::IndexlessBroker>(std::move(broker), kPeekLimit);
        indexless = wrapped.get();
        client = std::make_unique<BrokerClient>(std::move(wrapped));
    }

    template <typename Work> auto call(Work work) {
        return hourglass::testing::callAndWait(*client, std::move(work));
    }
    qint64 stored() {
        const auto counts = call([](Broker& b) { return b.counts(QStringLiteral("q")); });
        return counts ? counts->active : -1;
    }
};

// Scrolls the view to the end until the list holds `rows` rows (each scroll asks for a page).
bool scrollUntil(QTableView& view, int rows) {
    QElapsedTimer timer;
    timer.start();
    while (timer.elapsed() < 10000) {
        view.scrollToBottom();
        QTest::qWait(10);
        if (view.model()->rowCount() >= rows)
            break;
    }
    if (view.model()->rowCount() != rows)
        qWarning("%d rows, not %d", view.model()->rowCount(), rows);
    return view.model()->rowCount() == rows;
}

} // namespace

class TestUiIndexlessList : public QObject {
    Q_OBJECT
private slots:
    void firstPageThenScrollingLoadsEveryRowInOrder();
    void theNextPageIsReadAheadAndAppendedAtOnce();
    void refreshKeepsTheRowsRead();
    void selectAllAndPurgeReachEveryMessage();
    void bodySearchScansEveryMessage();
};

void TestUiIndexlessList::firstPageThenScrollingLoadsEveryRowInOrder() {
    Env env;
    MessageListPanel panel(*env.client);
    // No QAbstractItemModelTester here: it fetches more at every change it checks (the refresh
    // test checks the same model with it).
    panel.resize(900, 400);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    panel.setPath(QStringLiteral("test:q"));
    Model* model = panel.model();
    QVERIFY(model->pagesForward());

    // The first page, with the path's total from its counts in the title.
    QTRY_VERIFY(model->rowCount() >= Model::kPageSize);
    QVERIFY(model->rowCount() < kMessages);
    QCOMPARE(model->total(), kMessages);
    QVERIFY(model->canFetchMore());
    auto* title = panel.findChild<QLabel*>(QStringLiteral("messageListTitle"));
    QCOMPARE(
        title->text(),
        QStringLiteral("test:q (450 messages, %1 read: scroll for more)").arg(model->rowCount()));

    // A screen before the end, the next page is read.
    const int firstPage = model->rowCount();
    QScrollBar* bar = panel.view()->verticalScrollBar();
    bar->setValue(bar->maximum() - bar->pageStep());
    QTRY_VERIFY(model->rowCount() > firstPage);

    QVERIFY(scrollUntil(*panel.view(), kMessages));
    QVERIFY(!model->canFetchMore());
    QTRY_COMPARE(title->text(), QStringLiteral("test:q (450 messages)"));
    for (int row = 0; row < kMessages; ++row) {
        const QModelIndex id = model->index(row, Model::MessageIdColumn);
        QCOMPARE(id.data().toString(), QStringLiteral("m%1").arg(row));
        if (row > 0)
            QVERIFY(
                model->index(row, Model::SequenceNumberColumn).data(Qt::UserRole).toLongLong() >
                model->index(row - 1, Model::SequenceNumberColumn).data(Qt::UserRole).toLongLong());
    }
    // Every row keeps its time-to-live countdown, past the first page too.
    const int last = kMessages - 3; // m447: a time to live of ten minutes
    Countdown countdown =
        model->index(last, Model::TimeToLiveColumn).data(Model::CountdownRole).value<Countdown>();
    QCOMPARE(countdown.kind, Countdown::Kind::Running);
    QCOMPARE(countdown.text, QStringLiteral("10m 00s"));
    env.clock->advance(minutes(4));
    countdown =
        model->index(last, Model::TimeToLiveColumn).data(Model::CountdownRole).value<Countdown>();
    QCOMPARE(countdown.text, QStringLiteral("6m 00s"));
    QCOMPARE(model->index(last + 1, Model::TimeToLiveColumn).data().toString(),
             QStringLiteral("never"));
    QCOMPARE(env.indexless->indexRequests(), 0);
}

void TestUiIndexlessList::theNextPageIsReadAheadAndAppendedAtOnce() {
    Env env;
    Model model(*env.client);
    model.setPath(QStringLiteral("test:q"));
    QTRY_COMPARE(model.rowCount(), Model::kPageSize);
    // Nothing asked for more, yet the page after the first is read and kept.
    QTRY_VERIFY(model.isNextPageReadAhead());
    QCOMPARE(model.rowCount(), Model::kPageSize);
    QVERIFY(model.canFetchMore());
    // The view asks: the rows are there at once, in order, without waiting for a read.
    model.fetchMore();
    QCOMPARE(model.rowCount(), 2 * Model::kPageSize);
    for (int row = Model::kPageSize - 1; row <= Model::kPageSize; ++row)
        QCOMPARE(model.index(row, Model::MessageIdColumn).data().toString(),
                 QStringLiteral("m%1").arg(row));
    // And the last (short) page after them, then nothing more to read.
    QTRY_VERIFY(model.isNextPageReadAhead());
    model.fetchMore();
    QCOMPARE(model.rowCount(), kMessages);
    QCOMPARE(model.index(kMessages - 1, Model::MessageIdColumn).data().toString(),
             QStringLiteral("m%1").arg(kMessages - 1));
    QVERIFY(!model.canFetchMore());
    QVERIFY(!model.isNextPageReadAhead());

    // Another path drops what was read ahead for this one.
    model.setPath(QStringLiteral("test:q"));
    QTRY_VERIFY(model.isNextPageReadAhead());
    model.setPath({});
    QVERIFY(!model.isNextPageReadAhead());
    QCOMPARE(model.rowCount(), 0);
}

void TestUiIndexlessList::refreshKeepsTheRowsRead() {
    Env env;
    MessageListPanel panel(*env.client);
    QAbstractItemModelTester tester(panel.model(),
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
    panel.resize(900, 400);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    panel.setPath(QStringLiteral("test:q"));
    Model* model = panel.model();
    QTRY_VERIFY(model->rowCount() >= Model::kPageSize);
    QVERIFY(scrollUntil(*panel.view(), kMessages));
    const int scroll = panel.view()->verticalScrollBar()->value();

    // One more message and the first one gone: the refresh reads from the start again.
    QSignalSpy refreshed(model, &Model::indexRefreshed);
    QVERIFY(env.call([](Broker& b) {
        return b.send(QStringLiteral("q"), testing::TestBroker::message(QStringLiteral("late")));
    }));
    const qint64 first =
        model->index(0, Model::SequenceNumberColumn).data(Qt::UserRole).toLongLong();
    QVERIFY(
        env.call([first](Broker& b) { return b.deleteMessages(QStringLiteral("q"), {first}); }));
    QTRY_COMPARE(model->index(0, Model::MessageIdColumn).data().toString(), QStringLiteral("m1"));
    QTRY_COMPARE(model->total(), kMessages);
    QTRY_COMPARE(model->index(kMessages - 1, Model::MessageIdColumn).data().toString(),
                 QStringLiteral("late"));
    QCOMPARE(model->rowCount(), kMessages);
    QCOMPARE(panel.view()->verticalScrollBar()->value(), scroll);
    QCOMPARE(env.indexless->indexRequests(), 0);
}

void TestUiIndexlessList::selectAllAndPurgeReachEveryMessage() {
    Env env;
    MessageListPanel panel(*env.client);
    panel.resize(900, 300);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    panel.setPath(QStringLiteral("test:q"));
    Model* model = panel.model();
    QTRY_VERIFY(model->rowCount() >= Model::kPageSize);
    QVERIFY(model->rowCount() < kMessages);

    // Select all while only the first page is read: it stands for every message.
    panel.view()->selectAll();
    QCOMPARE(panel.selectedRowCount(), kMessages);
    std::optional<Result<QList<qint64>>> resolved;
    panel.resolveSelection(&panel, [&](Result<QList<qint64>> numbers) { resolved = numbers; });
    QTRY_VERIFY(resolved.has_value());
    QVERIFY(resolved->ok());
    QCOMPARE((*resolved)->size(), kMessages);
    QVERIFY(std::is_sorted((*resolved)->begin(), (*resolved)->end()));

    // Purge asks about every message, not the page in view, and deletes them all.
    QAction* purge = panel.findChild<QAction*>(QStringLiteral("purgeMessagesAction"));
    QVERIFY(purge && purge->isEnabled());
    purge->trigger();
    QMessageBox* confirm = nullptr;
    QTRY_VERIFY((confirm = panel.findChild<QMessageBox*>(QStringLiteral("confirmPurge"))));
    QVERIFY2(confirm->text().contains(QStringLiteral("450")), qPrintable(confirm->text()));
    confirm->button(QMessageBox::Ok)->click();
    QTRY_COMPARE(env.stored(), 0);
    QTRY_COMPARE(model->rowCount(), 0);
    QCOMPARE(env.indexless->indexRequests(), 0);
}

void TestUiIndexlessList::bodySearchScansEveryMessage() {
    Env env;
    MessageSearch search(*env.client);
    search.setChunkSize(100);
    QSignalSpy finished(&search, &MessageSearch::finished);
    QList<MessageView> found;
    connect(&search, &MessageSearch::matchesFound, this,
            [&](const QList<MessageView>& matches) { found.append(matches); });
    search.start(QStringLiteral("test:q"),
                 MessageMatcher(QStringLiteral("needle"), MessageMatcher::Bodies::Search));
    QTRY_COMPARE(finished.size(), 1);
    QCOMPARE(search.scanned(), kMessages);
    QCOMPARE(search.total(), kMessages);
    QCOMPARE(found.size(), kMessages / 10);
    QCOMPARE(found.last().messageId, QStringLiteral("m440"));
    QCOMPARE(env.indexless->indexRequests(), 0);
}

QTEST_MAIN(TestUiIndexlessList)
#include "tst_ui_indexless_list.moc"
