// layout_shots <directory>: pictures of the real window (offscreen) to judge its room before
// calling the layout done. Not a test: nothing is asserted. For each size (1024x700, 1600x1000)
// and theme (light, dark), with the Connections dock open:
//   <size>-<theme>-messages.png    a queue with long names around it, its first message open
//   <size>-<theme>-routing.png     the same message's Routing tab (long "Why" texts)
//   <size>-<theme>-deadletters.png dead letters with long descriptions
//   <size>-<theme>-status.png      a long status message next to a long database path
//   <size>-<theme>-empty.png       an empty database
// Build it with `ninja -C build layout_shots`; run with QT_QPA_PLATFORM=offscreen.

#include "UiTestBroker.h"
#include "common/BrokerClient.h"
#include "common/Theme.h"
#include "connections/AmqpService.h"
#include "tree/NamespaceTreeModel.h"
#include "window/EntityWorkspace.h"
#include "window/MainWindow.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTextStream>
#include <QTreeView>

using namespace hourglass;
using namespace hourglass::ui;

namespace {
const QString kQueue = QStringLiteral("orders-processing-pipeline-eu-west");
const QString kTopic = QStringLiteral("order-events-fan-out");

template <typename Outcome> void require(const Outcome& ok, const char* what) {
    if (!ok)
        qFatal("layout_shots: %s", what);
}

void save(QWidget* widget, const QDir& directory, const QString& name) {
    QTest::qWait(200);
    const QString file = directory.filePath(name + QStringLiteral(".png"));
    const bool saved = widget->grab().save(file);
    QTextStream(stdout) << (saved ? "wrote " : "could not write ") << file << Qt::endl;
}

void fill(Broker& broker) {
    require(broker.createQueue(kQueue, {}), "queue");
    require(broker.createQueue(QStringLiteral("orders-processing-pipeline-us-east"), {}),
            "queue 2");
    require(broker.createTopic(kTopic, {}), "topic");
    const auto subscription = [&](const QString& name, const QString& sql) {
        const QString path = kTopic + QStringLiteral("/Subscriptions/") + name;
        require(broker.createSubscription(path, {}), "subscription");
        if (sql.isEmpty())
            return;
        require(broker.removeRule(path, QStringLiteral("$Default")), "delete $Default");
        Rule rule;
        rule.name = QStringLiteral("large-orders-in-the-european-region");
        rule.filterType = FilterType::Sql;
        rule.sqlExpression = sql;
        require(broker.addRule(path, rule), "rule");
    };
    subscription(QStringLiteral("audit-everything"), {});
    subscription(QStringLiteral("billing-eu-west"),
                 QStringLiteral("region = 'eu-west' AND amount > 100 AND currency IN ('EUR', "
                                "'GBP', 'CHF') AND customerTier <> 'internal'"));
    subscription(QStringLiteral("fraud-review"), QStringLiteral("amount > 10000"));
    for (int i = 0; i < 6; ++i) {
        OutgoingMessage message;
        message.messageId = QStringLiteral("order-%1").arg(1001 + i);
        message.subject = QStringLiteral("order-created");
        message.contentType = QStringLiteral("application/json");
        message.body = R"({"order":1001,"amount":250})";
        message.applicationProperties = {{QStringLiteral("region"), QStringLiteral("eu-west")},
                                         {QStringLiteral("amount"), 250},
                                         {QStringLiteral("currency"), QStringLiteral("EUR")}};
        require(broker.send(kQueue, message), "send");
    }
    ReceiveOptions take;
    take.maxCount = 3;
    take.receiver = QStringLiteral("shots");
    const auto taken = broker.receive(kQueue, take);
    require(bool(taken), "receive");
    for (const MessageView& message : *taken) {
        DeadLetterOptions options;
        options.reason = QStringLiteral("PaymentDeclinedByTheUpstreamProvider");
        options.description =
            QStringLiteral("The payment provider declined the card after three attempts; the "
                           "order stays open until the customer chooses another way to pay");
        require(broker.deadLetter(LockRef::of(message), options), "dead-letter");
    }
}

QModelIndex find(QTreeView* tree, const QString& path) {
    const QModelIndexList hits =
        tree->model()->match(tree->model()->index(0, 0), NamespaceTreeModel::PathRole, path, 1,
                             Qt::MatchExactly | Qt::MatchRecursive);
    return hits.isEmpty() ? QModelIndex() : hits.first();
}

void shoot(const QDir& out, const QSize& size, ThemeChoice theme) {
    applyTheme(theme);
    const QString prefix = QStringLiteral("%1x%2-%3-")
                               .arg(size.width())
                               .arg(size.height())
                               .arg(themeChoiceName(theme));
    QTemporaryDir dir(QDir::temp().filePath(
        QStringLiteral("a-folder-with-a-long-name-for-the-team-databases-XXXXXX")));
    auto broker = testing::openUiTestBroker(dir, std::make_shared<VirtualClock>());
    fill(*broker);
    MainWindow window;
    window.serveAmqp();
    window.setClient(std::make_unique<BrokerClient>(std::move(broker)));
    window.resize(size);
    window.show();
    require(QTest::qWaitForWindowExposed(&window), "window shown");
    auto* tree = window.findChild<QTreeView*>(QStringLiteral("namespaceTree"));
    const QString queuePath = QStringLiteral("test:") + kQueue;
    require(QTest::qWaitFor([&] { return find(tree, queuePath).isValid(); }), "queue in tree");
    tree->setCurrentIndex(find(tree, queuePath));
    auto* list = window.findChild<QTableView*>(QStringLiteral("messageList"));
    require(QTest::qWaitFor([list] { return list->model()->rowCount() > 0; }), "messages");
    list->setCurrentIndex(list->model()->index(0, 1));
    save(&window, out, prefix + QStringLiteral("messages"));

    auto* detailTabs = window.findChild<QTabWidget*>(QStringLiteral("detailTabs"));
    detailTabs->setCurrentIndex(EntityWorkspace::RoutingTab);
    auto* topics = window.findChild<QComboBox*>(QStringLiteral("routingTopic"));
    (void)QTest::qWaitFor([topics] { return topics->count() > 0; });
    save(&window, out, prefix + QStringLiteral("routing"));
    detailTabs->setCurrentIndex(EntityWorkspace::MessageDetailTab);

    window.workspace()->showTab(EntityWorkspace::DeadLettersTab);
    auto* deadLetters = window.findChild<QTableView*>(QStringLiteral("deadLetterList"));
    (void)QTest::qWaitFor([deadLetters] { return deadLetters->model()->rowCount() > 0; });
    save(&window, out, prefix + QStringLiteral("deadletters"));

    window.workspace()->showTab(EntityWorkspace::MessagesTab);
    window.statusBar()->showMessage(
        QStringLiteral("Moved 25 messages from test:orders-processing-pipeline-eu-west to "
                       "test:orders-processing-pipeline-us-east; 3 stayed, held by another "
                       "receiver's locks"));
    save(&window, out, prefix + QStringLiteral("status"));

    QTemporaryDir emptyDir;
    window.setClient(std::make_unique<BrokerClient>(
        testing::openUiTestBroker(emptyDir, std::make_shared<VirtualClock>(), QString())));
    save(&window, out, prefix + QStringLiteral("empty"));
}
} // namespace

int main(int argc, char* argv[]) {
    QApplication app(argc, argv);
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("hourglass-layout-shots"));
    QSettings().clear();
    AmqpSettings settings;
    settings.enabled = false;
    settings.save();
    QSettings().setValue(QStringLiteral("window/connectionsVisible"), true);
    QSettings().setValue(QStringLiteral("welcome/dismissed"), true);
    const QDir out(argc > 1 ? QString::fromLocal8Bit(argv[1]) : QDir::currentPath());
    for (const QSize size : {QSize(1024, 700), QSize(1600, 1000)})
        for (const ThemeChoice theme : {ThemeChoice::Light, ThemeChoice::Dark})
            shoot(out, size, theme);
    return 0;
}
