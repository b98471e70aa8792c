// remote_window_shots <directory> <light|dark> [WIDTHxHEIGHT]: pictures of the main window on a
// namespace it does not host (an in-process served namespace over TLS, opened through File >
// Connect to namespace…) beside its own small database, to look at before calling it done. Not
// a test: nothing is asserted. Run it through secret-service.sh with. Writes remote-*.png (a
// remote queue's messages with their countdowns), remote-deadletters-*.png and remote-named-*.png
// (a signature for one queue: the entities named, counts it cannot read as a dash).

#include "RemoteWindowSteps.h"
#include "ServedNamespace.h"

#include "common/Theme.h"
#include "hourglass/Broker.h"
#include "hourglass/amqpcodec/SasToken.h"
#include "window/EntityWorkspace.h"

#include <QApplication>
#include <QDateTime>
#include <QDialogButtonBox>
#include <QDir>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTableView>
#include <QTemporaryDir>
#include <QTextStream>

using namespace hourglass;
using namespace hourglass::ui;
using namespace hourglass::testing;
using namespace namespaces_test;

namespace {

// The served namespace a user might have: orders with messages counting down, a few dead
// letters, a topic with two subscriptions.
void populate(Broker& broker) {
    (void)broker.createQueue(QStringLiteral("orders"), {});
    (void)broker.createQueue(QStringLiteral("payments"), {});
    (void)broker.createTopic(QStringLiteral("events"), {});
    (void)broker.createSubscription(QStringLiteral("events/Subscriptions/audit"), {});
    (void)broker.createSubscription(QStringLiteral("events/Subscriptions/billing"), {});
    for (int i = 0; i < 40; ++i) {
        OutgoingMessage message =
            TestBroker::message(QStringLiteral("order-%1").arg(1000 + i), "{\"total\": 42}");
        message.subject = QStringLiteral("order.created");
        message.timeToLive = Millis(60'000) * (5 + i % 25);
        (void)broker.send(QStringLiteral("orders"), message);
    }
    for (int i = 0; i < 3; ++i)
        (void)broker.send(QStringLiteral("payments"),
                          TestBroker::message(QStringLiteral("p%1").arg(i)));
    ReceiveOptions take;
    take.receiver = QStringLiteral("worker");
    take.maxCount = 2;
    const auto taken = broker.receive(QStringLiteral("payments"), take);
    if (!taken)
        return;
    for (const MessageView& message : *taken)
        (void)broker.deadLetter(LockRef::of(message), {QStringLiteral("ProcessingFailed"), {}, {}});
}

// The window's own database: one namespace with a queue, made before the window opens it.
void makeLocal(const QString& path) {
    BrokerOptions options;
    options.databasePath = path;
    auto local = Broker::open(options);
    if (!local)
        return;
    (void)(*local)->createNamespace(NamespaceInfo{QStringLiteral("local"), {}});
    (void)(*local)->createQueue(QStringLiteral("local:drafts"), {});
}

void shoot(QWidget& window, const QDir& directory, const QString& name) {
    QTest::qWait(1500); // the list's first page, the countdowns' first ticks
    const QString file = directory.filePath(name);
    QTextStream(stdout) << (window.grab().save(file) ? "wrote " : "could not write ") << file
                        << Qt::endl;
}

} // namespace

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    if (argc < 3) {
        QTextStream(stderr) << "usage: remote_window_shots <directory> <light|dark> [WxH]"
                            << Qt::endl;
        return 2;
    }
    const QDir directory(QString::fromLocal8Bit(argv[1]));
    const QString theme = QString::fromLocal8Bit(argv[2]);
    QSize size(1280, 800);
    if (argc > 3) {
        const QStringList parts = QString::fromLocal8Bit(argv[3]).split(u'x');
        size = QSize(parts.value(0).toInt(), parts.value(1).toInt());
    }
    applyTheme(themeChoiceFromName(theme));
    ServedNamespace served(ServedNamespace::Transport::Tls);
    served.testBroker().clock().resetToRealTime();
    populate(served.broker());

    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("local.db"));
    makeLocal(path);
    MainWindow window;
    window.openDatabase(path);
    window.resize(size);
    window.show();
    QTest::qWait(1000);
    RemoteNamespaceView* view = connectThroughDialog(
        window, served.connectionText(), served.caFile(), QStringLiteral("Contoso (staging)"));
    if (!view) {
        QTextStream(stderr) << "the namespace did not open" << Qt::endl;
        return 1;
    }
    QTest::qWait(1000);
    QTreeView* tree = view->tree()->view();
    tree->setCurrentIndex(findPath(tree->model(), QStringLiteral("localhost:orders")));
    QTest::qWait(1500);
    if (auto* list = view->workspace()->findChild<QTableView*>(QStringLiteral("messageList"));
        list && list->model()->rowCount() > 0)
        list->setCurrentIndex(list->model()->index(0, 1));
    const QString suffix =
        QStringLiteral("-%1-%2x%3.png").arg(theme).arg(size.width()).arg(size.height());
    shoot(window, directory, QStringLiteral("remote") + suffix);
    // The dead-letter tab of payments.
    tree->setCurrentIndex(findPath(tree->model(), QStringLiteral("localhost:payments")));
    view->workspace()->showTab(EntityWorkspace::DeadLettersTab);
    shoot(window, directory, QStringLiteral("remote-deadletters") + suffix);

    // A signature made for orders only: it reads orders, not payments, and lists nothing.
    const QString signature = amqp::makeSasToken(
        QStringLiteral("sb://localhost:%1/orders").arg(served.port()),
        amqp::SasKey{QStringLiteral("RootManageSharedAccessKey"), QStringLiteral("SAS_KEY_VALUE")},
        QDateTime::currentSecsSinceEpoch() + 3600);
    RemoteNamespaceView* scoped = connectThroughDialog(
        window,
        QStringLiteral("Endpoint=sb://localhost:%1;SharedAccessSignature=%2;EntityPath=orders")
            .arg(served.port())
            .arg(signature),
        served.caFile(), QStringLiteral("Orders only"));
    if (!scoped) {
        QTextStream(stderr) << "the scoped namespace did not open" << Qt::endl;
        return 1;
    }
    scoped->findChild<QAction*>(QStringLiteral("nameEntities"))->trigger();
    QDialog* names = nullptr;
    if (!QTest::qWaitFor(
            [&] { return (names = openDialog(QStringLiteral("namedEntitiesDialog"))); }, 5000))
        return 1;
    names->findChild<QPlainTextEdit*>(QStringLiteral("namedEntitiesText"))
        ->setPlainText(QStringLiteral("queue payments"));
    names->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok)->click();
    if (!QTest::qWaitFor([&] { return scoped->isConnected(); }, 20000)) {
        QTextStream(stderr) << "the scoped namespace did not open again: "
                            << scoped->findChild<QLabel*>(QStringLiteral("namespaceStatus"))->text()
                            << Qt::endl;
        return 1;
    }
    if (!selectInRemote(window, scoped, QStringLiteral("localhost:orders"))) {
        QTextStream(stderr) << "orders is not in the scoped namespace's tree" << Qt::endl;
        return 1;
    }
    shoot(window, directory, QStringLiteral("remote-named") + suffix);
    return 0;
}
