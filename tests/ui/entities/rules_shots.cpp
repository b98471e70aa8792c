// rules_shots <directory>: pictures of the rule, entity and send dialogs and of the message
// detail in the real window (offscreen), light and dark, to look at before calling them done.
// Not a test: nothing is asserted. Writes, for THEME light and dark:
//   window-1024x700-THEME.png, window-1600x1000-THEME.png (a message with typed properties open)
//   send-THEME.png (the send dialog at its default size, three typed properties)
//   rules-THEME.png (the rules dialog, a correlation rule chosen for editing)
//   entity-THEME.png (a new queue's dialog: several bad fields at once)
// Build it with `ninja -C build rules_shots`; run with QT_QPA_PLATFORM=offscreen.

#include "UiTestBroker.h"
#include "common/BrokerClient.h"
#include "common/PropertyTableEditor.h"
#include "common/Theme.h"
#include "entities/EntityDialog.h"
#include "entities/RuleDialog.h"
#include "send/SendDialog.h"
#include "tree/NamespaceTreeModel.h"
#include "window/MainWindow.h"

#include <QApplication>
#include <QDir>
#include <QLineEdit>
#include <QSettings>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTableView>
#include <QTest>
#include <QTextStream>
#include <QTreeView>
#include <QTreeWidget>

using namespace hourglass;
using namespace hourglass::ui;

namespace {

const QString kQueuePath = QStringLiteral("sample:orders");
const QString kSubscription = QStringLiteral("sample:events/Subscriptions/billing");

// A picture of a state that did not come about would mislead: stop instead.
void require(bool ok, const char* what) {
    if (!ok)
        qFatal("rules_shots: %s", what);
}

void save(QWidget* widget, const QDir& directory, const QString& name) {
    QTest::qWait(50); // a resize or a new text is laid out on the next turn of the event loop
    const QString file = directory.filePath(name);
    const bool saved = widget->grab().save(file);
    QTextStream(stdout) << (saved ? "wrote " : "could not write ") << file << Qt::endl;
}

Rule typedRule() {
    Rule rule;
    rule.name = QStringLiteral("large-eu-invoices");
    rule.filterType = FilterType::Correlation;
    rule.correlation.subject = QStringLiteral("invoice");
    rule.correlation.to = QStringLiteral("billing-eu");
    rule.correlation.properties.insert(QStringLiteral("region"), QStringLiteral("eu-west"));
    rule.correlation.properties.insert(QStringLiteral("priority"), 2);
    rule.correlation.properties.insert(QStringLiteral("customerTier"), qint64(3));
    rule.sqlAction = QStringLiteral("SET review = 'manual'");
    return rule;
}

std::unique_ptr<BrokerClient> makeClient(const QTemporaryDir& dir) {
    auto broker = testing::openUiTestBroker(dir, nullptr, QStringLiteral("sample"));
    require(broker->createQueue(kQueuePath, {}).ok(), "createQueue");
    require(broker->createTopic(QStringLiteral("sample:events"), {}).ok(), "createTopic");
    Rule sql;
    sql.name = QStringLiteral("large-invoices");
    sql.filterType = FilterType::Sql;
    sql.sqlExpression = QStringLiteral("sys.Label = 'invoice' AND amount > 500");
    require(broker->createSubscription(kSubscription, {}, {sql, typedRule()}).ok(),
            "createSubscription");
    OutgoingMessage m;
    m.messageId = QStringLiteral("order-1001");
    m.subject = QStringLiteral("order");
    m.contentType = QStringLiteral("application/json");
    m.timeToLive = minutes(10);
    m.body = R"({"order":1001,"items":3})";
    m.applicationProperties = {
        {QStringLiteral("customerReference"), QStringLiteral("C-2026-000481-EU")},
        {QStringLiteral("quantity"), 12},
        {QStringLiteral("unitPrice"), 19.95},
        {QStringLiteral("expedite"), true},
        {QStringLiteral("warehouseCorrelationToken"), QStringLiteral("wh-7f3a-2291-be04")},
    };
    require(broker->send(kQueuePath, m).ok(), "send");
    return std::make_unique<BrokerClient>(std::move(broker));
}

void selectFirstMessage(MainWindow& window) {
    auto* tree = window.findChild<QTreeView*>(QStringLiteral("namespaceTree"));
    const auto find = [tree] {
        return tree->model()->match(tree->model()->index(0, 0), NamespaceTreeModel::PathRole,
                                    kQueuePath, 1, Qt::MatchExactly | Qt::MatchRecursive);
    };
    require(QTest::qWaitFor([&] { return !find().isEmpty(); }), "the queue in the tree");
    tree->setCurrentIndex(find().first());
    auto* list = window.findChild<QTableView*>(QStringLiteral("messageList"));
    require(QTest::qWaitFor([list] { return list->model() && list->model()->rowCount() > 0; }),
            "the queue's messages listed");
    list->setCurrentIndex(list->model()->index(0, 1));
    QTest::qWait(300); // the detail reads the message off the GUI thread
}

void shoot(const QDir& directory, ThemeChoice theme) {
    applyTheme(theme);
    const QString name = themeChoiceName(theme);
    QTemporaryDir dir;
    MainWindow window;
    window.setClient(makeClient(dir));
    BrokerClient& client = *window.client();
    window.show();
    require(QTest::qWaitForWindowExposed(&window), "the window shown");
    for (const QSize size : {QSize(1024, 700), QSize(1600, 1000)}) {
        window.resize(size);
        selectFirstMessage(window);
        save(&window, directory,
             QStringLiteral("window-%1x%2-%3.png").arg(size.width()).arg(size.height()).arg(name));
    }

    SendDialog send(client, kQueuePath, &window);
    auto* properties = send.findChild<PropertyTableEditor*>(QStringLiteral("sendProperties"));
    properties->addRow(QStringLiteral("customerReference"), PropertyType::String,
                       QStringLiteral("C-2026-000481-EU"));
    properties->addRow(QStringLiteral("quantity"), PropertyType::Int32, QStringLiteral("12"));
    properties->addRow(QStringLiteral("requestedDelivery"), PropertyType::DateTime,
                       QStringLiteral("2026-11-30T09:00:00Z"));
    send.show();
    require(QTest::qWaitForWindowExposed(&send), "the send dialog shown");
    save(&send, directory, QStringLiteral("send-%1.png").arg(name));
    send.close();

    RuleDialog rules(client, kSubscription, &window);
    rules.show();
    require(QTest::qWaitFor([&] { return rules.ruleNames().size() == 2; }), "the rules listed");
    auto* list = rules.findChild<QTreeWidget*>(QStringLiteral("ruleList"));
    list->setCurrentItem(list->topLevelItem(1));
    save(&rules, directory, QStringLiteral("rules-%1.png").arg(name));
    rules.close();

    EntityDialog* entity =
        EntityDialog::forCreate(client, EntityKind::Queue, QStringLiteral("sample"), {}, &window);
    entity->show();
    require(QTest::qWaitFor([entity] { return entity->isLoaded(); }), "the entity dialog");
    entity->findChild<QLineEdit*>(QStringLiteral("entityName"))->setText(QStringLiteral("bad"));
    entity->findChild<QLineEdit*>(QStringLiteral("lockDurationText"))
        ->setText(QStringLiteral("PT10M"));
    entity->findChild<QSpinBox*>(QStringLiteral("maxDeliveryCount"))->setValue(0);
    entity->findChild<QSpinBox*>(QStringLiteral("maxSizeInMegabytes"))->setValue(0);
    save(entity, directory, QStringLiteral("entity-%1.png").arg(name));
    delete entity;
    window.close();
}

} // namespace

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    if (argc != 2) {
        QTextStream(stderr) << "usage: rules_shots <directory>" << Qt::endl;
        return 2;
    }
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("hourglass-shots"));
    QSettings().clear();
    const QDir directory(QString::fromLocal8Bit(argv[1]));
    QDir().mkpath(directory.path());
    shoot(directory, ThemeChoice::Light);
    shoot(directory, ThemeChoice::Dark);
    return 0;
}
