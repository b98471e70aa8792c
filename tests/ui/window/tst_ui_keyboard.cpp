// The real window driven from the keyboard only, as a user without a mouse would: Alt+1..6 put
// the focus in the tab's list, Tab walks the Receive & settle panel in the order of the work
// (never from the count into the deferred sequence number), the held locks take the settle keys
// on their current row, and Help > Keyboard shortcuts fits the screen with every line readable.
// With HOURGLASS_SCREENSHOTS set, the states are saved there as PNGs (how they were looked at).

#include "ClientCall.h"
#include "LocksTestEnv.h"
#include "common/Theme.h"
#include "settle/SettleDialog.h"
#include "window/EntityWorkspace.h"
#include "window/MainWindow.h"

#include <QAbstractItemView>
#include <QApplication>
#include <QClipboard>
#include <QDialog>
#include <QHeaderView>
#include <QScreen>
#include <QScrollBar>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTest>
#include <QTreeView>

using namespace hourglass;
using namespace hourglass::ui;

namespace {

QModelIndex findPath(const QAbstractItemModel* model, const QString& path) {
    const QModelIndexList found = model->match(model->index(0, 0), NamespaceTreeModel::PathRole,
                                               path, 1, Qt::MatchExactly | Qt::MatchRecursive);
    return found.isEmpty() ? QModelIndex() : found.first();
}

// The object name of the focus widget, or of its nearest named ancestor (a combo box's line
// edit, a spin box's), as a test reads it.
QString focusName() {
    for (QWidget* widget = QApplication::focusWidget(); widget; widget = widget->parentWidget())
        if (!widget->objectName().isEmpty() && !widget->objectName().startsWith(u"qt_"))
            return widget->objectName();
    return QString();
}

void saveScreenshot(QWidget* widget, const QString& name) {
    const QString dir = qEnvironmentVariable("HOURGLASS_SCREENSHOTS");
    if (!dir.isEmpty())
        widget->grab().save(dir + QLatin1Char('/') + name + QStringLiteral(".png"));
}

// The window on queue "test:q" holding `messages` messages, shown, active, the queue selected.
struct KeyboardWindow {
    testing::LocksTestEnv env;
    BrokerClient* client = nullptr;
    MainWindow window;

    explicit KeyboardWindow(int messages) {
        for (int i = 0; i < messages; ++i)
            env.send(QStringLiteral("m%1").arg(i + 1));
        client = env.client.get();
        window.setClient(std::move(env.client));
        const QString size = qEnvironmentVariable("HOURGLASS_WINDOW_SIZE", "1024x700");
        window.resize(size.section(u'x', 0, 0).toInt(), size.section(u'x', 1, 1).toInt());
        window.show();
        QApplication::setActiveWindow(&window);
    }
    bool selectQueue() {
        if (!QTest::qWaitForWindowActive(&window))
            return false;
        auto* tree = window.findChild<QTreeView*>(QStringLiteral("namespaceTree"));
        if (!QTest::qWaitFor([&] { return findPath(tree->model(), "test:q").isValid(); }))
            return false;
        tree->setCurrentIndex(findPath(tree->model(), QStringLiteral("test:q")));
        tree->setFocus(Qt::OtherFocusReason);
        return QTest::qWaitFor([&] { return list("messageList")->model()->rowCount() > 0; });
    }
    template <typename T = QWidget> T* find(const QString& name) {
        return window.findChild<T*>(name);
    }
    QTableView* list(const QString& name) { return find<QTableView>(name); }
    void key(int key, Qt::KeyboardModifiers modifiers = Qt::NoModifier) {
        QWidget* target = QApplication::focusWidget();
        QTest::keyClick(target ? target : &window, Qt::Key(key), modifiers);
    }
    Result<MessageView> message(qint64 sequenceNumber) {
        return testing::callAndWait(*client, [sequenceNumber](Broker& b) {
            return b.message(QStringLiteral("test:q"), sequenceNumber);
        });
    }
};

} // namespace

class TestUiKeyboard : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("hourglass-tests"));
        const QString theme = qEnvironmentVariable("HOURGLASS_THEME");
        if (!theme.isEmpty())
            applyTheme(themeChoiceFromName(theme));
    }

    // Alt+N shows the tab and puts the focus on its list, so that the arrow keys work at once.
    void altDigitsFocusTheTabsList() {
        KeyboardWindow w(3);
        QVERIFY(w.selectQueue());
        auto* tabs = w.find<QTabWidget>(QStringLiteral("entityTabs"));
        w.key(Qt::Key_3, Qt::AltModifier);
        QCOMPARE(tabs->currentIndex(), int(EntityWorkspace::ReceiveTab));
        // No lock held yet: the receiver, the first field.
        QCOMPARE(focusName(), QStringLiteral("lockReceiver"));
        w.key(Qt::Key_1, Qt::AltModifier);
        QCOMPARE(tabs->currentIndex(), int(EntityWorkspace::MessagesTab));
        QTableView* messages = w.list(QStringLiteral("messageList"));
        QCOMPARE(QApplication::focusWidget(), messages);
        const int before = messages->currentIndex().row();
        w.key(Qt::Key_Down);
        QCOMPARE(messages->currentIndex().row(), before + 1);
        QVERIFY(messages->selectionModel()->isRowSelected(before + 1, {}));

        w.key(Qt::Key_R, Qt::ControlModifier); // not the list's: the focus stays put
        QCOMPARE(QApplication::focusWidget(), messages);
        w.key(Qt::Key_3, Qt::AltModifier);
        QCOMPARE(focusName(), QStringLiteral("lockReceiver"));
        w.key(Qt::Key_R, Qt::ControlModifier);
        QTRY_COMPARE(w.list(QStringLiteral("lockList"))->model()->rowCount(), 1);
        w.key(Qt::Key_1, Qt::AltModifier);
        w.key(Qt::Key_3, Qt::AltModifier);
        QCOMPARE(QApplication::focusWidget(), w.list(QStringLiteral("lockList")));
        saveScreenshot(&w.window, QStringLiteral("alt3-lock-list"));

        // Every other tab gets the focus inside it (its list or first field).
        for (int tab : {int(EntityWorkspace::PeekTab), int(EntityWorkspace::DeadLettersTab),
                        int(EntityWorkspace::ChartsTab)}) {
            w.key(Qt::Key_1 + tab, Qt::AltModifier);
            QCOMPARE(tabs->currentIndex(), tab);
            QVERIFY2(tabs->widget(tab)->isAncestorOf(QApplication::focusWidget()),
                     qPrintable(QStringLiteral("tab %1: %2").arg(tab).arg(focusName())));
        }
        w.key(Qt::Key_2, Qt::AltModifier);
        QCOMPARE(focusName(), QStringLiteral("peekFrom"));
        // From the tree too; an empty dead-letter queue has nothing to focus but its panel.
        w.find(QStringLiteral("namespaceTree"))->setFocus(Qt::OtherFocusReason);
        w.key(Qt::Key_4, Qt::AltModifier);
        QCOMPARE(QApplication::focusWidget(), tabs->widget(EntityWorkspace::DeadLettersTab));
        w.key(Qt::Key_5, Qt::AltModifier);
        QCOMPARE(focusName(), QStringLiteral("chartsScroll")); // the arrow keys scroll it
    }

    // Tab from the count goes to Receive (Space receives), then to the held locks, the settle
    // buttons, and only then the deferred sequence number with its own Receive deferred.
    void tabWalksTheReceivePanelInTheOrderOfTheWork() {
        KeyboardWindow w(2);
        QVERIFY(w.selectQueue());
        w.find<QTabWidget>(QStringLiteral("entityTabs"))
            ->setCurrentIndex(EntityWorkspace::ReceiveTab);
        w.find(QStringLiteral("lockReceiver"))->setFocus(Qt::TabFocusReason);
        w.key(Qt::Key_Tab);
        QCOMPARE(focusName(), QStringLiteral("lockMode"));
        w.key(Qt::Key_Tab);
        QCOMPARE(focusName(), QStringLiteral("lockCount"));
        w.key(Qt::Key_Up); // 2 messages
        w.key(Qt::Key_Tab);
        QCOMPARE(focusName(), QStringLiteral("lockReceive"));
        saveScreenshot(&w.window, QStringLiteral("tab-receive-button"));
        w.key(Qt::Key_Space);
        QTableView* locks = w.list(QStringLiteral("lockList"));
        QTRY_COMPARE(locks->model()->rowCount(), 2);
        w.key(Qt::Key_Tab);
        QCOMPARE(QApplication::focusWidget(), locks);
        // Tab leaves the table (it does not walk its cells).
        const QStringList after{
            "lockComplete", "lockAbandon", "lockDeadLetter",  "lockDefer",     "lockRenew",
            "lockClear",    "deferredSeq", "receiveDeferred", "lockAutoRenew", "lockAutoRenewFor"};
        for (const QString& name : after) {
            w.key(Qt::Key_Tab);
            QCOMPARE(focusName(), name);
        }
        w.key(Qt::Key_Backtab);
        w.key(Qt::Key_Backtab);
        w.key(Qt::Key_Backtab);
        QCOMPARE(focusName(), QStringLiteral("deferredSeq"));
        w.key(Qt::Key_Backtab);
        QCOMPARE(focusName(), QStringLiteral("lockClear"));
    }

    // The held locks take Ctrl+Return, Ctrl+B, Ctrl+L and Ctrl+C on the row the focus is on,
    // selected or not (tabbing into a table makes its first row current without selecting it).
    void heldLocksTakeTheSettleKeysOnTheirCurrentRow() {
        KeyboardWindow w(4);
        QVERIFY(w.selectQueue());
        w.find<QTabWidget>(QStringLiteral("entityTabs"))
            ->setCurrentIndex(EntityWorkspace::ReceiveTab);
        auto* count = w.find<QSpinBox>(QStringLiteral("lockCount"));
        count->setValue(4);
        count->setFocus(Qt::TabFocusReason);
        w.key(Qt::Key_R, Qt::ControlModifier);
        QTableView* locks = w.list(QStringLiteral("lockList"));
        QTRY_COMPARE(locks->model()->rowCount(), 4);
        // Tab arrives in the table (the order there: tabWalksTheReceivePanelInTheOrderOfTheWork).
        locks->setFocus(Qt::TabFocusReason);
        // Reached by Tab, the table selects its first row: the detail shows it.
        QCOMPARE(locks->currentIndex().row(), 0);
        QVERIFY(locks->selectionModel()->isRowSelected(0, {}));

        w.key(Qt::Key_Return, Qt::ControlModifier); // complete #1
        QTRY_COMPARE(locks->model()->rowCount(), 3);
        QCOMPARE(w.message(1).error().code, ErrorCode::MessageNotFound);
        QCOMPARE(QApplication::focusWidget(), locks);
        // The focus frame moved to #2 without selecting it: the keys act on it all the same.
        QTRY_COMPARE(locks->currentIndex().row(), 0);
        QVERIFY(!locks->selectionModel()->hasSelection());
        w.key(Qt::Key_C, Qt::ControlModifier);
        QCOMPARE(QApplication::clipboard()->text(), QStringLiteral("m2"));

        w.key(Qt::Key_B, Qt::ControlModifier); // abandon #2, through its dialog
        SettleDialog* dialog = nullptr;
        QTRY_VERIFY((dialog = w.window.findChild<SettleDialog*>(QStringLiteral("settleDialog"))));
        QTRY_VERIFY(dialog->isVisible());
        saveScreenshot(dialog, QStringLiteral("ctrl-b-abandon-dialog"));
        QTest::keyClick(dialog, Qt::Key_Return);
        QTRY_COMPARE(locks->model()->rowCount(), 2);
        // The window system gives the window back its activation when the dialog closes.
        QTRY_VERIFY(
            !w.window.findChild<SettleDialog*>(QStringLiteral("settleDialog")) ||
            !w.window.findChild<SettleDialog*>(QStringLiteral("settleDialog"))->isVisible());
        QApplication::setActiveWindow(&w.window);
        const auto abandoned = w.message(2);
        QVERIFY(abandoned.ok());
        QVERIFY(!abandoned->locked);
        QCOMPARE(abandoned->deliveryCount, 1u);

        locks->setFocus(Qt::OtherFocusReason);
        locks->setCurrentIndex(locks->model()->index(1, 1)); // #4
        locks->selectionModel()->clearSelection();
        const Instant before = w.message(4)->lockedUntil;
        w.env.clock->advance(seconds(10));
        w.key(Qt::Key_L, Qt::ControlModifier); // renew #4 only
        QTRY_VERIFY(w.message(4)->lockedUntil > before);
        QCOMPARE(locks->model()->rowCount(), 2);
        saveScreenshot(&w.window, QStringLiteral("lock-list-after-keys"));
    }

    // Help > Keyboard shortcuts: as wide as its columns' texts, no taller than the screen, and
    // the last line reachable by scrolling.
    void shortcutsDialogFitsTheScreenAndItsText() {
        KeyboardWindow w(1);
        QVERIFY(w.selectQueue());
        QDialog* dialog = w.window.openShortcutsDialog();
        QVERIFY(QTest::qWaitForWindowExposed(dialog));
        auto* table = dialog->findChild<QTableWidget*>(QStringLiteral("shortcutsTable"));
        QVERIFY(table->rowCount() > 20);
        const QRect screen = w.window.screen()->availableGeometry();
        QVERIFY2(dialog->frameGeometry().height() <= screen.height(),
                 qPrintable(QStringLiteral("%1 > %2")
                                .arg(dialog->frameGeometry().height())
                                .arg(screen.height())));
        QVERIFY(dialog->frameGeometry().width() <= screen.width());
        // Each column shows its longest text whole, without scrolling sideways, and the dialog
        // is not much wider than its columns.
        const QAbstractItemView* view = table;
        int textWidth = 0;
        for (int column = 0; column < table->columnCount(); ++column) {
            QVERIFY2(table->columnWidth(column) >= view->sizeHintForColumn(column),
                     qPrintable(QString::number(column)));
            textWidth += view->sizeHintForColumn(column);
        }
        QCOMPARE(table->horizontalScrollBar()->maximum(), 0);
        QVERIFY2(dialog->width() <= textWidth + 120,
                 qPrintable(QStringLiteral("%1 for %2").arg(dialog->width()).arg(textWidth)));
        saveScreenshot(dialog, QStringLiteral("shortcuts-dialog"));
        // The last line is reachable: scroll there and it is wholly in view.
        table->setFocus();
        QTest::keyClick(table, Qt::Key_End, Qt::ControlModifier);
        const QRect last = table->visualRect(table->model()->index(table->rowCount() - 1, 1));
        QVERIFY(table->viewport()->rect().contains(last));
        saveScreenshot(dialog, QStringLiteral("shortcuts-dialog-end"));
        // The settle keys of the held locks are listed with the copy key they now take.
        bool copyListed = false;
        for (int row = 0; row < table->rowCount(); ++row)
            copyListed |= table->item(row, 0)->text() == QStringLiteral("Receive and settle") &&
                          table->item(row, 1)->text() == QStringLiteral("Copy message id");
        QVERIFY(copyListed);
    }
};

QTEST_MAIN(TestUiKeyboard)
#include "tst_ui_keyboard.moc"
