// endpoint_shots <directory> <light|dark>: pictures of what the window says about its endpoint
// and the applications connected to it (offscreen), to look at before calling it done. Not a
// test: nothing is asserted. Writes, each at 1024x700 and 1600x1000:
//   busy-WxH.png (the port taken when the database opens: the message bar), clock-WxH.png
//   (two applications holding locks, the clock paused and ahead: the toolbar's note),
//   and dialog-busy.png (View > AMQP endpoint… with the reason and accepted hosts),
//   question-quit.png, question-open.png (the questions before letting applications go).
// Build it with `ninja -C build endpoint_shots`; run with QT_QPA_PLATFORM=offscreen.

#include "UiTestBroker.h"
#include "WireTestClient.h"
#include "common/BrokerClient.h"
#include "common/Theme.h"
#include "connections/AmqpService.h"
#include "connections/AmqpSettingsDialog.h"
#include "connections/HeldLocksQuestion.h"
#include "window/MainWindow.h"
#include "window/MessageBar.h"

#include "hourglass/Clock.h"

#include <QApplication>
#include <QDir>
#include <QLineEdit>
#include <QMessageBox>
#include <QSettings>
#include <QStandardPaths>
#include <QTest>
#include <QTextStream>

#include <memory>

using namespace hourglass;
using namespace hourglass::ui;
using hourglass::testing::WireTestClient;

namespace {

const QString kQueue = QStringLiteral("orders");
const QList<QSize> kSizes{QSize(1024, 700), QSize(1600, 1000)};

void require(bool ok, const char* what) {
    if (!ok)
        qFatal("endpoint_shots: %s", what);
}

void save(QWidget* widget, const QDir& directory, const QString& name) {
    QTest::qWait(80); // a resize or a new widget is laid out on the next turns of the loop
    const QString file = directory.filePath(name);
    const bool saved = widget->grab().save(file);
    QTextStream(stdout) << (saved ? "wrote " : "could not write ") << file << Qt::endl;
}

void saveSizes(MainWindow& window, const QDir& directory, const QString& stem) {
    for (const QSize size : kSizes) {
        window.resize(size);
        save(&window, directory,
             QStringLiteral("%1-%2x%3.png").arg(stem).arg(size.width()).arg(size.height()));
    }
}

} // namespace

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    if (argc != 3) {
        QTextStream(stderr) << "usage: endpoint_shots <directory> <light|dark>" << Qt::endl;
        return 2;
    }
    QStandardPaths::setTestModeEnabled(true);
    QApplication::setQuitOnLastWindowClosed(false);
    applyTheme(themeChoiceFromName(QString::fromLocal8Bit(argv[2])));
    QSettings().remove(QStringLiteral("amqp"));
    QSettings().remove(QStringLiteral("window"));
    const QDir directory(QString::fromLocal8Bit(argv[1]));
    QDir().mkpath(directory.path());

    // Another endpoint holds the port the window is told to use.
    QTemporaryDir otherDir;
    auto other = testing::openUiTestBroker(otherDir, std::make_shared<VirtualClock>());
    amqp::EndpointOptions options;
    options.port = 0;
    amqp::AmqpEndpoint occupying(*other, options);
    const auto busy = occupying.start();
    require(busy.ok(), "another endpoint");
    AmqpSettings settings;
    settings.port = *busy;
    settings.acceptedHosts = {QStringLiteral("host.docker.internal")};
    settings.save();

    QTemporaryDir dir;
    MainWindow window;
    window.serveAmqp();
    window.openDatabase(dir.filePath(QStringLiteral("shots.db")));
    window.resize(kSizes.first());
    window.show();
    require(QTest::qWaitForWindowExposed(&window), "the window shown");
    require(QTest::qWaitFor([&] { return window.client() != nullptr; }, 10000), "the database");
    std::shared_ptr<Broker> broker = window.client()->sharedBroker();
    require(broker->createNamespace({QStringLiteral("sbemulatorns"), Tier::Standard}).ok(),
            "namespace");
    require(broker->createQueue(kQueue, {}).ok(), "createQueue");
    for (int i = 0; i < 12; ++i) {
        OutgoingMessage message;
        message.messageId = QStringLiteral("order-%1").arg(i);
        message.body = QStringLiteral("order %1").arg(i).toUtf8();
        require(broker->send(kQueue, message).ok(), "send");
    }
    saveSizes(window, directory, QStringLiteral("busy"));
    QDialog* dialog = window.openAmqpSettings();
    save(dialog, directory, QStringLiteral("dialog-busy.png"));
    dialog->reject();

    // Serving on a free port, two applications holding locks, the clock paused and ahead.
    settings.port = 0;
    window.amqp()->apply(settings);
    require(window.amqp()->endpoint() != nullptr, "serving");
    window.messageBar()->hide(); // as the dialog's OK does
    const quint16 port = window.amqp()->endpoint()->snapshot().port;
    WireTestClient first({port, kQueue, QStringLiteral("billing-service"), 5});
    WireTestClient second({port, kQueue, QStringLiteral("shipping-worker"), 3});
    require(QTest::qWaitFor([&] { return window.amqp()->lockHolders().locks == 8; }, 10000),
            "the clients' locks");
    VirtualClock* clock = window.client()->virtualClock();
    clock->pause();
    clock->advance(minutes(5));
    require(QTest::qWaitFor(
                [&] {
                    auto* note = window.findChild<QWidget*>(QStringLiteral("clockAppsNote"));
                    return note && note->isVisibleTo(&window);
                },
                5000),
            "the clock note");
    saveSizes(window, directory, QStringLiteral("clock"));

    window.resize(kSizes.first());
    window.close();
    require(QTest::qWaitFor([&] { return window.findChild<QMessageBox*>(); }, 5000), "question");
    auto* quit = window.findChild<QMessageBox*>(QStringLiteral("heldLocksQuestion"));
    save(quit, directory, QStringLiteral("question-quit.png"));
    quit->reject();
    QTest::qWait(50);
    window.openDatabase(otherDir.filePath(QStringLiteral("another.db")));
    require(QTest::qWaitFor(
                [&] {
                    auto* box = window.findChild<QMessageBox*>(QStringLiteral("heldLocksQuestion"));
                    return box && box->isVisible();
                },
                5000),
            "the second question");
    save(window.findChild<QMessageBox*>(QStringLiteral("heldLocksQuestion")), directory,
         QStringLiteral("question-open.png"));
    return 0;
}
