// The namespace tree model and panel over a real broker on a paused virtual clock: the rows it
// shows, how it follows the engine's changes without a reset, the dead-letter badge, the
// auto-delete countdown, and the panel's filter, selection and empty state.

#include "TestBroker.h"
#include "common/BrokerClient.h"
#include "tree/NamespaceTreeModel.h"
#include "tree/NamespaceTreePanel.h"

#include <QAbstractItemModelTester>
#include <QFont>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>

#include <memory>
#include <optional>

using namespace hourglass;
using namespace hourglass::ui;
using Model = NamespaceTreeModel;

class TestUiTree : public QObject {
    Q_OBJECT

private slots:
    void init();
    void cleanup();

    void structure();
    void activeCountFollowsSends();
    void deadLetterBadge();
    void ruleCountFollowsRuleChanges();
    void deleteRemovesRowWithoutReset();
    void newRowsSideBySideLandInPathOrder();
    void deletesInCountsDown();
    void filterHidesNonMatching();
    void selectionEmitsEntitySelected();
    void emptyStateWithoutNamespace();

private:
    // Opens a broker on the temp dir; with a namespace "test" holding the entities of every test
    // unless asked for an empty one.
    enum class Content { Entities, Nothing };
    void openClient(Content content = Content::Entities);
    // Runs work on the client's worker and waits for its result on this thread.
    template <typename Work> auto run(Work work) {
        using R = std::invoke_result_t<Work, Broker&>;
        std::optional<R> result;
        m_client->call(this, std::move(work), [&result](R r) { result.emplace(std::move(r)); });
        if (!QTest::qWaitFor([&] { return result.has_value(); }))
            qFatal("broker call did not return");
        return std::move(*result);
    }
    void loadModel();
    QModelIndex find(const QAbstractItemModel* model, const QString& path, int column = 0) const;
    QString text(const QString& path, int column) const {
        return find(m_model.get(), path, column).data().toString();
    }

    std::unique_ptr<QTemporaryDir> m_dir;
    std::shared_ptr<VirtualClock> m_clock;
    std::unique_ptr<BrokerClient> m_client;
    std::unique_ptr<Model> m_model;
};

void TestUiTree::init() {
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_clock = std::make_shared<VirtualClock>(testing::kTestStart);
}

void TestUiTree::cleanup() {
    m_model.reset();
    m_client.reset();
    m_clock.reset();
    m_dir.reset();
}

void TestUiTree::openClient(Content content) {
    auto opened = Broker::open(BrokerOptions{
        m_dir->filePath(QStringLiteral("broker.db")), Durability::PowerSafe, m_clock, {}});
    if (!opened)
        qFatal("Broker::open failed: %s", qPrintable(opened.error().toString()));
    std::unique_ptr<Broker> broker = std::move(opened).value();
    if (content == Content::Entities) {
        // Set up before the client exists: no GUI is running yet.
        const EntityProperties defaults = EntityProperties::defaults(Tier::Standard);
        EntityProperties autoDelete = defaults;
        autoDelete.autoDeleteOnIdle = minutes(10);
        QVERIFY(broker->createNamespace({QStringLiteral("test"), Tier::Standard}));
        QVERIFY(broker->createQueue(QStringLiteral("jobs"), autoDelete));
        QVERIFY(broker->createQueue(QStringLiteral("archive"), defaults));
        QVERIFY(broker->createTopic(QStringLiteral("events"), defaults));
        QVERIFY(broker->createSubscription(QStringLiteral("events/Subscriptions/audit"), defaults));
        QVERIFY(
            broker->createSubscription(QStringLiteral("events/Subscriptions/billing"), defaults));
    }
    m_client = std::make_unique<BrokerClient>(std::move(broker));
}

void TestUiTree::loadModel() {
    openClient();
    m_model = std::make_unique<Model>(*m_client);
    new QAbstractItemModelTester(
        m_model.get(), QAbstractItemModelTester::FailureReportingMode::QtTest, m_model.get());
    QTRY_VERIFY(m_model->isLoaded());
}

QModelIndex TestUiTree::find(const QAbstractItemModel* model, const QString& path,
                             int column) const {
    const QModelIndexList hits =
        model->match(model->index(0, 0), Model::PathRole, path, 1,
                     Qt::MatchExactly | Qt::MatchRecursive | Qt::MatchWrap);
    if (hits.isEmpty())
        return {};
    return hits.first().siblingAtColumn(column);
}

void TestUiTree::ruleCountFollowsRuleChanges() {
    loadModel();
    const QString audit = QStringLiteral("test:events/Subscriptions/audit");
    QCOMPARE(text(audit, Model::NameColumn), QStringLiteral("audit · 1 rule"));
    Rule red;
    red.name = QStringLiteral("red");
    red.filterType = FilterType::Sql;
    red.sqlExpression = QStringLiteral("color = 'red'");
    QVERIFY(run([&](Broker& b) { return b.addRule(audit, red); }));
    QTRY_COMPARE(text(audit, Model::NameColumn), QStringLiteral("audit · 2 rules"));
    QVERIFY(find(m_model.get(), audit)
                .data(Qt::ToolTipRole)
                .toString()
                .contains(QStringLiteral("Rules: $Default, red")));
    QVERIFY(run([&](Broker& b) { return b.removeRule(audit, QStringLiteral("$Default")); }));
    QTRY_COMPARE(text(audit, Model::NameColumn), QStringLiteral("audit · 1 rule"));
}

void TestUiTree::structure() {
    loadModel();
    QCOMPARE(m_model->rowCount(), 1);
    const QModelIndex ns = m_model->index(0, 0);
    QCOMPARE(ns.data().toString(), QStringLiteral("test"));
    QCOMPARE(ns.data(Model::KindRole).toInt(), int(Model::NodeKind::Namespace));
    QVERIFY(!ns.data(Qt::DecorationRole).value<QIcon>().isNull());

    // Queues and topics in path order.
    QCOMPARE(m_model->rowCount(ns), 3);
    QStringList names;
    for (int row = 0; row < 3; ++row)
        names << m_model->index(row, 0, ns).data().toString();
    QCOMPARE(names, (QStringList{"archive", "events", "jobs"}));

    const QModelIndex jobs = m_model->index(2, 0, ns);
    QCOMPARE(jobs.data(Model::PathRole).toString(), QStringLiteral("test:jobs"));
    QCOMPARE(jobs.data(Model::KindRole).toInt(), int(Model::NodeKind::Queue));
    QCOMPARE(m_model->rowCount(jobs), 1);
    const QModelIndex jobsDlq = m_model->index(0, 0, jobs);
    QCOMPARE(jobsDlq.data().toString(), QStringLiteral("$deadletterqueue"));
    QCOMPARE(jobsDlq.data(Model::PathRole).toString(),
             QStringLiteral("test:jobs/$deadletterqueue"));
    QCOMPARE(jobsDlq.data(Model::KindRole).toInt(), int(Model::NodeKind::DeadLetterQueue));
    QCOMPARE(jobsDlq.data(Model::EntityKindRole).toInt(), int(EntityKind::Queue));

    // A topic has its subscriptions and no dead-letter queue; each subscription has one.
    const QModelIndex events = m_model->index(1, 0, ns);
    QCOMPARE(events.data(Model::KindRole).toInt(), int(Model::NodeKind::Topic));
    QCOMPARE(m_model->rowCount(events), 2);
    // A subscription's name carries its rule count.
    QCOMPARE(m_model->index(0, 0, events).data().toString(), QStringLiteral("audit · 1 rule"));
    QCOMPARE(m_model->index(1, 0, events).data().toString(), QStringLiteral("billing · 1 rule"));
    const QModelIndex audit = m_model->index(0, 0, events);
    QCOMPARE(audit.data(Model::PathRole).toString(),
             QStringLiteral("test:events/Subscriptions/audit"));
    QCOMPARE(m_model->rowCount(audit), 1);
    QCOMPARE(m_model->index(0, 0, audit).data(Model::PathRole).toString(),
             QStringLiteral("test:events/Subscriptions/audit/$deadletterqueue"));

    // Each kind has its own icon.
    const qint64 queueIcon = jobs.data(Qt::DecorationRole).value<QIcon>().cacheKey();
    QVERIFY(queueIcon != events.data(Qt::DecorationRole).value<QIcon>().cacheKey());
    QVERIFY(queueIcon != audit.data(Qt::DecorationRole).value<QIcon>().cacheKey());
    QVERIFY(queueIcon != jobsDlq.data(Qt::DecorationRole).value<QIcon>().cacheKey());

    QCOMPARE(m_model->headerData(Model::ActiveColumn, Qt::Horizontal).toString(),
             QStringLiteral("Active"));
    QCOMPARE(text("test:jobs", Model::ActiveColumn), QStringLiteral("0"));
    QCOMPARE(text("test:events", Model::ActiveColumn), QString()); // subscriptions hold them
}

void TestUiTree::activeCountFollowsSends() {
    loadModel();
    for (int i = 0; i < 3; ++i) {
        QVERIFY(run([i](Broker& b) {
            return b.send(QStringLiteral("test:jobs"),
                          testing::TestBroker::message(QString::number(i)));
        }));
    }
    QTRY_COMPARE(text("test:jobs", Model::ActiveColumn), QStringLiteral("3"));
    QCOMPARE(find(m_model.get(), "test:jobs", Model::ActiveColumn).data(Qt::UserRole).toLongLong(),
             3);

    // A message sent to the topic shows in each subscription.
    QVERIFY(run([](Broker& b) {
        return b.send(QStringLiteral("test:events"), testing::TestBroker::message("e1"));
    }));
    QTRY_COMPARE(text("test:events/Subscriptions/audit", Model::ActiveColumn), QStringLiteral("1"));
    QTRY_COMPARE(text("test:events/Subscriptions/billing", Model::ActiveColumn),
                 QStringLiteral("1"));
}

void TestUiTree::deadLetterBadge() {
    loadModel();
    const QString dlq = QStringLiteral("test:jobs/$deadletterqueue");
    QVERIFY(!find(m_model.get(), dlq).data(Qt::FontRole).value<QFont>().bold());
    const qint64 emptyIcon =
        find(m_model.get(), dlq).data(Qt::DecorationRole).value<QIcon>().cacheKey();
    QVERIFY(!find(m_model.get(), "test:jobs", Model::DeadLetteredColumn)
                 .data(Qt::BackgroundRole)
                 .isValid());

    QVERIFY(run([](Broker& b) {
        return b.send(QStringLiteral("test:jobs"), testing::TestBroker::message("m1"));
    }));
    auto received = run([](Broker& b) {
        ReceiveOptions options;
        options.receiver = QStringLiteral("tester");
        return b.receive(QStringLiteral("test:jobs"), options);
    });
    QVERIFY(received);
    QCOMPARE(received->size(), 1);
    QVERIFY(run([lock = LockRef::of(received->first())](Broker& b) {
        return b.deadLetter(lock, {QStringLiteral("Poison"), {}, {}});
    }));

    QTRY_COMPARE(text(dlq, Model::NameColumn), QStringLiteral("$deadletterqueue (1)"));
    QCOMPARE(text(dlq, Model::DeadLetteredColumn), QStringLiteral("1"));
    QCOMPARE(text("test:jobs", Model::DeadLetteredColumn), QStringLiteral("1"));
    QCOMPARE(text("test:jobs", Model::ActiveColumn), QStringLiteral("0"));
    QVERIFY(find(m_model.get(), dlq).data(Qt::FontRole).value<QFont>().bold());
    QVERIFY(find(m_model.get(), dlq).data(Qt::ForegroundRole).isValid());
    QVERIFY(find(m_model.get(), dlq).data(Qt::DecorationRole).value<QIcon>().cacheKey() !=
            emptyIcon);
    QVERIFY(find(m_model.get(), "test:jobs", Model::DeadLetteredColumn)
                .data(Qt::BackgroundRole)
                .isValid());
    // Only the dead-letter queue that has messages wears the badge.
    QVERIFY(!find(m_model.get(), "test:events/Subscriptions/audit/$deadletterqueue")
                 .data(Qt::FontRole)
                 .value<QFont>()
                 .bold());
}

void TestUiTree::deleteRemovesRowWithoutReset() {
    loadModel();
    QSignalSpy resets(m_model.get(), &QAbstractItemModel::modelReset);
    QSignalSpy removed(m_model.get(), &QAbstractItemModel::rowsRemoved);
    QSignalSpy inserted(m_model.get(), &QAbstractItemModel::rowsInserted);
    const QPersistentModelIndex jobs = find(m_model.get(), "test:jobs");
    QVERIFY(jobs.isValid());

    QVERIFY(run([](Broker& b) { return b.deleteEntity(QStringLiteral("test:archive")); }));
    QTRY_COMPARE(removed.count(), 1);
    QVERIFY(!find(m_model.get(), "test:archive").isValid());
    QCOMPARE(m_model->rowCount(m_model->index(0, 0)), 2);
    QCOMPARE(resets.count(), 0);
    QCOMPARE(inserted.count(), 0);
    // An index held across the change still points at its entity: no reset happened.
    QVERIFY(jobs.isValid());
    QCOMPARE(jobs.data(Model::PathRole).toString(), QStringLiteral("test:jobs"));

    // A new entity arrives as one inserted row, in path order.
    QVERIFY(run([](Broker& b) {
        return b.createQueue(QStringLiteral("test:inbox"),
                             EntityProperties::defaults(Tier::Standard));
    }));
    QTRY_COMPARE(inserted.count(), 1);
    QCOMPARE(inserted.first().at(1).toInt(), 1); // archive gone: events, inbox, jobs
    QCOMPARE(find(m_model.get(), "test:inbox").row(), 1);
    QCOMPARE(resets.count(), 0);
}

void TestUiTree::newRowsSideBySideLandInPathOrder() {
    loadModel(); // test: archive, events, jobs; the model tester checks every insertion
    QSignalSpy inserted(m_model.get(), &QAbstractItemModel::rowsInserted);
    QVERIFY(run([](Broker& b) -> Result<EntityInfo> {
        const EntityProperties defaults = EntityProperties::defaults(Tier::Standard);
        for (const char* path : {"test:aa", "test:ab", "test:zz"})
            if (auto made = b.createQueue(QString::fromLatin1(path), defaults); !made)
                return made;
        return b.createQueue(QStringLiteral("test:ac"), defaults);
    }));
    QTRY_VERIFY(find(m_model.get(), "test:zz").isValid() &&
                find(m_model.get(), "test:ac").isValid());
    const QModelIndex ns = m_model->index(0, 0);
    QStringList order;
    for (int row = 0; row < m_model->rowCount(ns); ++row)
        order.append(m_model->index(row, 0, ns).data(Model::PathRole).toString());
    QCOMPARE(order, QStringList({"test:aa", "test:ab", "test:ac", "test:archive", "test:events",
                                 "test:jobs", "test:zz"}));
    // New neighbours come in one insertion each run (aa..ac, then zz, when one snapshot brings
    // them all): four rows in all, however the snapshots fell.
    int rows = 0;
    for (const QList<QVariant>& insertion : std::as_const(inserted))
        if (!insertion.at(0).value<QModelIndex>().parent().isValid()) // under the namespace
            rows += insertion.at(2).toInt() - insertion.at(1).toInt() + 1;
    QCOMPARE(rows, 4);
    QVERIFY(inserted.count() <= 4);
    // Each new queue brought its dead-letter row.
    QCOMPARE(m_model->rowCount(find(m_model.get(), "test:ab")), 1);
}

void TestUiTree::deletesInCountsDown() {
    loadModel();
    QTRY_COMPARE(text("test:jobs", Model::DeletesInColumn), QStringLiteral("10m 00s"));
    QCOMPARE(text("test:archive", Model::DeletesInColumn), QString());
    QCOMPARE(text("test:jobs/$deadletterqueue", Model::DeletesInColumn), QString());

    QSignalSpy changed(m_model.get(), &QAbstractItemModel::dataChanged);
    QVERIFY(run([](Broker& b) { return b.advanceClock(minutes(3) + seconds(12)); }));
    QTRY_COMPARE(text("test:jobs", Model::DeletesInColumn), QStringLiteral("6m 48s"));
    QCOMPARE(
        find(m_model.get(), "test:jobs", Model::DeletesInColumn).data(Qt::UserRole).toLongLong(),
        minutes(6) + seconds(48));
    // The view heard about it: the countdown cell was announced as changed.
    QTRY_VERIFY(!changed.isEmpty());
}

void TestUiTree::filterHidesNonMatching() {
    openClient();
    NamespaceTreePanel panel(*m_client);
    auto* filter = panel.findChild<QLineEdit*>(QStringLiteral("treeFilter"));
    auto* view = panel.findChild<QTreeView*>(QStringLiteral("namespaceTree"));
    QVERIFY(filter);
    QVERIFY(view);
    new QAbstractItemModelTester(view->model(),
                                 QAbstractItemModelTester::FailureReportingMode::QtTest, &panel);
    QTRY_COMPARE(view->model()->rowCount(), 1);
    const QModelIndex ns = view->model()->index(0, 0);
    QTRY_COMPARE(view->model()->rowCount(ns), 3);
    QVERIFY(view->isExpanded(ns));

    QTest::keyClicks(filter, QStringLiteral("JOB"));
    QCOMPARE(view->model()->rowCount(ns), 1);
    const QModelIndex jobs = view->model()->index(0, 0, ns);
    QCOMPARE(jobs.data(Model::PathRole).toString(), QStringLiteral("test:jobs"));
    QCOMPARE(view->model()->rowCount(jobs), 1); // a match keeps its dead-letter queue

    // A subscription's name keeps its topic (and namespace) as parents.
    filter->setText(QStringLiteral("audit"));
    QCOMPARE(view->model()->rowCount(ns), 1);
    const QModelIndex events = view->model()->index(0, 0, ns);
    QCOMPARE(events.data().toString(), QStringLiteral("events"));
    QCOMPARE(view->model()->rowCount(events), 1);
    QVERIFY(view->isExpanded(events));

    filter->clear();
    QCOMPARE(view->model()->rowCount(ns), 3);
}

void TestUiTree::selectionEmitsEntitySelected() {
    openClient();
    NamespaceTreePanel panel(*m_client);
    auto* view = panel.findChild<QTreeView*>(QStringLiteral("namespaceTree"));
    QVERIFY(view);
    struct Selected {
        QString path;
        EntityKind kind;
        bool deadLetter;
    };
    QList<Selected> selected;
    connect(&panel, &NamespaceTreePanel::entitySelected, this,
            [&selected](const QString& path, EntityKind kind, bool deadLetter) {
                selected.append({path, kind, deadLetter});
            });
    QTRY_VERIFY(find(view->model(), "test:jobs").isValid());
    // Once loaded, the panel selects the first queue by itself, so that a database opens on
    // messages; the user's choices follow.
    QTRY_COMPARE(selected.size(), 1);
    QCOMPARE(selected.first().kind, EntityKind::Queue);
    selected.clear();
    view->selectionModel()->clear();
    QSignalSpy none(&panel, &NamespaceTreePanel::noEntitySelected);

    view->setCurrentIndex(find(view->model(), "test:jobs"));
    QCOMPARE(selected.size(), 1);
    QCOMPARE(selected.last().path, QStringLiteral("test:jobs"));
    QCOMPARE(selected.last().kind, EntityKind::Queue);
    QCOMPARE(selected.last().deadLetter, false);

    const QString auditDlq = QStringLiteral("test:events/Subscriptions/audit/$deadletterqueue");
    view->setCurrentIndex(find(view->model(), auditDlq));
    QCOMPARE(selected.size(), 2);
    QCOMPARE(selected.last().path, auditDlq);
    QCOMPARE(selected.last().kind, EntityKind::Subscription);
    QCOMPARE(selected.last().deadLetter, true);

    view->setCurrentIndex(view->model()->index(0, 0)); // the namespace
    QCOMPARE(selected.size(), 2);
    QCOMPARE(none.count(), 1);
}

void TestUiTree::emptyStateWithoutNamespace() {
    openClient(Content::Nothing);
    NamespaceTreePanel panel(*m_client);
    auto* empty = panel.findChild<QLabel*>(QStringLiteral("treeEmptyState"));
    auto* view = panel.findChild<QTreeView*>(QStringLiteral("namespaceTree"));
    QVERIFY(empty);
    QVERIFY(view);
    QCOMPARE(empty->text(), QStringLiteral("No namespace yet"));
    QTRY_VERIFY(panel.model()->isLoaded());
    QVERIFY(empty->isVisibleTo(&panel));
    QVERIFY(!view->isVisibleTo(&panel));

    QVERIFY(run([](Broker& b) {
        return b.createNamespace({QStringLiteral("fresh"), Tier::Basic});
    }));
    QTRY_VERIFY(view->isVisibleTo(&panel));
    QVERIFY(!empty->isVisibleTo(&panel));
    QCOMPARE(view->model()->index(0, 0).data().toString(), QStringLiteral("fresh"));
}

QTEST_MAIN(TestUiTree)
#include "tst_ui_tree.moc"
