// selection_shots <directory>: pictures of the message list's selection tools in the real window
// (offscreen), light and dark, at 1024x700 and 1600x1000, to look at before calling them done.
// Not a test: nothing is asserted. Writes, per theme and size:
//   count-<theme>-<size>.png   5,000 messages all selected (Ctrl+A): the status bar counts them
//   moved-<theme>-<size>.png   600 of them moved to "b" with Move to…: nothing selected after
//   end-<theme>-<size>.png     Ctrl+End on the list: its last row, selected
//   purge-<theme>-<size>.png   Purge… of the queue cancelled after a chunk: the strip and status
// and confirm-<theme>.png, the purge's question, and treemenu-<theme>.png, the tree's context menu.
// Build it with `ninja -C build selection_shots`; run with QT_QPA_PLATFORM=offscreen.

#include "ColumnsTestEnv.h"
#include "common/BulkJob.h"
#include "common/MessagePurge.h"
#include "common/Theme.h"
#include "messages/MessageListActions.h"
#include "messages/MessageListPanel.h"
#include "window/EntityWorkspace.h"
#include "window/MainWindow.h"

#include <QApplication>
#include <QDir>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QTextStream>
#include <QTreeView>

using namespace hourglass;
using namespace hourglass::testing::columns;
using hourglass::ui::MainWindow;
using hourglass::ui::NamespaceTreeModel;

namespace {

// A picture of a state that did not come about would mislead: stop instead.
void require(bool ok, const char* what) {
    if (!ok)
        qFatal("selection_shots: %s", what);
}

void save(QWidget* widget, const QDir& directory, const QString& name) {
    QTest::qWait(100); // a resize or a new text is laid out on a later turn of the event loop
    const QString file = directory.filePath(name + QStringLiteral(".png"));
    const bool saved = widget->grab().save(file);
    QTextStream(stdout) << (saved ? "wrote " : "could not write ") << file << Qt::endl;
}

void shoot(const QDir& directory, const QString& theme, QSize size) {
    TransferEnv env;
    for (int sent = 0; sent < 5000; sent += 500)
        env.sendTo(kQueue, 500);
    MainWindow window;
    window.resize(size);
    window.setClient(std::move(env.client));
    window.show();
    require(QTest::qWaitForWindowExposed(&window), "the window shown");
    auto* tree = window.findChild<QTreeView*>(QStringLiteral("namespaceTree"));
    auto* list = window.findChild<QTableView*>(QStringLiteral("messageList"));
    auto row = [tree](const QString& path) {
        const QModelIndexList found =
            tree->model()->match(tree->model()->index(0, 0), NamespaceTreeModel::PathRole, path, 1,
                                 Qt::MatchExactly | Qt::MatchRecursive);
        return found.isEmpty() ? QModelIndex() : found.first();
    };
    require(QTest::qWaitFor([&] { return row(QStringLiteral("test:orders")).isValid(); }),
            "the queue in the tree");
    tree->setCurrentIndex(row(QStringLiteral("test:orders")));
    require(QTest::qWaitFor([&] {
                return list->model()->rowCount() == 5000 &&
                       list->model()->index(0, 0).data(Qt::UserRole).isValid();
            }),
            "the queue listed");
    const QString suffix =
        QStringLiteral("%1-%2x%3").arg(theme).arg(size.width()).arg(size.height());

    list->setFocus();
    QTest::keyClick(list, Qt::Key_A, Qt::ControlModifier);
    save(&window, directory, QStringLiteral("count-") + suffix);

    list->selectionModel()->select(
        QItemSelection(list->model()->index(0, 0),
                       list->model()->index(599, list->model()->columnCount() - 1)),
        QItemSelectionModel::ClearAndSelect);
    list->selectionModel()->setCurrentIndex(list->model()->index(599, 1),
                                            QItemSelectionModel::NoUpdate);
    contextCommand(list, QStringLiteral("moveMessagesAction"))->trigger();
    require(pickEntity(window, kTarget), "the target picked");
    require(QTest::qWaitFor([&] { return list->model()->rowCount() == 4400; }), "the move");
    save(&window, directory, QStringLiteral("moved-") + suffix);

    QTest::keyClick(list, Qt::Key_End, Qt::ControlModifier);
    require(QTest::qWaitFor([&] { return list->currentIndex().data(Qt::UserRole).isValid(); }),
            "the last row loaded");
    save(&window, directory, QStringLiteral("end-") + suffix);

    // The tree's context menu on the queue, with Purge… under Delete.
    if (size.width() == 1024) {
        QMenu menu;
        menu.addActions(tree->actions());
        menu.popup(tree->viewport()->mapToGlobal(
            tree->visualRect(row(QStringLiteral("test:orders"))).center()));
        save(&menu, directory, QStringLiteral("treemenu-") + theme);
        menu.close();
    }

    ui::MessageListActions* actions = window.workspace()->messages()->listActions();
    actions->purger()->setChunkSize(100);
    QObject::connect(actions->purger(), &ui::MessagePurge::jobStarted, [&](ui::BulkJob* job) {
        QObject::connect(job, &ui::BulkJob::progress, job, [job](int done, int) {
            if (done > 0)
                job->cancel();
        });
    });
    actions->purgeAction()->trigger();
    QMessageBox* box = nullptr;
    require(QTest::qWaitFor([&] {
                box = window.findChild<QMessageBox*>(QStringLiteral("confirmPurge"));
                return box && box->isVisible();
            }),
            "the purge's question");
    if (size.width() == 1024)
        save(box, directory, QStringLiteral("confirm-") + theme);
    box->button(QMessageBox::Ok)->click();
    require(QTest::qWaitFor([&] { return list->model()->rowCount() < 4400; }), "a chunk purged");
    save(&window, directory, QStringLiteral("purge-") + suffix);
}

} // namespace

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    isolateSettings();
    const QDir directory(argc > 1 ? QString::fromLocal8Bit(argv[1]) : QDir::currentPath());
    for (const auto& [name, theme] : {std::pair{QStringLiteral("light"), ui::ThemeChoice::Light},
                                      std::pair{QStringLiteral("dark"), ui::ThemeChoice::Dark}}) {
        ui::applyTheme(theme);
        for (const QSize size : {QSize(1024, 700), QSize(1600, 1000)})
            shoot(directory, name, size);
    }
    return 0;
}
