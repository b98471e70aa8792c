// The message list's find tools: the filter matcher on its own, the background
// chunked search over a real broker, and sorting the matches. The actions on a selection are in
// tst_ui_listactions.cpp.

#include "ListToolsFixture.h"

#include <QAbstractItemModelTester>

using namespace hourglass;
using namespace hourglass::ui;
using namespace hourglass::listtools;

namespace {

MessageView view(const QString& subject) {
    MessageView m;
    m.messageId = QStringLiteral("m-1");
    m.correlationId = QStringLiteral("Corr-42");
    m.subject = subject;
    m.contentType = QStringLiteral("application/json");
    m.deadLetterReason = QStringLiteral("MaxDeliveryCountExceeded");
    m.applicationProperties.insert(QStringLiteral("Region"), QStringLiteral("eu-west"));
    m.applicationProperties.insert(QStringLiteral("count"), 7);
    m.body = "{\"customer\":\"Ada Lovelace\"}";
    m.hasBody = true;
    return m;
}

} // namespace

class TestUiListTools : public QObject {
    Q_OBJECT
private slots:
    void matcher_data();
    void matcher();
    void filterBySubjectPropertyAndBody();
    void scanIsChunkedAndANewTextCancelsIt();
    void searchStopsAtTheCap();
    void matchesSortByAnyColumn();
};

void TestUiListTools::matcher_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("searchBodies");
    QTest::addColumn<bool>("expected");
    QTest::newRow("empty matches all") << "" << false << true;
    QTest::newRow("subject, any case") << "ORDER-cre" << false << true;
    QTest::newRow("message id") << "m-1" << false << true;
    QTest::newRow("correlation id") << "corr-4" << false << true;
    QTest::newRow("content type") << "json" << false << true;
    QTest::newRow("dead-letter reason") << "deliverycount" << false << true;
    QTest::newRow("property name") << "regio" << false << true;
    QTest::newRow("property value") << "west" << false << true;
    QTest::newRow("numeric property value") << "7" << false << true;
    QTest::newRow("nothing has it") << "shipped" << false << false;
    QTest::newRow("name=value exact") << "region=eu-west" << false << true;
    QTest::newRow("name=value, spaces around") << " count = 7 " << false << true;
    QTest::newRow("name=value, value differs") << "region=eu" << false << false;
    QTest::newRow("name=value, other property") << "count=eu-west" << false << false;
    QTest::newRow("body skipped") << "lovelace" << false << false;
    QTest::newRow("body searched") << "lovelace" << true << true;
    QTest::newRow("=x is plain text") << "=x" << true << false;
    QTest::newRow("* matches every message") << " * " << false << true;
}

void TestUiListTools::matcher() {
    QFETCH(QString, text);
    QFETCH(bool, searchBodies);
    QFETCH(bool, expected);
    const MessageMatcher matcher(text, searchBodies ? MessageMatcher::Bodies::Search
                                                    : MessageMatcher::Bodies::Skip);
    QCOMPARE(matcher.matches(view(QStringLiteral("order-created"))), expected);
    // A message read without its body never matches by body.
    MessageView bodiless = view(QStringLiteral("other"));
    bodiless.hasBody = false;
    bodiless.body.clear();
    QCOMPARE(MessageMatcher(QStringLiteral("lovelace"), MessageMatcher::Bodies::Search)
                 .matches(bodiless),
             false);
}

void TestUiListTools::filterBySubjectPropertyAndBody() {
    Env env(3000, orderMessage);
    Ui ui(*env.client);
    ui.panel.search()->setChunkSize(700);
    QAbstractItemModelTester tester(ui.panel.sortedMatches());
    QTRY_COMPARE(ui.panel.model()->total(), 3000);
    QVERIFY(!ui.table->isSortingEnabled());
    QVERIFY(ui.table->horizontalHeader()->toolTip().contains(QStringLiteral("sequence order")));

    // order-12, order-120..129, order-1200..1299.
    ui.search(QStringLiteral("order-12"));
    QTRY_VERIFY(ui.searchDone());
    QCOMPARE(ui.table->model(), ui.panel.sortedMatches());
    QCOMPARE(ui.table->model()->rowCount(), 111);
    QCOMPARE(ui.status->text(), QStringLiteral("111 matches in 3,000 messages"));
    QVERIFY(ui.table->isSortingEnabled());

    // An application property, exactly: every third message.
    ui.search(QStringLiteral("region=eu"));
    QTRY_VERIFY(ui.searchDone());
    QCOMPARE(ui.panel.matches()->rowCount(), 1000);
    for (const MessageView& m : ui.panel.matches()->messages())
        QCOMPARE(m.applicationProperties.value(QStringLiteral("region")).toString(), "eu");
    QVERIFY(ui.panel.matches()->messages().first().body.isEmpty()); // rows hold no bodies

    // Body text only once "search bodies" is on.
    ui.search(QStringLiteral("needle"));
    QTRY_VERIFY(ui.searchDone());
    QCOMPARE(ui.table->model()->rowCount(), 0);
    QCOMPARE(ui.status->text(), QStringLiteral("0 matches in 3,000 messages"));
    ui.bodies->click();
    QTRY_COMPARE(ui.table->model()->rowCount(), 300);
    QTRY_VERIFY(ui.searchDone());
    QCOMPARE(cell(ui.table->model(), 0, Column::SubjectColumn), QStringLiteral("order-0"));

    // Clearing returns to the windowed list, unsorted.
    QTest::mouseClick(ui.panel.findChild<QToolButton*>(QStringLiteral("messageFilterClear")),
                      Qt::LeftButton);
    QVERIFY(!ui.panel.isFiltered());
    QCOMPARE(ui.table->model(), ui.panel.model());
    QVERIFY(!ui.table->isSortingEnabled());
    QVERIFY(ui.status->text().isEmpty());
    QCOMPARE(ui.table->model()->rowCount(), 3000);

    // Filtering on and off again does not pile up watchers of the current row: one change of
    // the windowed list says "the current message may have changed" once.
    for (int round = 0; round < 3; ++round) {
        ui.search(QStringLiteral("order-12"));
        QTRY_VERIFY(ui.searchDone());
        QTest::mouseClick(ui.panel.findChild<QToolButton*>(QStringLiteral("messageFilterClear")),
                          Qt::LeftButton);
    }
    QSignalSpy said(&ui.panel, &MessageListPanel::currentMessageChanged);
    emit ui.panel.model()->layoutChanged();
    QCOMPARE(said.count(), 1);
}

void TestUiListTools::scanIsChunkedAndANewTextCancelsIt() {
    Env env(3000, orderMessage);
    Ui ui(*env.client);
    MessageSearch* search = ui.panel.search();
    search->setChunkSize(250);
    QSignalSpy progress(search, &MessageSearch::progress);
    QSignalSpy finished(search, &MessageSearch::finished);
    // Once the first scan has reported a chunk, a new text arrives: the old scan stops and its
    // replies still in flight are dropped.
    int switchedAt = -1;
    QString statusDuringScan;
    connect(search, &MessageSearch::progress, &ui.panel, [&](qint64 scanned, qint64 total) {
        if (switchedAt >= 0 || scanned >= total)
            return;
        switchedAt = int(progress.count());
        statusDuringScan = ui.status->text();
        ui.search(QStringLiteral("order-2"));
    });
    // The filter applies by itself after a pause in typing.
    QTest::keyClicks(ui.filter, QStringLiteral("order-1"));
    QTRY_VERIFY(switchedAt > 0);
    QVERIFY2(statusDuringScan.contains(QStringLiteral("in 3,000 messages, searching…")),
             qPrintable(statusDuringScan));
    QTRY_VERIFY(ui.searchDone());
    QCOMPARE(finished.count(), 1);
    // order-2, order-20..29, order-200..299, order-2000..2999.
    QCOMPARE(ui.panel.matches()->rowCount(), 1111);
    for (const MessageView& m : ui.panel.matches()->messages())
        QVERIFY2(m.subject.startsWith(QStringLiteral("order-2")), qPrintable(m.subject));
    // The second scan: twelve chunks, each reported, counting up to the whole path.
    // (Whether the first scan's one report is counted before switchedAt depends on the order in
    // which the spy and the switching slot are called; a repeated figure is that report.)
    QList<qint64> steps;
    for (int i = switchedAt; i < progress.count(); ++i) {
        QCOMPARE(progress.at(i).at(1).toLongLong(), 3000);
        const qint64 scanned = progress.at(i).at(0).toLongLong();
        if (!steps.isEmpty() && scanned == steps.last())
            continue;
        QCOMPARE(scanned, (steps.isEmpty() ? 0 : steps.last()) + 250);
        steps.append(scanned);
    }
    QCOMPARE(steps.size(), 12);
    QCOMPARE(steps.last(), 3000);
    QCOMPARE(ui.status->text(), QStringLiteral("1,111 matches in 3,000 messages"));
}

void TestUiListTools::searchStopsAtTheCap() {
    Env env(1200, orderMessage);
    Ui ui(*env.client);
    ui.panel.search()->setChunkSize(300);
    ui.panel.search()->setCap(500);
    ui.search(QStringLiteral("order"));
    QTRY_VERIFY(ui.searchDone());
    QCOMPARE(ui.panel.matches()->rowCount(), 500);
    QVERIFY2(ui.status->text().contains(QStringLiteral("capped at 500")),
             qPrintable(ui.status->text()));
    QCOMPARE(ui.panel.search()->scanned(), 600); // stopped after the chunk that filled the cap
}

void TestUiListTools::matchesSortByAnyColumn() {
    // Subjects run against sequence order: message i is "item-<299 - i>".
    Env env(300, [](int i) {
        OutgoingMessage m = orderMessage(i);
        m.subject = QStringLiteral("item-%1").arg(299 - i, 3, 10, QLatin1Char('0'));
        m.timeToLive = minutes(10 + i);
        return m;
    });
    Ui ui(*env.client);
    QAbstractItemModelTester tester(ui.panel.matches());
    // "*" lists every message (up to the cap), so that a whole entity can be sorted.
    ui.search(QStringLiteral("*"));
    QTRY_VERIFY(ui.searchDone());
    QAbstractItemModel* rows = ui.table->model();
    QCOMPARE(rows->rowCount(), 300);
    QCOMPARE(cell(rows, 0, Column::SubjectColumn), QStringLiteral("item-299"));

    // Clicking the Subject header sorts by it.
    QHeaderView* header = ui.table->horizontalHeader();
    auto clickHeader = [&](int column) {
        const int x = header->sectionViewportPosition(column) + header->sectionSize(column) / 2;
        QTest::mouseClick(header->viewport(), Qt::LeftButton, {}, QPoint(x, 5));
    };
    clickHeader(Column::SubjectColumn);
    QCOMPARE(header->sortIndicatorSection(), int(Column::SubjectColumn));
    QCOMPARE(cell(rows, 0, Column::SubjectColumn), QStringLiteral("item-000"));
    QCOMPARE(cell(rows, 299, Column::SubjectColumn), QStringLiteral("item-299"));

    // Sequence number, descending: click twice.
    clickHeader(Column::SequenceNumberColumn);
    if (header->sortIndicatorOrder() != Qt::DescendingOrder)
        clickHeader(Column::SequenceNumberColumn);
    QCOMPARE(header->sortIndicatorOrder(), Qt::DescendingOrder);
    for (int row = 1; row < rows->rowCount(); ++row)
        QVERIFY(rows->index(row - 1, Column::SequenceNumberColumn).data(Qt::UserRole).toLongLong() >
                rows->index(row, Column::SequenceNumberColumn).data(Qt::UserRole).toLongLong());
    QCOMPARE(cell(rows, 0, Column::SubjectColumn), QStringLiteral("item-000"));

    // The selected sorted row names its own message.
    QSignalSpy selected(&ui.panel, &MessageListPanel::currentMessageChanged);
    ui.table->setCurrentIndex(rows->index(5, Column::SubjectColumn));
    QVERIFY(selected.count() >= 1);
    const std::optional<MessageRef> current = ui.panel.currentMessage();
    QVERIFY(current);
    QCOMPARE(current->path, QStringLiteral("test:q"));
    QCOMPARE(current->sequenceNumber,
             rows->index(5, Column::SequenceNumberColumn).data(Qt::UserRole).toLongLong());

    // Countdowns keep running on the matches: the ticker repaints their countdown cells.
    QSignalSpy repaint(ui.panel.matches(), &QAbstractItemModel::dataChanged);
    QTRY_VERIFY(repaint.count() > 0);
    QCOMPARE(cell(rows, 0, Column::TimeToLiveColumn), QStringLiteral("5h 09m")); // message 299
    env.clock->advance(minutes(1));
    QCOMPARE(cell(rows, 0, Column::TimeToLiveColumn), QStringLiteral("5h 08m"));
}

QTEST_MAIN(TestUiListTools)
#include "tst_ui_listtools.moc"
