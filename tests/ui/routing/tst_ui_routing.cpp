// The routing preview: for a message picked in any list, or one being composed for a
// topic, every subscription of the topic with what it gets and each rule's verdict and reason;
// the detail names the rule that made a copy (RuleName).

#include "ClientCall.h"
#include "TestBroker.h"
#include "UiTestBroker.h"
#include "common/BrokerClient.h"
#include "common/PropertyTableEditor.h"
#include "messages/MessageListModel.h"
#include "routing/RoutingPreviewPanel.h"
#include "send/SendDialog.h"
#include "tree/NamespaceTreeModel.h"
#include "window/EntityWorkspace.h"
#include "window/MainWindow.h"

#include <QComboBox>
#include <QLabel>
#include <QSignalSpy>
#include <QStackedWidget>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>
#include <QTreeWidget>

using namespace hourglass;
using namespace hourglass::ui;
using hourglass::testing::callAndWait;

namespace {

const QString kTopic = QStringLiteral("test:shop");
const QString kOther = QStringLiteral("test:audit");
const QString kQueue = QStringLiteral("test:inbox");

QString sub(const QString& name) {
    return kTopic + QStringLiteral("/Subscriptions/") + name;
}

Rule sqlRule(const QString& name, const QString& filter, const QString& action = {}) {
    Rule rule;
    rule.name = name;
    rule.filterType = FilterType::Sql;
    rule.sqlExpression = filter;
    rule.sqlAction = action;
    return rule;
}

OutgoingMessage order(const QString& id, const QString& color, int quantity) {
    OutgoingMessage m = testing::TestBroker::message(id);
    m.applicationProperties.insert(QStringLiteral("color"), color);
    m.applicationProperties.insert(QStringLiteral("quantity"), quantity);
    return m;
}

QModelIndex findPath(QAbstractItemModel* model, const QString& path) {
    const QModelIndexList hits = model->match(model->index(0, 0), NamespaceTreeModel::PathRole,
                                              path, 1, Qt::MatchExactly | Qt::MatchRecursive);
    return hits.isEmpty() ? QModelIndex() : hits.first();
}

// The top-level row of a subscription in the routing tree, or null.
QTreeWidgetItem* subscriptionRow(QTreeWidget* tree, const QString& name) {
    for (int i = 0; i < tree->topLevelItemCount(); ++i)
        if (tree->topLevelItem(i)->text(RoutingPreviewPanel::NameColumn) == name)
            return tree->topLevelItem(i);
    return nullptr;
}

QString verdictOf(QTreeWidget* tree, const QString& subscription, int rule = -1) {
    QTreeWidgetItem* row = subscriptionRow(tree, subscription);
    if (!row)
        return {};
    if (rule < 0)
        return row->text(RoutingPreviewPanel::VerdictColumn);
    return rule < row->childCount() ? row->child(rule)->text(RoutingPreviewPanel::VerdictColumn)
                                    : QString();
}

QString whyOf(QTreeWidget* tree, const QString& subscription, int rule) {
    QTreeWidgetItem* row = subscriptionRow(tree, subscription);
    return row && rule < row->childCount() ? row->child(rule)->text(RoutingPreviewPanel::WhyColumn)
                                           : QString();
}

struct Env {
    Env() {
        auto broker = testing::openUiTestBroker(dir, clock);
        if (!broker->createTopic(kTopic, {}) || !broker->createTopic(kOther, {}) ||
            !broker->createQueue(kQueue, {}) ||
            !broker->createSubscription(sub("red"), {}, {sqlRule("red", "color = 'red'")}) ||
            !broker->createSubscription(sub("big"), {},
                                        {sqlRule("big", "quantity > 5", "SET tier = 'gold'")}) ||
            !broker->createSubscription(sub("every"), {}) ||
            !broker->createSubscription(kOther + QStringLiteral("/Subscriptions/blue"), {},
                                        {sqlRule("blue", "color = 'blue'")}))
            qFatal("set-up failed");
        if (!broker->send(kTopic, order(QStringLiteral("o-1"), QStringLiteral("red"), 10)) ||
            !broker->send(kQueue, order(QStringLiteral("q-1"), QStringLiteral("blue"), 1)))
            qFatal("send failed");
        window.setClient(std::make_unique<BrokerClient>(std::move(broker)));
        window.resize(1280, 800);
        window.show();
    }

    bool select(const QString& path) {
        auto* tree = window.findChild<QTreeView*>(QStringLiteral("namespaceTree"));
        if (!QTest::qWaitFor([&] { return findPath(tree->model(), path).isValid(); }))
            return false;
        tree->setCurrentIndex(findPath(tree->model(), path));
        return true;
    }
    // Clicks the first row of the message list once it shows.
    bool clickFirstMessage() {
        auto* view = window.findChild<QTableView*>(QStringLiteral("messageList"));
        if (!QTest::qWaitFor([&] { return view->model()->rowCount() > 0; }))
            return false;
        const QModelIndex cell = view->model()->index(0, MessageListModel::MessageIdColumn);
        QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, view->visualRect(cell).center());
        return true;
    }
    EntityWorkspace* workspace() { return window.findChild<EntityWorkspace*>(); }
    QTreeWidget* routingTree() {
        return window.findChild<QTreeWidget*>(QStringLiteral("routingTree"));
    }
    void showRoutingTab() {
        workspace()->detailTabs()->setCurrentIndex(EntityWorkspace::RoutingTab);
    }

    QTemporaryDir dir;
    std::shared_ptr<VirtualClock> clock = std::make_shared<VirtualClock>(testing::kTestStart);
    MainWindow window;
};

// A message as a list shows it, for RoutingPreviewPanel::showStoredMessage.
MessageView storedView(const QString& id, const QString& color, qint64 sequenceNumber = 1) {
    MessageView view;
    view.messageId = id;
    view.sequenceNumber = sequenceNumber;
    view.applicationProperties.insert(QStringLiteral("color"), color);
    return view;
}

QString emptyText(RoutingPreviewPanel& panel) {
    auto* empty = panel.findChild<QLabel*>(QStringLiteral("routingEmpty"));
    return empty && empty->isVisible() ? empty->text() : QString();
}

// Lets every broker call and change notice under way arrive.
void settle(BrokerClient& client) {
    for (int i = 0; i < 5; ++i) {
        client.waitForIdle();
        QTest::qWait(20);
    }
}

// Saves `widget` as a PNG in $HOURGLASS_SCREENSHOTS when set: how the preview was looked at.
void saveScreenshot(QWidget* widget, const QString& name) {
    const QString dir = qEnvironmentVariable("HOURGLASS_SCREENSHOTS");
    if (!dir.isEmpty())
        widget->grab().save(dir + QLatin1Char('/') + name + QStringLiteral(".png"));
}

} // namespace

class TestUiRouting : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("hourglass-tests"));
    }

    void aSubscriptionsMessageIsExplainedThroughItsTopic() {
        Env env;
        QVERIFY(env.select(sub("red")));
        QVERIFY(env.clickFirstMessage());
        env.showRoutingTab();
        QTreeWidget* tree = env.routingTree();
        QTRY_COMPARE(tree->topLevelItemCount(), 3);
        QVERIFY(tree->isVisible());
        QCOMPARE(verdictOf(tree, QStringLiteral("red")), QStringLiteral("gets a copy"));
        QCOMPARE(verdictOf(tree, QStringLiteral("red"), 0), QStringLiteral("matched"));
        QCOMPARE(verdictOf(tree, QStringLiteral("big"), 0), QStringLiteral("matched"));
        // The action's change is listed under its rule.
        QTreeWidgetItem* big = subscriptionRow(tree, QStringLiteral("big"));
        QVERIFY(big->child(0)->childCount() >= 1);
        QStringList changes;
        for (int i = 0; i < big->child(0)->childCount(); ++i)
            changes << big->child(0)->child(i)->text(RoutingPreviewPanel::NameColumn);
        QVERIFY2(changes.contains(QStringLiteral("action → tier: set to 'gold'")),
                 qPrintable(changes.join('|')));
        // The topic is the message's own and cannot be changed.
        auto* topic = env.window.findChild<QComboBox*>(QStringLiteral("routingTopic"));
        QCOMPARE(topic->currentText(), QStringLiteral("shop"));
        QVERIFY(!topic->isEnabled());
        auto* summary = env.window.findChild<QLabel*>(QStringLiteral("routingSummary"));
        QCOMPARE(summary->text(),
                 QStringLiteral("Message 1 would reach 3 of 3 subscriptions (3 copies)."));
        saveScreenshot(&env.window, QStringLiteral("routing-window"));
    }

    void aRuleChangeUpdatesTheTree() {
        Env env;
        QVERIFY(env.select(sub("red")));
        QVERIFY(env.clickFirstMessage());
        env.showRoutingTab();
        QTreeWidget* tree = env.routingTree();
        QTRY_COMPARE(verdictOf(tree, QStringLiteral("red")), QStringLiteral("gets a copy"));
        // The red subscription now wants blue: the preview says it would not get this message.
        auto* client = env.window.client();
        QVERIFY(callAndWait(*client, [](Broker& b) {
                    return b.addRule(sub("red"), sqlRule("blue", "color = 'blue'"));
                }).ok());
        QVERIFY(callAndWait(*client, [](Broker& b) {
                    return b.removeRule(sub("red"), QStringLiteral("red"));
                }).ok());
        QTRY_COMPARE(verdictOf(tree, QStringLiteral("red")), QStringLiteral("no rule matched"));
        QCOMPARE(verdictOf(tree, QStringLiteral("red"), 0), QStringLiteral("not matched"));
        QCOMPARE(whyOf(tree, QStringLiteral("red"), 0), QStringLiteral("color is 'red'"));
    }

    void aQueuesMessageCanBeTriedAgainstAnyTopic() {
        Env env;
        QVERIFY(env.select(kQueue));
        QVERIFY(env.clickFirstMessage());
        env.showRoutingTab();
        auto* topic = env.window.findChild<QComboBox*>(QStringLiteral("routingTopic"));
        QTRY_COMPARE(topic->count(), 2);
        QVERIFY(topic->isEnabled());
        QTreeWidget* tree = env.routingTree();
        QTRY_VERIFY(tree->topLevelItemCount() > 0);
        topic->setCurrentIndex(topic->findData(kOther));
        emit topic->activated(topic->currentIndex());
        QTRY_COMPARE(tree->topLevelItemCount(), 1);
        QTRY_COMPARE(verdictOf(tree, QStringLiteral("blue"), 0), QStringLiteral("matched"));
    }

    void theDetailNamesTheRuleThatMadeACopy() {
        Env env;
        QVERIFY(env.select(sub("big")));
        QVERIFY(env.clickFirstMessage());
        auto* system = env.window.findChild<QTableWidget*>(QStringLiteral("systemProperties"));
        const auto ruleNameRow = [system]() -> QString {
            for (int row = 0; row < system->rowCount(); ++row)
                if (system->item(row, 0)->text() == QStringLiteral("RuleName"))
                    return system->item(row, 1)->text();
            return {};
        };
        QTRY_COMPARE(ruleNameRow(), QStringLiteral("big"));
    }

    void theSendDialogPreviewsATopicAsTheFormIsEdited() {
        Env env;
        SendDialog dialog(*env.window.client(), kTopic);
        dialog.show();
        RoutingPreviewPanel* routing = dialog.routing();
        QTRY_VERIFY(routing->isVisible());
        QTreeWidget* tree = routing->tree();
        QTRY_COMPARE(tree->topLevelItemCount(), 3);
        QCOMPARE(verdictOf(tree, QStringLiteral("red"), 0), QStringLiteral("unknown"));
        QCOMPARE(whyOf(tree, QStringLiteral("red"), 0),
                 QStringLiteral("color is missing, so the filter is unknown"));
        auto* properties = dialog.findChild<PropertyTableEditor*>(QStringLiteral("sendProperties"));
        properties->addRow(QStringLiteral("color"), PropertyType::String, QStringLiteral("red"));
        QTRY_COMPARE(verdictOf(tree, QStringLiteral("red"), 0), QStringLiteral("matched"));
        QCOMPARE(routing->summary()->text(),
                 QStringLiteral("This message would reach 2 of 3 subscriptions (2 copies)."));
        saveScreenshot(&dialog, QStringLiteral("routing-send"));
        dialog.resize(1500, 700);
        saveScreenshot(&dialog, QStringLiteral("routing-send-wide"));
    }

    void theSendDialogHasNoPreviewForAQueue() {
        Env env;
        SendDialog dialog(*env.window.client(), kQueue);
        dialog.show();
        env.window.client()->waitForIdle();
        QCoreApplication::processEvents();
        QVERIFY(!dialog.routing()->isVisible());
    }

    // A topic list read for one namespace arrives after a message of another namespace was
    // picked: the box never offers the old namespace's topics for the new message.
    void anotherNamespacesMessageNeverGoesThroughTheOldTopics() {
        Env env;
        BrokerClient& client = *env.window.client();
        QVERIFY(callAndWait(client, [](Broker& b) -> Result<void> {
                    if (auto ok = b.createNamespace({QStringLiteral("other"), Tier::Standard}); !ok)
                        return ok;
                    if (auto ok = b.createTopic(QStringLiteral("other:news"), {}); !ok)
                        return ok.error();
                    if (auto ok = b.createSubscription(
                            QStringLiteral("other:news/Subscriptions/all"), {});
                        !ok)
                        return ok.error();
                    return {};
                }).ok());
        RoutingPreviewPanel panel(client);
        panel.show();
        panel.showStoredMessage(kQueue, storedView(QStringLiteral("q-1"), QStringLiteral("blue")));
        QTRY_COMPARE(panel.topicBox()->count(), 2);
        QTRY_VERIFY(panel.tree()->topLevelItemCount() > 0);
        // Two picks in "other" before its topic list arrives.
        const QString queue = QStringLiteral("other:inbox");
        panel.showStoredMessage(queue, storedView(QStringLiteral("a"), QStringLiteral("red")));
        QCOMPARE(panel.topic(), QString()); // nothing to preview through until the list is in
        panel.showStoredMessage(queue, storedView(QStringLiteral("b"), QStringLiteral("red")));
        QCOMPARE(panel.topic(), QString());
        QTRY_COMPARE(panel.topic(), QStringLiteral("other:news"));
        QCOMPARE(panel.topicBox()->count(), 1);
        QTRY_VERIFY(subscriptionRow(panel.tree(), QStringLiteral("all")) != nullptr);
        QCOMPARE(panel.tree()->topLevelItemCount(), 1);
    }

    // "No preview until the message can be sent" stays until the form is fixed: a rule change
    // (or showing the panel again) brings no old preview back.
    void notReadyStaysThroughARuleChange() {
        Env env;
        BrokerClient& client = *env.window.client();
        RoutingPreviewPanel panel(client);
        panel.show();
        panel.showComposedMessage(kTopic, order(QStringLiteral("n-1"), QStringLiteral("red"), 1));
        QTRY_COMPARE(panel.tree()->topLevelItemCount(), 3);
        panel.showNotReady(QStringLiteral("TimeToLive is not a duration"));
        QVERIFY(emptyText(panel).startsWith(QStringLiteral("No preview until")));
        QVERIFY(callAndWait(client, [](Broker& b) {
                    return b.addRule(sub("red"), sqlRule("blue", "color = 'blue'"));
                }).ok());
        settle(client);
        QCOMPARE(panel.tree()->topLevelItemCount(), 0);
        QVERIFY(emptyText(panel).startsWith(QStringLiteral("No preview until")));

        // Hidden, a composed message waits to be shown; not ready before that: nothing is asked.
        panel.hide();
        panel.showComposedMessage(kTopic, order(QStringLiteral("n-2"), QStringLiteral("red"), 1));
        panel.showNotReady(QStringLiteral("still broken"));
        panel.show();
        settle(client);
        QCOMPARE(panel.tree()->topLevelItemCount(), 0);
        QCOMPARE(emptyText(panel),
                 QStringLiteral("No preview until the message can be sent: still broken"));
    }

    // A queue's message in a namespace without topics: creating one there fills the box and
    // previews through it.
    void aTopicCreatedAfterNoTopicsIsPreviewed() {
        Env env;
        BrokerClient& client = *env.window.client();
        QVERIFY(callAndWait(client, [](Broker& b) {
                    return b.createNamespace({QStringLiteral("bare"), Tier::Standard});
                }).ok());
        RoutingPreviewPanel panel(client);
        panel.show();
        panel.showStoredMessage(QStringLiteral("bare:inbox"),
                                storedView(QStringLiteral("m"), QStringLiteral("red")));
        QTRY_VERIFY(emptyText(panel).startsWith(QStringLiteral("This namespace has no topics")));
        QVERIFY(callAndWait(client, [](Broker& b) -> Result<void> {
                    if (auto ok = b.createTopic(QStringLiteral("bare:news"), {}); !ok)
                        return ok.error();
                    if (auto ok =
                            b.createSubscription(QStringLiteral("bare:news/Subscriptions/all"), {});
                        !ok)
                        return ok.error();
                    return {};
                }).ok());
        QTRY_COMPARE(panel.topic(), QStringLiteral("bare:news"));
        QTRY_VERIFY(subscriptionRow(panel.tree(), QStringLiteral("all")) != nullptr);
        QCOMPARE(verdictOf(panel.tree(), QStringLiteral("all")), QStringLiteral("gets a copy"));
    }

    // A copy an action rule made already carries the action's changes: the summary says so.
    void aCopyMadeByAnActionRuleSaysItsChangesAreIncluded() {
        Env env;
        QVERIFY(env.select(sub("big")));
        QVERIFY(env.clickFirstMessage());
        env.showRoutingTab();
        auto* summary = env.window.findChild<QLabel*>(QStringLiteral("routingSummary"));
        QTRY_VERIFY(summary->text().contains(
            QStringLiteral("This copy was made by rule 'big'; its action's changes are "
                           "included.")));
        // A plain copy says nothing of the kind.
        QVERIFY(env.select(sub("red")));
        QVERIFY(env.clickFirstMessage());
        QTRY_COMPARE(summary->text(),
                     QStringLiteral("Message 1 would reach 3 of 3 subscriptions (3 copies)."));
    }

    // A message picked while the panel is hidden drops the reply still under way for the one
    // before: it is asked for again when the panel shows.
    void aReplyForAnEarlierMessageIsDroppedWhileHidden() {
        Env env;
        BrokerClient& client = *env.window.client();
        RoutingPreviewPanel panel(client);
        panel.show();
        QSignalSpy shown(&panel, &RoutingPreviewPanel::previewShown);
        panel.showComposedMessage(kTopic, order(QStringLiteral("h-1"), QStringLiteral("red"), 1));
        panel.hide();
        panel.showComposedMessage(kTopic, order(QStringLiteral("h-2"), QStringLiteral("blue"), 1));
        settle(client);
        QCOMPARE(shown.count(), 0);
        panel.show();
        QTRY_COMPARE(shown.count(), 1);
        QCOMPARE(verdictOf(panel.tree(), QStringLiteral("red"), 0), QStringLiteral("not matched"));
    }

    // A disabled subscription's rules decide nothing: greyed, not painted as matched.
    void aDisabledSubscriptionsRulesAreGreyed() {
        Env env;
        BrokerClient& client = *env.window.client();
        QVERIFY(callAndWait(client, [](Broker& b) {
                    EntityProperties off;
                    off.status = EntityStatus::Disabled;
                    return b.createSubscription(sub("off"), off);
                }).ok());
        RoutingPreviewPanel panel(client);
        panel.show();
        panel.showComposedMessage(kTopic, order(QStringLiteral("d-1"), QStringLiteral("red"), 1));
        QTRY_COMPARE(panel.tree()->topLevelItemCount(), 4);
        QCOMPARE(verdictOf(panel.tree(), QStringLiteral("off")),
                 QStringLiteral("disabled: takes nothing"));
        QTreeWidgetItem* off = subscriptionRow(panel.tree(), QStringLiteral("off"));
        QCOMPARE(off->child(0)->text(RoutingPreviewPanel::VerdictColumn),
                 QStringLiteral("matched"));
        const QColor grey = QPalette().color(QPalette::Disabled, QPalette::Text);
        QCOMPARE(off->child(0)->foreground(RoutingPreviewPanel::VerdictColumn).color(), grey);
        QTreeWidgetItem* every = subscriptionRow(panel.tree(), QStringLiteral("every"));
        QVERIFY(every->child(0)->foreground(RoutingPreviewPanel::VerdictColumn).color() != grey);
    }

    // What the topic does before its fan-out is in the summary: a disabled topic refuses the
    // send, duplicate detection drops an id it saw, a scheduled message is routed later; a
    // ForwardTo that takes nothing dead-letters the copies.
    void theSummarySaysWhatTheTopicDoesFirst() {
        Env env;
        BrokerClient& client = *env.window.client();
        const QString dedup = QStringLiteral("test:dedup");
        QVERIFY(callAndWait(client, [dedup](Broker& b) -> Result<void> {
                    EntityProperties detecting;
                    detecting.requiresDuplicateDetection = true;
                    if (auto ok = b.createTopic(dedup, detecting); !ok)
                        return ok.error();
                    EntityProperties forwarding;
                    forwarding.forwardTo = QStringLiteral("inbox");
                    if (auto ok = b.createSubscription(dedup + QStringLiteral("/Subscriptions/fwd"),
                                                       forwarding);
                        !ok)
                        return ok.error();
                    if (auto ok = b.send(dedup, order(QStringLiteral("seen"), {}, 1)); !ok)
                        return ok.error();
                    EntityProperties disabled;
                    disabled.status = EntityStatus::Disabled;
                    if (auto ok = b.updateEntity(QStringLiteral("test:inbox"), disabled); !ok)
                        return ok.error();
                    return {};
                }).ok());
        RoutingPreviewPanel panel(client);
        panel.show();
        panel.showComposedMessage(dedup, order(QStringLiteral("seen"), {}, 1));
        QTRY_COMPARE(panel.tree()->topLevelItemCount(), 1);
        QVERIFY2(panel.summary()->text().startsWith(
                     QStringLiteral("Duplicate detection: MessageId 'seen' was sent to this topic "
                                    "within its window")),
                 qPrintable(panel.summary()->text()));
        QCOMPARE(verdictOf(panel.tree(), QStringLiteral("fwd")),
                 QStringLiteral("dead-lettered (ForwardingFailed)"));
        QVERIFY(subscriptionRow(panel.tree(), QStringLiteral("fwd"))
                    ->text(RoutingPreviewPanel::WhyColumn)
                    .startsWith(QStringLiteral("The forwarding destination 'inbox' is Disabled.")));

        OutgoingMessage later = order(QStringLiteral("later"), {}, 1);
        later.scheduledEnqueueTime = testing::kTestStart + hours(2);
        panel.showComposedMessage(dedup, later);
        QTRY_VERIFY(panel.summary()->text().contains(QStringLiteral("It is scheduled")));

        QVERIFY(callAndWait(client, [dedup](Broker& b) {
                    EntityProperties disabled;
                    disabled.requiresDuplicateDetection = true;
                    disabled.status = EntityStatus::Disabled;
                    return b.updateEntity(dedup, disabled);
                }).ok());
        QTRY_VERIFY2(panel.summary()->text().startsWith(
                         QStringLiteral("A send would be refused: 'dedup' is Disabled")),
                     qPrintable(panel.summary()->text()));
    }
};

QTEST_MAIN(TestUiRouting)
#include "tst_ui_routing.moc"
