#include "RemoteWindowFigures.h"

#include "BenchSupport.h"
#include "RemoteWindowSteps.h"

#include "messages/MessageListModel.h"
#include "messages/MessageListPanel.h"
#include "window/EntityWorkspace.h"

#include <QTableView>

namespace hourglass::bench {

using namespace namespaces_test;
using ui::NamespaceTreeModel;

namespace {

const QString kName = QStringLiteral("Bench namespace");

// Counts the paints of a widget, so that "painted" can be waited for.
class PaintCounter : public QObject {
public:
    int paints = 0;
    bool eventFilter(QObject*, QEvent* event) override {
        if (event->type() == QEvent::Paint)
            ++paints;
        return false;
    }
};

// The queues, topics and subscriptions the tree shows under `parent`, at any depth.
int entityRows(const QAbstractItemModel* model, const QModelIndex& parent = {}) {
    int count = 0;
    for (int row = 0; row < model->rowCount(parent); ++row) {
        const QModelIndex index = model->index(row, 0, parent);
        const auto kind =
            NamespaceTreeModel::NodeKind(index.data(NamespaceTreeModel::KindRole).toInt());
        if (kind == NamespaceTreeModel::NodeKind::Queue ||
            kind == NamespaceTreeModel::NodeKind::Topic ||
            kind == NamespaceTreeModel::NodeKind::Subscription)
            ++count;
        count += entityRows(model, index);
    }
    return count;
}

} // namespace

RemoteWindowFigures::RemoteWindowFigures()
    : m_window(std::make_unique<ui::MainWindow>()) {
    bool opened = false;
    QObject::connect(m_window.get(), &ui::MainWindow::databaseOpened, [&opened] { opened = true; });
    m_probe.reset();
    m_window->openDatabase(m_dir.filePath(QStringLiteral("local.db")));
    m_window->resize(1280, 800);
    m_window->show();
    m_probe.waitUntil([&] { return opened; }, QStringLiteral("the window's own database"));
    m_localOpening = {QStringLiteral("opening the window's own database"), m_probe.stretch()};
    QObject::disconnect(m_window.get(), &ui::MainWindow::databaseOpened, nullptr, nullptr);
}

RemoteWindowFigures::~RemoteWindowFigures() = default;

RemoteWindowFigures::Opening RemoteWindowFigures::open(const QString& connection, int entities,
                                                       const QString& queue, qint64 messages) {
    m_window->findChild<QAction*>(QStringLiteral("connectNamespaceAction"))->trigger();
    QDialog* dialog = nullptr;
    m_probe.waitUntil([&] { return (dialog = openDialog(QStringLiteral("connectDialog"))); },
                      QStringLiteral("the Connect dialog"));
    dialog->findChild<QLineEdit*>(QStringLiteral("connectionString"))->setText(connection);
    dialog->findChild<QLineEdit*>(QStringLiteral("name"))->setText(kName);
    auto* save = dialog->findChild<QAbstractButton*>(QStringLiteral("save"));
    m_probe.waitUntil([&] { return save->isEnabled(); }, QStringLiteral("Save to be enabled"));

    Opening opening;
    m_probe.reset();
    QElapsedTimer timer;
    timer.start();
    save->click();
    m_probe.waitUntil(
        [&] {
            for (ui::RemoteNamespaceView* shown : m_window->remotes()->views())
                if (shown->saved().name == kName && shown->isConnected())
                    m_view = shown;
            return m_view != nullptr;
        },
        QStringLiteral("the namespace to open"));
    opening.connectedMs = double(timer.nsecsElapsed()) / 1e6;
    const QString queuePath = QStringLiteral("localhost:") + queue;
    QAbstractItemModel* tree = m_view->tree()->view()->model();
    m_probe.waitUntil(
        [&] {
            return treeActive(m_view->tree(), queuePath) == messages &&
                   entityRows(tree) >= entities;
        },
        QStringLiteral("the tree's entities and counts"));
    opening.treeMs = double(timer.nsecsElapsed()) / 1e6;
    opening.busy = {QStringLiteral("opening"), m_probe.stretch()};
    return opening;
}

RemoteWindowFigures::Paging RemoteWindowFigures::pageThrough(const QString& queue,
                                                             const QString& other, int rows) {
    QTreeView* tree = m_view->tree()->view();
    const QString queuePath = QStringLiteral("localhost:") + queue;
    tree->setCurrentIndex(findPath(tree->model(), QStringLiteral("localhost:") + other));
    ui::EntityWorkspace* workspace = m_view->workspace();
    workspace->showTab(ui::EntityWorkspace::MessagesTab);
    ui::MessageListModel* model = workspace->messages()->model();
    QTableView* view = workspace->messages()->view();
    m_probe.waitUntil(
        [&] {
            return model->path() == QStringLiteral("localhost:") + other && model->isIndexLoaded();
        },
        QStringLiteral("the other list"));
    PaintCounter paints;
    view->viewport()->installEventFilter(&paints);

    Paging paging;
    m_probe.reset();
    QElapsedTimer timer;
    timer.start();
    tree->setCurrentIndex(findPath(tree->model(), queuePath));
    int paintsBefore = -1; // the paints counted when the first rows came
    m_probe.waitUntil(
        [&] {
            if (paintsBefore < 0) {
                if (model->path() != queuePath || !model->isRowLoaded(0))
                    return false;
                // Only a paint after the rows came counts; the view has one scheduled already
                // (rows inserted), this makes sure of it as gui_bench does.
                paintsBefore = paints.paints;
                view->viewport()->update();
            }
            return paints.paints > paintsBefore;
        },
        QStringLiteral("the first page painted"));
    paging.firstPaintMs = double(timer.nsecsElapsed()) / 1e6;

    // Down to the end of what is read as soon as the rows grow (as a user dragging the scroll
    // bar down keeps doing): the view asks for the next page (fetchMore) when it reaches the end.
    auto toTheEnd = [&] {
        if (model->rowCount() >= rows)
            return;
        view->scrollToBottom();
        if (model->canFetchMore())
            model->fetchMore(); // nothing when the view asked already
    };
    const QMetaObject::Connection grown = QObject::connect(model, &QAbstractItemModel::rowsInserted,
                                                           view, toTheEnd, Qt::QueuedConnection);
    toTheEnd();
    m_probe.waitUntil([&] { return model->rowCount() >= rows; }, QStringLiteral("the list's rows"),
                      600);
    QObject::disconnect(grown);
    paging.allRowsMs = double(timer.nsecsElapsed()) / 1e6;
    paging.pages = model->loadedPageCount();
    paging.busy = {QStringLiteral("paging"), m_probe.stretch()};
    view->viewport()->removeEventFilter(&paints);
    return paging;
}

} // namespace hourglass::bench
