#pragma once
// The steps the window's tests on remote namespaces share: finding a tree row and its count,
// the dialog a step opened, connecting through File > Connect to namespace…, answering the key
// prompt.

#include "WidgetSteps.h"
#include "namespaces/NamespaceHeader.h"
#include "tree/NamespaceTreeModel.h"
#include "tree/NamespaceTreePanel.h"
#include "window/MainWindow.h"
#include "window/RemoteNamespaceView.h"
#include "window/RemoteNamespaces.h"

#include <QAbstractButton>
#include <QApplication>
#include <QCheckBox>
#include <QDialog>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QToolButton>
#include <QTreeView>
#include <QtTest>

namespace namespaces_test {

using hourglass::testing::openDialog;
using hourglass::ui::MainWindow;
using hourglass::ui::NamespaceTreeModel;
using hourglass::ui::NamespaceTreePanel;
using hourglass::ui::RemoteNamespaceView;

inline QModelIndex findPath(QAbstractItemModel* model, const QString& path) {
    const QModelIndexList hits = model->match(model->index(0, 0), NamespaceTreeModel::PathRole,
                                              path, 1, Qt::MatchExactly | Qt::MatchRecursive);
    return hits.isEmpty() ? QModelIndex() : hits.first();
}

// The active count the tree shows for `path`, or -1 while it has no such row.
inline qint64 treeActive(NamespaceTreePanel* tree, const QString& path) {
    QAbstractItemModel* model = tree->view()->model();
    const QModelIndex row = findPath(model, path);
    if (!row.isValid())
        return -1;
    return model->index(row.row(), NamespaceTreeModel::ActiveColumn, row.parent())
        .data()
        .toLongLong();
}

// Opens a database of its own in `dir` in `window`, then shows it at `size`; true once open.
inline bool showWithDatabase(MainWindow& window, const QTemporaryDir& dir,
                             QSize size = QSize(1280, 800)) {
    QSignalSpy opened(&window, &MainWindow::databaseOpened);
    window.openDatabase(dir.filePath(QStringLiteral("local.db")));
    window.resize(size);
    window.show();
    return opened.wait(20000);
}

// Connects `view` (its key not in the keychain) and answers the key prompt with `key`.
inline bool answerKeyPrompt(RemoteNamespaceView* view, const QString& key) {
    view->findChild<QToolButton*>(QStringLiteral("namespaceConnect"))->click();
    QDialog* prompt = nullptr;
    if (!QTest::qWaitFor([&] { return (prompt = openDialog(QStringLiteral("keyPrompt"))); }, 10000))
        return false;
    if (!prompt->findChild<QLabel*>(QStringLiteral("keyPromptReason"))
             ->text()
             .contains(QStringLiteral("keychain")))
        return false;
    prompt->findChild<QLineEdit*>(QStringLiteral("keyField"))->setText(key);
    for (QAbstractButton* button : prompt->findChildren<QAbstractButton*>())
        if (button->text() == QStringLiteral("Connect") && button->isEnabled()) {
            button->click();
            return true;
        }
    return false;
}

// File > Connect to namespace… with `text` (and `caFile`, and AMQP over WebSockets when asked),
// saved as `name`: the view it opened, once connected (null when it did not connect).
inline RemoteNamespaceView* connectThroughDialog(MainWindow& window, const QString& text,
                                                 const QString& caFile, const QString& name,
                                                 bool webSockets = false) {
    window.findChild<QAction*>(QStringLiteral("connectNamespaceAction"))->trigger();
    QDialog* dialog = nullptr;
    if (!QTest::qWaitFor([&] { return (dialog = openDialog(QStringLiteral("connectDialog"))); },
                         5000))
        return nullptr;
    dialog->findChild<QLineEdit*>(QStringLiteral("connectionString"))->setText(text);
    dialog->findChild<QLineEdit*>(QStringLiteral("caFile"))->setText(caFile);
    dialog->findChild<QLineEdit*>(QStringLiteral("name"))->setText(name);
    if (webSockets)
        dialog->findChild<QCheckBox*>(QStringLiteral("webSockets"))->setChecked(true);
    auto* save = dialog->findChild<QAbstractButton*>(QStringLiteral("save"));
    if (!QTest::qWaitFor([&] { return save->isEnabled(); }, 5000))
        return nullptr;
    save->click();
    RemoteNamespaceView* view = nullptr;
    (void)QTest::qWaitFor(
        [&] {
            for (RemoteNamespaceView* shown : window.remotes()->views())
                if (shown->saved().name == name && shown->isConnected())
                    view = shown;
            return view != nullptr;
        },
        30000);
    return view;
}

// Selects `path` ("localhost:orders") in `view`'s tree once it is there; true once the window
// shows that namespace's workspace.
inline bool selectInRemote(MainWindow& window, RemoteNamespaceView* view, const QString& path) {
    QTreeView* tree = view->tree()->view();
    if (!QTest::qWaitFor([&] { return findPath(tree->model(), path).isValid(); }, 15000))
        return false;
    tree->setCurrentIndex(findPath(tree->model(), path));
    return QTest::qWaitFor([&] { return window.activeRemote() == view; }, 5000);
}

} // namespace namespaces_test
