// indexless_list_shots <directory> <light|dark>: pictures of the Messages tab on a namespace
// without a sequence index (IndexlessBroker over a broker on a temporary database), to look at
// before calling it done. Not a test: nothing is asserted. Writes indexless-first-page.png (the
// first page read, the path's total in the title), indexless-end.png (scrolled to the end: every
// row read, countdowns running) and indexless-purge.png (select all, then Purge… asking about
// every message).

#include "IndexlessBroker.h"
#include "TestBroker.h"
#include "UiTestBroker.h"
#include "common/BrokerClient.h"
#include "common/Theme.h"
#include "messages/MessageListModel.h"
#include "messages/MessageListPanel.h"

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QMessageBox>
#include <QPainter>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTextStream>

using namespace hourglass;
using namespace hourglass::ui;

namespace {

void save(QWidget* widget, const QDir& directory, const QString& name) {
    QTest::qWait(200);
    const QString file = directory.filePath(name);
    const bool saved = widget->grab().save(file);
    QTextStream(stdout) << (saved ? "wrote " : "could not write ") << file << Qt::endl;
}

template <typename Condition> void waitFor(Condition condition, const char* what) {
    if (!QTest::qWaitFor(condition, 10000))
        QTextStream(stderr) << "gave up waiting for " << what << Qt::endl;
}

} // namespace

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    if (argc != 3) {
        QTextStream(stderr) << "usage: indexless_list_shots <directory> <light|dark>" << Qt::endl;
        return 2;
    }
    applyTheme(themeChoiceFromName(QString::fromLocal8Bit(argv[2])));
    const QDir directory(QString::fromLocal8Bit(argv[1]));
    const QString suffix = QStringLiteral("-") + QString::fromLocal8Bit(argv[2]);

    QTemporaryDir dir;
    auto clock = std::make_shared<VirtualClock>(testing::kTestStart);
    std::unique_ptr<Broker> broker = testing::openUiTestBroker(dir, clock);
    if (!broker->createQueue(QStringLiteral("orders"), EntityProperties::defaults(Tier::Standard)))
        return 1;
    QList<OutgoingMessage> batch;
    for (int i = 0; i < 640; ++i) {
        OutgoingMessage m = testing::TestBroker::message(QStringLiteral("order-%1").arg(i));
        m.subject = i % 2 ? QStringLiteral("created") : QStringLiteral("paid");
        if (i % 3 != 2)
            m.timeToLive = minutes(5 + i % 40);
        batch.append(m);
    }
    if (!broker->sendBatch(QStringLiteral("orders"), batch))
        return 1;
    clock->advance(seconds(75));
    BrokerClient client(std::make_unique<testing::IndexlessBroker>(std::move(broker), 100));

    MessageListPanel panel(client);
    panel.resize(1000, 520);
    panel.show();
    panel.setPath(QStringLiteral("test:orders"));
    MessageListModel* model = panel.model();
    waitFor([&] { return model->rowCount() > 0; }, "the first page");
    save(&panel, directory, QStringLiteral("indexless-first-page%1.png").arg(suffix));

    waitFor(
        [&] {
            panel.view()->scrollToBottom();
            return !model->canFetchMore();
        },
        "every page");
    save(&panel, directory, QStringLiteral("indexless-end%1.png").arg(suffix));

    panel.view()->scrollToTop();
    panel.setPath({});
    panel.setPath(QStringLiteral("test:orders"));
    waitFor([&] { return model->rowCount() > 0; }, "the first page");
    panel.view()->selectAll();
    panel.findChild<QAction*>(QStringLiteral("purgeMessagesAction"))->trigger();
    QMessageBox* box = nullptr;
    waitFor([&] { return (box = panel.findChild<QMessageBox*>(QStringLiteral("confirmPurge"))); },
            "the purge question");
    QTest::qWait(200);
    const QPixmap list = panel.grab();
    if (box) {
        // The question over the list, as the user sees it.
        QPixmap combined = list;
        QPainter painter(&combined);
        const QPixmap question = box->grab();
        painter.drawPixmap((list.width() - question.width()) / 2,
                           (list.height() - question.height()) / 2, question);
        painter.end();
        const QString file =
            directory.filePath(QStringLiteral("indexless-purge%1.png").arg(suffix));
        QTextStream(stdout) << (combined.save(file) ? "wrote " : "could not write ") << file
                            << Qt::endl;
        box->reject();
    }
    return 0;
}
