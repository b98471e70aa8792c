// The action registry: a command found by its owner and id, whatever its object name; another
// owner's, an unknown id, and a command whose owner or action is gone are not found.
#include "common/ActionRegistry.h"

#include <QAction>
#include <QTest>
#include <QWidget>

#include <memory>

using namespace hourglass::ui;

class TestUiActionRegistry : public QObject {
    Q_OBJECT
private slots:
    void findsTheOwnersCommandById() {
        QWidget panel;
        QWidget other;
        auto* move = new QAction(QStringLiteral("Move to…"), &panel);
        move->setObjectName(QStringLiteral("anyName"));
        actions::add(&panel, QStringLiteral("messages.moveTo"), move);
        QCOMPARE(actions::find(&panel, QStringLiteral("messages.moveTo")), move);
        QCOMPARE(actions::find(&panel, QStringLiteral("messages.copyTo")), nullptr);
        QCOMPARE(actions::find(&other, QStringLiteral("messages.moveTo")), nullptr);

        // The same id registered again: the new action is the command.
        auto* again = new QAction(QStringLiteral("Move to…"), &panel);
        actions::add(&panel, QStringLiteral("messages.moveTo"), again);
        QCOMPARE(actions::find(&panel, QStringLiteral("messages.moveTo")), again);
    }

    void forgetsACommandWhoseActionIsGone() {
        QWidget panel;
        auto* copy = new QAction(QStringLiteral("Copy to…"), &panel);
        actions::add(&panel, QStringLiteral("messages.copyTo"), copy);
        delete copy;
        QCOMPARE(actions::find(&panel, QStringLiteral("messages.copyTo")), nullptr);
    }

    void forgetsTheCommandsOfAnOwnerThatIsGone() {
        QAction move(QStringLiteral("Move to…"));
        auto panel = std::make_unique<QWidget>();
        const QObject* address = panel.get();
        actions::add(panel.get(), QStringLiteral("messages.moveTo"), &move);
        panel.reset();
        // An object made later at the same address must not inherit the command.
        QCOMPARE(actions::find(address, QStringLiteral("messages.moveTo")), nullptr);
    }
};

QTEST_MAIN(TestUiActionRegistry)
#include "tst_ui_action_registry.moc"
