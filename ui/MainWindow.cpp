#include "MainWindow.h"

#include "BrokerClient.h"
#include "MessageBar.h"
#include "MessageDetailPanel.h"
#include "MessageListPanel.h"
#include "NamespaceTreePanel.h"

#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QPointer>
#include <QSettings>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QThread>
#include <QThreadPool>
#include <QVBoxLayout>

namespace hourglass::ui {

namespace {
constexpr int kMaxRecent = 8;
const QString kRecentKey = QStringLiteral("recentDatabases");

QLabel* placeholder(const QString& text, QWidget* parent) {
    auto* label = new QLabel(text, parent);
    label->setAlignment(Qt::AlignCenter);
    label->setEnabled(false);
    return label;
}
} // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent)
    , m_messageBar(new MessageBar)
    , m_splitter(new QSplitter(Qt::Horizontal))
    , m_rightSplitter(new QSplitter(Qt::Vertical))
    , m_treeSlot(new QStackedWidget)
    , m_messagesSlot(new QStackedWidget)
    , m_databaseLabel(new QLabel) {
    setObjectName(QStringLiteral("mainWindow"));
    setWindowTitle(tr("Hourglass"));
    m_splitter->setObjectName(QStringLiteral("mainSplitter"));
    m_treeSlot->addWidget(placeholder(tr("No database open"), m_treeSlot));
    m_messagesSlot->addWidget(
        placeholder(tr("Select a queue, a subscription or a dead-letter queue"), m_messagesSlot));
    m_rightSplitter->setObjectName(QStringLiteral("messageSplitter"));
    m_rightSplitter->addWidget(m_messagesSlot);
    m_rightSplitter->setChildrenCollapsible(false);
    m_splitter->addWidget(m_treeSlot);
    m_splitter->addWidget(m_rightSplitter);
    m_splitter->setStretchFactor(0, 2);
    m_splitter->setStretchFactor(1, 5);
    m_splitter->setChildrenCollapsible(false);

    auto* central = new QWidget;
    auto* layout = new QVBoxLayout(central);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_messageBar);
    layout->addWidget(m_splitter, 1);
    setCentralWidget(central);
    m_databaseLabel->setObjectName(QStringLiteral("databaseLabel"));
    statusBar()->addPermanentWidget(m_databaseLabel);
    buildMenus();
    resize(1280, 760);
    restoreLayout();
}

MainWindow::~MainWindow() {
    // Panels hold the client; let them go before it does.
    delete m_tree;
    delete m_messages;
    delete m_detail;
}

void MainWindow::buildMenus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* create = file->addAction(tr("&New database…"), this, [this] { chooseDatabase(true); });
    create->setShortcut(QKeySequence::New);
    QAction* open = file->addAction(tr("&Open database…"), this, [this] { chooseDatabase(false); });
    open->setShortcut(QKeySequence::Open);
    m_recentMenu = file->addMenu(tr("Open &recent"));
    refreshRecentMenu();
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);
}

void MainWindow::setClient(std::unique_ptr<BrokerClient> client) {
    delete m_tree;
    delete m_messages;
    delete m_detail;
    m_tree = nullptr;
    m_messages = nullptr;
    m_detail = nullptr;
    m_client = std::move(client);
    if (!m_client)
        return;
    m_tree = new NamespaceTreePanel(*m_client);
    m_messages = new MessageListPanel(*m_client);
    m_treeSlot->addWidget(m_tree);
    m_treeSlot->setCurrentWidget(m_tree);
    m_messagesSlot->addWidget(m_messages);
    m_detail = new MessageDetailPanel(*m_client);
    m_rightSplitter->addWidget(m_detail);
    // The list and the detail below it share the height.
    if (!m_rightSplitter->restoreState(m_messageSplitterState))
        m_rightSplitter->setSizes({height() / 2, height() / 2});
    connect(m_messages, &MessageListPanel::messageSelected, m_detail,
            &MessageDetailPanel::showMessage);
    connect(m_tree, &NamespaceTreePanel::entitySelected, this,
            [this](const QString& path, EntityKind kind, bool) {
                m_detail->clear();
                if (kind == EntityKind::Topic) {
                    m_messagesSlot->setCurrentIndex(0);
                    return;
                }
                m_messages->setPath(path);
                m_messagesSlot->setCurrentWidget(m_messages);
            });
    connect(m_tree, &NamespaceTreePanel::noEntitySelected, this, [this] {
        m_detail->clear();
        m_messagesSlot->setCurrentIndex(0);
    });
    const QString path = m_client->databasePath();
    m_databaseLabel->setText(QDir::toNativeSeparators(path));
    setWindowTitle(tr("%1 — Hourglass").arg(QFileInfo(path).fileName()));
    rememberRecent(path);
}

void MainWindow::openDatabase(const QString& path) {
    // Opening reads the whole database into the engine's index (about half a second for a
    // million messages): never on the GUI thread.
    m_databaseLabel->setText(tr("Opening %1…").arg(QDir::toNativeSeparators(path)));
    QPointer<MainWindow> self(this);
    QThread* gui = thread();
    QThreadPool::globalInstance()->start([self, path, gui] {
        BrokerOptions options;
        options.databasePath = path;
        auto opened = std::make_shared<Result<std::unique_ptr<Broker>>>(Broker::open(options));
        // The change feed belongs to the thread that opened the broker; hand it to the GUI's.
        if (*opened)
            (*opened)->get()->changes()->moveToThread(gui);
        QMetaObject::invokeMethod(
            qApp,
            [self, path, opened] {
                if (self)
                    self->finishOpening(path, std::move(*opened));
            },
            Qt::QueuedConnection);
    });
}

void MainWindow::finishOpening(const QString& path, Result<std::unique_ptr<Broker>> opened) {
    if (!opened) {
        m_databaseLabel->setText(m_client ? QDir::toNativeSeparators(m_client->databasePath())
                                          : QString());
        m_messageBar->showError(opened.error(), tr("Cannot open %1").arg(path));
        emit databaseFailed(path);
        return;
    }
    setClient(std::make_unique<BrokerClient>(std::move(opened).value()));
    m_messageBar->hide();
    emit databaseOpened(path);
}

void MainWindow::chooseDatabase(bool create) {
    const QString filter = tr("Hourglass databases (*.db *.sqlite);;All files (*)");
    const QString path = create
                             ? QFileDialog::getSaveFileName(this, tr("New database"), {}, filter)
                             : QFileDialog::getOpenFileName(this, tr("Open database"), {}, filter);
    if (!path.isEmpty())
        openDatabase(path);
}

void MainWindow::rememberRecent(const QString& path) {
    QSettings settings;
    QStringList recent = settings.value(kRecentKey).toStringList();
    recent.removeAll(path);
    recent.prepend(path);
    while (recent.size() > kMaxRecent)
        recent.removeLast();
    settings.setValue(kRecentKey, recent);
    refreshRecentMenu();
}

void MainWindow::refreshRecentMenu() {
    m_recentMenu->clear();
    const QStringList recent = QSettings().value(kRecentKey).toStringList();
    for (const QString& path : recent)
        m_recentMenu->addAction(QDir::toNativeSeparators(path), this,
                                [this, path] { openDatabase(path); });
    m_recentMenu->setEnabled(!recent.isEmpty());
}

void MainWindow::restoreLayout() {
    QSettings settings;
    restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    // First start: room for the tree's count columns, the rest for the messages.
    if (!m_splitter->restoreState(settings.value(QStringLiteral("window/splitter")).toByteArray()))
        m_splitter->setSizes({560, 720});
    m_messageSplitterState = settings.value(QStringLiteral("window/messageSplitter")).toByteArray();
}

void MainWindow::saveLayout() {
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/splitter"), m_splitter->saveState());
    settings.setValue(QStringLiteral("window/messageSplitter"), m_rightSplitter->saveState());
}

void MainWindow::closeEvent(QCloseEvent* event) {
    saveLayout();
    event->accept();
}

} // namespace hourglass::ui
