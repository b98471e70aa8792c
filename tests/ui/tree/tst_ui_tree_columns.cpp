// The namespace tree's count columns: Active, Locked and Dead-lettered in view in the tree's
// starting width at 1280x800, and the columns hidden or reordered by the user remembered.
#include "ColumnsTestEnv.h"
#include "tree/NamespaceTreePanel.h"

#include <QTest>
#include <QTreeView>

using namespace hourglass;
using namespace hourglass::testing::columns;
using hourglass::ui::NamespaceTreeModel;
using hourglass::ui::NamespaceTreePanel;

namespace {
struct ShownTree {
    NamespaceTreePanel panel;
    explicit ShownTree(TransferEnv& env)
        : panel(*env.client) {
        panel.resize(kTreeWidth, kPanelHeight);
        panel.show();
        if (!QTest::qWaitFor([this] { return panel.model()->isLoaded(); }))
            qFatal("the tree never loaded");
    }
    QHeaderView* header() { return panel.view()->header(); }
};
} // namespace

class TestUiTreeColumns : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { isolateSettings(); }
    void init() { forgetColumns(); }

    void countsThatMatterAreInView_data() {
        QTest::addColumn<int>("width");
        QTest::newRow("1280x800") << kTreeWidth;
        QTest::newRow("1024x700") << kTreeWidth * 4 / 5; // the splitter keeps its proportions
    }
    void countsThatMatterAreInView() {
        QFETCH(int, width);
        TransferEnv env;
        ShownTree tree(env);
        tree.panel.resize(width, kPanelHeight);
        QTRY_VERIFY(tree.panel.model()->isLoaded());
        QHeaderView* header = tree.header();
        for (int column : {NamespaceTreeModel::ActiveColumn, NamespaceTreeModel::LockedColumn,
                           NamespaceTreeModel::DeadLetteredColumn})
            QVERIFY2(columnInView(header, column),
                     qPrintable(tree.panel.model()->headerData(column, Qt::Horizontal).toString()));
        // Dead-lettered (the longest title) is not cut, with room for the sort arrow.
        QVERIFY(header->sectionSize(NamespaceTreeModel::DeadLetteredColumn) >
                header->fontMetrics().horizontalAdvance(QStringLiteral("Dead-lettered")) + 16);
    }

    void countsStayInViewAfterTheUserMovesAColumnBeforeThem() {
        // Scheduled moved next to the name: the name gives up its width, the three counts that
        // matter still end in view.
        TransferEnv env;
        ShownTree tree(env);
        tree.panel.resize(kTreeWidth, kPanelHeight);
        QTRY_VERIFY(tree.panel.model()->isLoaded());
        QHeaderView* header = tree.header();
        header->moveSection(header->visualIndex(NamespaceTreeModel::ScheduledColumn), 1);
        tree.panel.resize(kTreeWidth - 10, kPanelHeight); // the next fit, as a splitter drag
        for (int column :
             {NamespaceTreeModel::ScheduledColumn, NamespaceTreeModel::ActiveColumn,
              NamespaceTreeModel::LockedColumn, NamespaceTreeModel::DeadLetteredColumn})
            QTRY_VERIFY2(
                columnInView(header, column),
                qPrintable(tree.panel.model()->headerData(column, Qt::Horizontal).toString()));
    }

    void hiddenAndMovedColumnsAreRemembered() {
        TransferEnv env;
        {
            ShownTree tree(env);
            QAction* scheduled = columnToggle(tree.header(), NamespaceTreeModel::ScheduledColumn);
            QVERIFY(scheduled && scheduled->isChecked());
            scheduled->trigger();
            QVERIFY(tree.header()->isSectionHidden(NamespaceTreeModel::ScheduledColumn));
            QVERIFY(!columnToggle(tree.header(), NamespaceTreeModel::NameColumn)); // always shown
            QHeaderView* header = tree.header();
            header->moveSection(header->visualIndex(NamespaceTreeModel::DeadLetteredColumn), 1);
        }
        ShownTree again(env);
        QVERIFY(again.header()->isSectionHidden(NamespaceTreeModel::ScheduledColumn));
        QCOMPARE(again.header()->visualIndex(NamespaceTreeModel::DeadLetteredColumn), 1);
        headerCommand(again.header(), QStringLiteral("resetColumns"))->trigger();
        QVERIFY(!again.header()->isSectionHidden(NamespaceTreeModel::ScheduledColumn));
        QCOMPARE(again.header()->visualIndex(NamespaceTreeModel::ActiveColumn), 1);
    }
};

QTEST_MAIN(TestUiTreeColumns)
#include "tst_ui_tree_columns.moc"
