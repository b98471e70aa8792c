// Entity management in the explorer, the actions: deletion behind a confirmation, enabling by
// selection, an emulator config.json export/import round trip, and the tree panel's selection
// and shortcuts. The rules (R2-R5) are in tst_ui_entity_rules.cpp.

#include "EntitiesTestEnv.h"
#include "tree/NamespaceTreePanel.h"

#include <QApplication>
#include <QFile>
#include <QItemSelectionModel>
#include <QJsonDocument>
#include <QLabel>
#include <QMessageBox>
#include <QPointer>
#include <QPushButton>
#include <QSignalSpy>
#include <QTimer>
#include <QTreeView>

using namespace hourglass;
using namespace hourglass::ui;
using hourglass::testing::EntitiesEnv;
using NodeKind = NamespaceTreeModel::NodeKind;

class TestUiEntityActions : public QObject {
    Q_OBJECT
private slots:
    void delete_confirmationCancelKeepsAcceptDeletes();
    void actions_followSelection();
    void config_exportImportRoundTrip();
    void config_importAsksWhichNamespace();
    void treePanel_selectionAndShortcuts();
};

void TestUiEntityActions::delete_confirmationCancelKeepsAcceptDeletes() {
    EntitiesEnv env;
    QVERIFY(env.call([](Broker& b) {
                   return b.send(QStringLiteral("test:q"), testing::TestBroker::message("a"));
               })
                .ok());
    QVERIFY(env.call([](Broker& b) {
                   return b.send(QStringLiteral("test:q"), testing::TestBroker::message("b"));
               })
                .ok());
    env.actions->setSelection(QStringLiteral("test:q"), NodeKind::Queue);
    QCOMPARE(env.actions->deleteAction()->shortcut(), QKeySequence(QKeySequence::Delete));

    env.actions->deleteAction()->trigger();
    QPointer<QMessageBox> box;
    QTRY_VERIFY((box = env.find<QMessageBox>(QStringLiteral("confirmDelete"))));
    QVERIFY2(box->text().contains(QStringLiteral("'test:q' and its 2 messages")),
             qPrintable(box->text()));
    QTest::mouseClick(box->button(QMessageBox::Cancel), Qt::LeftButton);
    QTRY_VERIFY(box.isNull());
    env.client->waitForIdle();
    QVERIFY(env.entity(QStringLiteral("test:q")).ok());

    QSignalSpy status(env.actions.get(), &EntityActions::statusMessage);
    env.actions->deleteAction()->trigger();
    QTRY_VERIFY((box = env.find<QMessageBox>(QStringLiteral("confirmDelete"))));
    QTest::mouseClick(box->button(QMessageBox::Ok), Qt::LeftButton);
    QTRY_COMPARE(status.count(), 1);
    QCOMPARE(env.entity(QStringLiteral("test:q")).error().code, ErrorCode::MessagingEntityNotFound);
}

void TestUiEntityActions::actions_followSelection() {
    EntitiesEnv env;
    EntityActions& a = *env.actions;
    a.setSelection({}, NodeKind::Namespace);
    QVERIFY(a.newNamespaceAction()->isEnabled() && a.importAction()->isEnabled());
    for (QAction* action : {a.newQueueAction(), a.newTopicAction(), a.newSubscriptionAction(),
                            a.editAction(), a.rulesAction(), a.deleteAction(), a.exportAction()})
        QVERIFY2(!action->isEnabled(), qPrintable(action->text()));
    QCOMPARE(a.newQueueAction()->shortcut(), QKeySequence(QStringLiteral("Ctrl+Shift+N")));

    a.setSelection(QStringLiteral("test:events"), NodeKind::Topic);
    QVERIFY(a.newSubscriptionAction()->isEnabled() && a.editAction()->isEnabled());
    QVERIFY(!a.rulesAction()->isEnabled());
    a.setSelection(QStringLiteral("test:events/Subscriptions/audit"), NodeKind::Subscription);
    QVERIFY(a.rulesAction()->isEnabled() && a.newSubscriptionAction()->isEnabled());
    a.setSelection(QStringLiteral("test:q/$deadletterqueue"), NodeKind::DeadLetterQueue);
    QVERIFY(!a.editAction()->isEnabled() && !a.deleteAction()->isEnabled());
    QVERIFY(a.newQueueAction()->isEnabled() && a.exportAction()->isEnabled());
    a.setSelection(QStringLiteral("test"), NodeKind::Namespace);
    QVERIFY(a.deleteAction()->isEnabled() && !a.editAction()->isEnabled());
    QCOMPARE(a.actions().size(), 9);
}

void TestUiEntityActions::config_exportImportRoundTrip() {
    EntitiesEnv source;
    const auto setUp = source.call([](Broker& b) -> Result<void> {
        EntityProperties p = EntityProperties::defaults(Tier::Standard);
        p.lockDuration = seconds(20);
        p.maxDeliveryCount = 4;
        p.forwardDeadLetteredMessagesTo = QStringLiteral("q");
        if (auto r = b.createQueue(QStringLiteral("test:orders"), p); !r)
            return r.error();
        if (auto r = b.createTopic(QStringLiteral("test:events"),
                                   EntityProperties::defaults(Tier::Standard));
            !r)
            return r.error();
        Rule red;
        red.name = QStringLiteral("red");
        red.filterType = FilterType::Correlation;
        red.correlation.subject = QStringLiteral("order");
        red.correlation.properties.insert(QStringLiteral("color"), QStringLiteral("red"));
        if (auto r = b.createSubscription(QStringLiteral("test:events/Subscriptions/audit"),
                                          EntityProperties::defaults(Tier::Standard), {red});
            !r)
            return r.error();
        return {};
    });
    QVERIFY(setUp.ok());
    const QString file = source.dir.filePath(QStringLiteral("config.json"));
    QSignalSpy exported(source.actions.get(), &EntityActions::configExported);
    source.actions->exportConfig(QStringLiteral("test"), file);
    QTRY_COMPARE(exported.count(), 1);
    QVERIFY(QFile::exists(file));

    const auto summary = [](EntitiesEnv& env, const QString& ns) {
        QStringList lines;
        for (const EntityInfo& e : env.call([ns](Broker& b) { return b.entities(ns); })) {
            QStringList rules;
            for (const Rule& r : e.rules)
                rules << QString::fromUtf8(
                    QJsonDocument(r.toJson()).toJson(QJsonDocument::Compact));
            lines << QStringLiteral("%1 %2 %3 %4")
                         .arg(e.path, entityKindName(e.kind),
                              QString::fromUtf8(QJsonDocument(e.properties.toJson(e.kind))
                                                    .toJson(QJsonDocument::Compact)),
                              rules.join(QLatin1Char(';')));
        }
        return lines;
    };
    const QStringList expected = summary(source, QStringLiteral("test"));
    QCOMPARE(expected.size(), 4);

    // Into a fresh database, as the file names it.
    EntitiesEnv fresh(EntitiesEnv::Start::Empty);
    QSignalSpy imported(fresh.actions.get(), &EntityActions::configImported);
    fresh.actions->importConfig(file);
    QTRY_COMPARE(imported.count(), 1);
    QCOMPARE(imported.first().first().toStringList(), QStringList{QStringLiteral("test")});
    QCOMPARE(summary(fresh, QStringLiteral("test")), expected);

    // Into the same database under another namespace name.
    QSignalSpy again(source.actions.get(), &EntityActions::configImported);
    source.actions->importConfig(file, QStringLiteral("copy"));
    QTRY_COMPARE(again.count(), 1);
    QCOMPARE(summary(source, QStringLiteral("copy")), expected);

    // A second import under the same name is the engine's refusal, reported, not a crash.
    QSignalSpy errors(source.actions.get(), &EntityActions::errorOccurred);
    source.actions->importConfig(file, QStringLiteral("copy"));
    QTRY_COMPARE(errors.count(), 1);
    QCOMPARE(errors.first().first().value<Error>().code, ErrorCode::MessagingEntityAlreadyExists);

    // Bad JSON names its line.
    const QString broken = source.dir.filePath(QStringLiteral("broken.json"));
    QFile out(broken);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write("{\n  \"UserConfig\": [\n");
    out.close();
    source.actions->importConfig(broken);
    QTRY_COMPARE(errors.count(), 2);
    QVERIFY(errors.last().first().value<Error>().description.contains(QStringLiteral("line")));
}

// The window's import asks where the file's entities go: into the selected namespace, or as
// the new namespace the file names.
void TestUiEntityActions::config_importAsksWhichNamespace() {
    EntitiesEnv env; // namespace "test"
    const QString file = env.dir.filePath(QStringLiteral("incoming.json"));
    QFile out(file);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(R"({"UserConfig": {"Namespaces": [{"Name": "incoming",
              "Queues": [{"Name": "from-file"}]}]}})");
    out.close();

    const auto answer = [&](const char* buttonName) {
        env.actions->askImportTarget(file);
        QPointer<QMessageBox> box;
        QTRY_VERIFY((box = env.find<QMessageBox>(QStringLiteral("importTargetDialog"))));
        auto* button = box->findChild<QPushButton*>(QLatin1String(buttonName));
        QVERIFY(button);
        QVERIFY(button->isEnabled());
        QTest::mouseClick(button, Qt::LeftButton);
        QTRY_VERIFY(box.isNull());
    };

    // Into the selected namespace: only the entities it lacks are made there.
    env.actions->setSelection(QStringLiteral("test"), NodeKind::Namespace);
    QSignalSpy imported(env.actions.get(), &EntityActions::configImported);
    answer("importIntoSelected");
    QTRY_COMPARE(imported.count(), 1);
    QVERIFY(env.entity(QStringLiteral("test:from-file")).ok());
    QCOMPARE(env.entity(QStringLiteral("incoming:from-file")).error().code,
             ErrorCode::MessagingEntityNotFound);

    // As a new namespace named after the file's.
    answer("importAsNew");
    QTRY_COMPARE(imported.count(), 2);
    QCOMPARE(imported.last().first().toStringList(), QStringList{QStringLiteral("incoming")});
    QVERIFY(env.entity(QStringLiteral("incoming:from-file")).ok());

    // Nothing selected: only "as new" can be chosen.
    env.actions->setSelection({}, NodeKind::Namespace);
    env.actions->askImportTarget(file);
    QPointer<QMessageBox> box;
    QTRY_VERIFY((box = env.find<QMessageBox>(QStringLiteral("importTargetDialog"))));
    QVERIFY(!box->findChild<QPushButton*>(QStringLiteral("importIntoSelected"))->isEnabled());
    QTest::mouseClick(box->button(QMessageBox::Cancel), Qt::LeftButton);
    QTRY_VERIFY(box.isNull());
}

// Wired as the main window wires it: the tree's current row drives the actions, which the tree
// view carries (context menu and shortcuts).
void TestUiEntityActions::treePanel_selectionAndShortcuts() {
    EntitiesEnv env;
    NamespaceTreePanel panel(*env.client, &env.window);
    QTreeView* view = panel.view();
    connect(view->selectionModel(), &QItemSelectionModel::currentChanged, env.actions.get(),
            [&env](const QModelIndex& current) { env.actions->setSelection(current); });
    view->setContextMenuPolicy(Qt::ActionsContextMenu);
    view->addActions(env.actions->actions());
    QTRY_VERIFY(panel.model()->isLoaded());

    const auto row = [view](const QString& path) {
        const QModelIndexList found =
            view->model()->match(view->model()->index(0, 0), NamespaceTreeModel::PathRole, path, 1,
                                 Qt::MatchExactly | Qt::MatchRecursive);
        return found.isEmpty() ? QModelIndex() : found.first();
    };
    view->setCurrentIndex(row(QStringLiteral("test")));
    QVERIFY(env.actions->newQueueAction()->isEnabled());
    QVERIFY(!env.actions->editAction()->isEnabled());
    QVERIFY(env.actions->deleteAction()->text().contains(QStringLiteral("namespace")));
    QTRY_VERIFY(row(QStringLiteral("test:q")).isValid());
    view->setCurrentIndex(row(QStringLiteral("test:q")));
    QVERIFY(env.actions->editAction()->isEnabled());

    // Delete on the focused tree asks about the selected queue.
    env.window.show();
    QApplication::setActiveWindow(&env.window);
    QVERIFY(QTest::qWaitForWindowActive(&env.window));
    view->setFocus();
    QTest::keyClick(view, Qt::Key_Delete);
    QPointer<QMessageBox> box;
    QTRY_VERIFY((box = env.find<QMessageBox>(QStringLiteral("confirmDelete"))));
    QVERIFY(box->text().contains(QStringLiteral("'test:q'")));
    QTest::mouseClick(box->button(QMessageBox::Cancel), Qt::LeftButton);
}

QTEST_MAIN(TestUiEntityActions)
#include "tst_ui_entity_actions.moc"
