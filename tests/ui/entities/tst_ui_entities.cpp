// Entity management in the explorer, the dialogs: the duration field, the E3 property form with
// its defaults and bounds, creating and editing entities (engine and validator refusals inline),
// a subscription's DeadLetteringOnFilterEvaluationExceptions (R5), and namespaces with their
// tiers.

#include "EntitiesTestEnv.h"
#include "common/DurationEdit.h"
#include "entities/EntityPropertyForm.h"

#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QPointer>
#include <QSignalSpy>
#include <QSpinBox>

using namespace hourglass;
using namespace hourglass::ui;
using hourglass::testing::click;
using hourglass::testing::durationText;
using hourglass::testing::EntitiesEnv;
using NodeKind = NamespaceTreeModel::NodeKind;

class TestUiEntities : public QObject {
    Q_OBJECT
private slots:
    void durationEdit_parsesIsoAndInfinite();
    void durationEdit_readsHumanDurationsAndShowsTheIsoForm();
    void propertyForm_E3_defaultsBoundsAndTopicRows();
    void createQueue_E3_typedProperties();
    void createQueue_E2_nameCheckedAsYouType();
    void createSubscription_E2_nameCheckedAsYouType();
    void createQueue_E3_badBoundRefusedInline();
    void createQueue_engineRefusalKeepsDialogOpen();
    void createQueue_engineRefusalClearedWhenTheNameChanges();
    void createQueue_E3_everyBadFieldShownAtOnce();
    void editQueue_E5_updatesProperty();
    void subscription_R5_deadLetteringOnFilterExceptionsCreateAndEdit();
    void newNamespace_E3_basicTierDefaults();
};

void TestUiEntities::durationEdit_parsesIsoAndInfinite() {
    DurationEdit edit(DurationEdit::Infinite::Allowed);
    edit.setObjectName(QStringLiteral("ttl"));
    QCOMPARE(edit.lineEdit()->objectName(), QStringLiteral("ttlText"));
    edit.lineEdit()->setText(QStringLiteral("PT30S"));
    QCOMPARE(edit.duration(), std::optional<Millis>(seconds(30)));
    QCOMPARE(edit.readableLabel()->text(), QStringLiteral("30s"));
    edit.lineEdit()->setText(QStringLiteral("P14D"));
    QCOMPARE(edit.duration(), std::optional<Millis>(days(14)));
    edit.lineEdit()->setText(QStringLiteral("Infinite"));
    QCOMPARE(edit.duration(), std::optional<Millis>(kInfinite));
    QCOMPARE(edit.readableLabel()->text(), QStringLiteral("never"));
    edit.setDuration(kInfinite);
    QCOMPARE(edit.lineEdit()->text(), QStringLiteral("infinite"));

    edit.lineEdit()->setText(QStringLiteral("10 minutes"));
    QVERIFY(!edit.isValid());
    QVERIFY(!edit.problem().isEmpty());
    QCOMPARE(edit.lineEdit()->property("invalid").toBool(), true);

    DurationEdit finite(DurationEdit::Infinite::Refused);
    finite.lineEdit()->setText(QStringLiteral("infinite"));
    QVERIFY(!finite.isValid());
    finite.lineEdit()->setText(QStringLiteral("PT1M"));
    QVERIFY(finite.isValid());
    QCOMPARE(finite.lineEdit()->property("invalid").toBool(), false);
}

// What people type ("2m", "1h30m", "00:02:00") is a duration too, and the field shows the
// ISO-8601 form it understood beside it; ISO typed shows its readable form instead.
void TestUiEntities::durationEdit_readsHumanDurationsAndShowsTheIsoForm() {
    DurationEdit edit(DurationEdit::Infinite::Allowed);
    const auto type = [&edit](const QString& text) {
        edit.lineEdit()->clear();
        QTest::keyClicks(edit.lineEdit(), text);
    };
    type(QStringLiteral("2m"));
    QCOMPARE(edit.duration(), std::optional<Millis>(minutes(2)));
    QCOMPARE(edit.readableLabel()->text(), QStringLiteral("= PT2M"));
    type(QStringLiteral("1h30m"));
    QCOMPARE(edit.duration(), std::optional<Millis>(minutes(90)));
    QCOMPARE(edit.readableLabel()->text(), QStringLiteral("= PT1H30M"));
    type(QStringLiteral("00:02:00"));
    QCOMPARE(edit.duration(), std::optional<Millis>(minutes(2)));
    QCOMPARE(edit.readableLabel()->text(), QStringLiteral("= PT2M"));
    type(QStringLiteral("1.00:00:00"));
    QCOMPARE(edit.readableLabel()->text(), QStringLiteral("= P1D"));
    QCOMPARE(edit.lineEdit()->property("invalid").toBool(), false);
    type(QStringLiteral("5"));
    QVERIFY(!edit.isValid());
    QVERIFY2(edit.problem().contains(QStringLiteral("unit")), qPrintable(edit.problem()));
    QCOMPARE(edit.lineEdit()->property("invalid").toBool(), true);
}

void TestUiEntities::propertyForm_E3_defaultsBoundsAndTopicRows() {
    EntityPropertyForm form;
    form.setKind(EntityKind::Queue, Tier::Standard);
    form.setProperties(EntityProperties::defaults(Tier::Standard));
    QCOMPARE(form.properties(), EntityProperties::defaults(Tier::Standard));
    QVERIFY(form.validate().ok());
    const auto hint = [&form](const char* name) {
        return form.findChild<QLabel*>(QLatin1String(name) + QStringLiteral("Hint"))->text();
    };
    QVERIFY2(hint("lockDuration").contains(QStringLiteral("default PT1M")),
             qPrintable(hint("lockDuration")));
    QVERIFY(hint("lockDuration").contains(QStringLiteral("PT5S .. PT5M")));
    QVERIFY(hint("defaultMessageTimeToLive").contains(QStringLiteral("default infinite")));
    QVERIFY(hint("duplicateDetectionHistoryTimeWindow").contains(QStringLiteral("PT20S .. P7D")));
    QVERIFY(hint("maxDeliveryCount").contains(QStringLiteral("default 10")));

    // Basic tier: TTL defaults to and is capped at P14D.
    form.setKind(EntityKind::Queue, Tier::Basic);
    QVERIFY(hint("defaultMessageTimeToLive").contains(QStringLiteral("default P14D")));
    QVERIFY(!form.validate().ok()); // still infinite from the Standard defaults
    QVERIFY(form.validate().error().description.startsWith(
        QStringLiteral("DefaultMessageTimeToLive must be at most P14D")));
    form.setProperties(EntityProperties::defaults(Tier::Basic));
    QVERIFY(form.validate().ok());

    // A topic shows only TTL, auto-delete, duplicate detection, sizes and status.
    form.setKind(EntityKind::Topic, Tier::Standard);
    form.show();
    QVERIFY(form.findChild<QWidget*>(QStringLiteral("lockDuration"))->isHidden());
    QVERIFY(form.findChild<QWidget*>(QStringLiteral("maxDeliveryCount"))->isHidden());
    QVERIFY(form.findChild<QWidget*>(QStringLiteral("forwardTo"))->isHidden());
    QVERIFY(!form.findChild<QWidget*>(QStringLiteral("autoDeleteOnIdle"))->isHidden());
    QVERIFY(!form.findChild<QWidget*>(QStringLiteral("status"))->isHidden());
    QVERIFY(!form.findChild<QWidget*>(QStringLiteral("requiresDuplicateDetection"))->isHidden());

    // E5: a subscription has no duplicate detection of its own.
    form.setKind(EntityKind::Subscription, Tier::Standard);
    QVERIFY(form.findChild<QWidget*>(QStringLiteral("requiresDuplicateDetection"))->isHidden());
    QVERIFY(form.findChild<QWidget*>(QStringLiteral("duplicateDetectionHistoryTimeWindow"))
                ->isHidden());
    QVERIFY(!form.findChild<QWidget*>(QStringLiteral("lockDuration"))->isHidden());
}

void TestUiEntities::createQueue_E3_typedProperties() {
    EntitiesEnv env;
    env.actions->setSelection(QStringLiteral("test"), NodeKind::Namespace);
    QSignalSpy created(env.actions.get(), &EntityActions::created);
    QPointer<EntityDialog> dialog = env.openEntityDialog(env.actions->newQueueAction());
    QVERIFY(dialog);
    dialog->findChild<QLineEdit*>(QStringLiteral("entityName"))->setText(QStringLiteral("orders"));
    durationText(dialog, QStringLiteral("lockDuration"))->setText(QStringLiteral("PT30S"));
    durationText(dialog, QStringLiteral("defaultMessageTimeToLive"))
        ->setText(QStringLiteral("PT1H"));
    dialog->findChild<QSpinBox*>(QStringLiteral("maxDeliveryCount"))->setValue(5);
    dialog->findChild<QCheckBox*>(QStringLiteral("deadLetteringOnMessageExpiration"))
        ->setChecked(true);
    dialog->findChild<QComboBox*>(QStringLiteral("forwardDeadLetteredMessagesTo"))
        ->setCurrentText(QStringLiteral("q"));
    click(dialog, QStringLiteral("entityDialogOk"));
    QTRY_VERIFY(dialog.isNull()); // success closes (and deletes) the dialog
    QCOMPARE(created.count(), 1);
    QCOMPARE(created.first().first().toString(), QStringLiteral("test:orders"));

    const auto info = env.entity(QStringLiteral("test:orders"));
    QVERIFY(info.ok());
    QCOMPARE(info->kind, EntityKind::Queue);
    QCOMPARE(info->properties.lockDuration, seconds(30));
    QCOMPARE(info->properties.defaultMessageTimeToLive, hours(1));
    QCOMPARE(info->properties.maxDeliveryCount, 5);
    QCOMPARE(info->properties.deadLetteringOnMessageExpiration, true);
    QCOMPARE(info->properties.forwardDeadLetteredMessagesTo, QStringLiteral("q"));
    QCOMPARE(info->properties.autoDeleteOnIdle, kInfinite);
}

// E2, checked as the name is typed with the engine's own rules: Create is off and the reason
// shows under the name, and the buttons below do not move as it comes and goes.
void TestUiEntities::createQueue_E2_nameCheckedAsYouType() {
    EntitiesEnv env;
    env.actions->setSelection(QStringLiteral("test"), NodeKind::Namespace);
    env.window.show();
    QPointer<EntityDialog> dialog = env.openEntityDialog(env.actions->newQueueAction());
    QVERIFY(dialog);
    QVERIFY(QTest::qWaitForWindowExposed(dialog));
    auto* name = dialog->findChild<QLineEdit*>(QStringLiteral("entityName"));
    auto* create = dialog->findChild<QPushButton*>(QStringLiteral("entityDialogOk"));
    auto* problem = dialog->findChild<QLabel*>(QStringLiteral("entityNameError"));
    QVERIFY(problem);
    // Nothing typed yet: Create waits for a name without scolding.
    QVERIFY(!create->isEnabled());
    QVERIFY(!problem->isVisible());
    const QPoint createAt = create->mapTo(dialog, QPoint(0, 0));

    QTest::keyClicks(name, QStringLiteral("new orders"));
    QVERIFY(!create->isEnabled());
    QVERIFY(problem->isVisible());
    QVERIFY2(problem->text().contains(QStringLiteral("' '")), qPrintable(problem->text()));
    QCOMPARE(name->property("invalid").toBool(), true);
    QCOMPARE(create->mapTo(dialog, QPoint(0, 0)), createAt);

    name->clear();
    QTest::keyClicks(name, QStringLiteral("sales/Subscriptions/x"));
    QVERIFY(!create->isEnabled());
    QVERIFY(problem->text().contains(QStringLiteral("Subscriptions")));

    name->clear();
    QTest::keyClicks(name, QStringLiteral("sales/orders"));
    QVERIFY(create->isEnabled());
    QVERIFY(!problem->isVisible());
    QCOMPARE(name->property("invalid").toBool(), false);
    QCOMPARE(create->mapTo(dialog, QPoint(0, 0)), createAt);
    click(dialog, QStringLiteral("entityDialogOk"));
    QTRY_VERIFY(dialog.isNull());
    QVERIFY(env.entity(QStringLiteral("test:sales/orders")).ok());
}

void TestUiEntities::createSubscription_E2_nameCheckedAsYouType() {
    EntitiesEnv env;
    QVERIFY(env.call([](Broker& b) {
                   return b.createTopic(QStringLiteral("test:events"),
                                        EntityProperties::defaults(Tier::Standard));
               })
                .ok());
    env.actions->setSelection(QStringLiteral("test:events"), NodeKind::Topic);
    QPointer<EntityDialog> dialog = env.openEntityDialog(env.actions->newSubscriptionAction());
    QVERIFY(dialog);
    auto* name = dialog->findChild<QLineEdit*>(QStringLiteral("entityName"));
    auto* create = dialog->findChild<QPushButton*>(QStringLiteral("entityDialogOk"));
    // A path is fine for a queue, not for a subscription (E2).
    QTest::keyClicks(name, QStringLiteral("audit/all"));
    QVERIFY(!create->isEnabled());
    QVERIFY(dialog->findChild<QLabel*>(QStringLiteral("entityNameError"))
                ->text()
                .contains(QStringLiteral("'/'")));
    name->clear();
    QTest::keyClicks(name, QStringLiteral("audit"));
    QVERIFY(create->isEnabled());
}

void TestUiEntities::createQueue_E3_badBoundRefusedInline() {
    EntitiesEnv env;
    env.actions->setSelection(QStringLiteral("test:q"), NodeKind::Queue);
    QPointer<EntityDialog> dialog = env.openEntityDialog(env.actions->newQueueAction());
    QVERIFY(dialog);
    dialog->findChild<QLineEdit*>(QStringLiteral("entityName"))->setText(QStringLiteral("slow"));
    QLineEdit* lock = durationText(dialog, QStringLiteral("lockDuration"));
    lock->setText(QStringLiteral("PT10M"));
    auto* formError = dialog->findChild<QLabel*>(QStringLiteral("entityFormError"));
    QVERIFY(formError->isVisibleTo(dialog));
    QCOMPARE(formError->text(),
             QStringLiteral("LockDuration must be between PT5S and PT5M (got PT10M)"));
    QCOMPARE(lock->property("invalid").toBool(), true);

    click(dialog, QStringLiteral("entityDialogOk"));
    QVERIFY(!dialog.isNull());
    QVERIFY(dialog->isVisible());
    env.client->waitForIdle();
    QCOMPARE(env.entity(QStringLiteral("test:slow")).error().code,
             ErrorCode::MessagingEntityNotFound);
    QCOMPARE(lock->text(), QStringLiteral("PT10M")); // kept for correction

    // Text that is no duration at all is refused the same way.
    lock->setText(QStringLiteral("soon"));
    QVERIFY(formError->text().startsWith(QStringLiteral("LockDuration: 'soon' is not a duration")));
    lock->setText(QStringLiteral("PT5M"));
    QVERIFY(!formError->isVisibleTo(dialog));
    QCOMPARE(lock->property("invalid").toBool(), false);
    click(dialog, QStringLiteral("entityDialogOk"));
    QTRY_VERIFY(dialog.isNull());
    QCOMPARE(env.entity(QStringLiteral("test:slow"))->properties.lockDuration, minutes(5));
}

void TestUiEntities::createQueue_engineRefusalKeepsDialogOpen() {
    EntitiesEnv env;
    env.actions->setSelection(QStringLiteral("test"), NodeKind::Namespace);
    QSignalSpy errors(env.actions.get(), &EntityActions::errorOccurred);
    QPointer<EntityDialog> dialog = env.openEntityDialog(env.actions->newQueueAction());
    QVERIFY(dialog);
    auto* name = dialog->findChild<QLineEdit*>(QStringLiteral("entityName"));
    name->setText(QStringLiteral("Q")); // E2: names are unique case-insensitively
    click(dialog, QStringLiteral("entityDialogOk"));
    auto* error = dialog->findChild<QLabel*>(QStringLiteral("entityDialogError"));
    QTRY_VERIFY(error->isVisibleTo(dialog));
    QVERIFY2(error->text().startsWith(QStringLiteral("MessagingEntityAlreadyExists: ")),
             qPrintable(error->text()));
    QCOMPARE(errors.count(), 1);
    QVERIFY(dialog->isVisible());
    QCOMPARE(name->text(), QStringLiteral("Q"));

    // A forwarding target that does not exist is the engine's to refuse.
    name->setText(QStringLiteral("forwarder"));
    dialog->findChild<QComboBox*>(QStringLiteral("forwardTo"))
        ->setCurrentText(QStringLiteral("nowhere"));
    click(dialog, QStringLiteral("entityDialogOk"));
    QTRY_VERIFY(error->text().contains(QStringLiteral("nowhere")));
    QVERIFY(!dialog.isNull());
    QVERIFY(!env.entity(QStringLiteral("test:forwarder")).ok());
}

// The engine's refusal of a name that exists is about that name: typing another one takes it
// away, so no stale refusal sits under a name that may be fine.
void TestUiEntities::createQueue_engineRefusalClearedWhenTheNameChanges() {
    EntitiesEnv env;
    env.actions->setSelection(QStringLiteral("test"), NodeKind::Namespace);
    QPointer<EntityDialog> dialog = env.openEntityDialog(env.actions->newQueueAction());
    QVERIFY(dialog);
    auto* name = dialog->findChild<QLineEdit*>(QStringLiteral("entityName"));
    QTest::keyClicks(name, QStringLiteral("q"));
    click(dialog, QStringLiteral("entityDialogOk"));
    auto* error = dialog->findChild<QLabel*>(QStringLiteral("entityDialogError"));
    QTRY_VERIFY(error->isVisibleTo(dialog));
    QVERIFY2(error->text().startsWith(QStringLiteral("MessagingEntityAlreadyExists: ")),
             qPrintable(error->text()));

    QTest::keyClicks(name, QStringLiteral("2"));
    QVERIFY(!error->isVisibleTo(dialog));
    click(dialog, QStringLiteral("entityDialogOk"));
    QTRY_VERIFY(dialog.isNull());
    QVERIFY(env.entity(QStringLiteral("test:q2")).ok());
}

// Every field that breaks a bound is marked, and every problem listed, at once: fixing one shows
// what is left rather than the next problem one at a time.
void TestUiEntities::createQueue_E3_everyBadFieldShownAtOnce() {
    EntitiesEnv env;
    env.actions->setSelection(QStringLiteral("test"), NodeKind::Namespace);
    QPointer<EntityDialog> dialog = env.openEntityDialog(env.actions->newQueueAction());
    QVERIFY(dialog);
    dialog->findChild<QLineEdit*>(QStringLiteral("entityName"))->setText(QStringLiteral("bad"));
    QLineEdit* lock = durationText(dialog, QStringLiteral("lockDuration"));
    QLineEdit* idle = durationText(dialog, QStringLiteral("autoDeleteOnIdle"));
    auto* deliveries = dialog->findChild<QSpinBox*>(QStringLiteral("maxDeliveryCount"));
    auto* size = dialog->findChild<QSpinBox*>(QStringLiteral("maxSizeInMegabytes"));
    lock->setText(QStringLiteral("PT10M"));
    idle->setText(QStringLiteral("later"));
    deliveries->setValue(0);
    size->setValue(0);

    auto* formError = dialog->findChild<QLabel*>(QStringLiteral("entityFormError"));
    QVERIFY(formError->isVisibleTo(dialog));
    const QStringList lines = formError->text().split(QLatin1Char('\n'));
    QCOMPARE(lines.size(), 4);
    QVERIFY2(lines[0].startsWith(QStringLiteral("AutoDeleteOnIdle: 'later' is not a duration")),
             qPrintable(lines[0]));
    QCOMPARE(lines[1], QStringLiteral("MaxSizeInMegabytes must be between 1 and 81920 (got 0)"));
    QCOMPARE(lines[2], QStringLiteral("LockDuration must be between PT5S and PT5M (got PT10M)"));
    QCOMPARE(lines[3], QStringLiteral("MaxDeliveryCount must be at least 1 (got 0)"));
    for (QWidget* field : {static_cast<QWidget*>(lock), static_cast<QWidget*>(idle),
                           static_cast<QWidget*>(deliveries), static_cast<QWidget*>(size)})
        QVERIFY2(field->property("invalid").toBool(), qPrintable(field->objectName()));
    QVERIFY(!durationText(dialog, QStringLiteral("defaultMessageTimeToLive"))
                 ->property("invalid")
                 .toBool());

    click(dialog, QStringLiteral("entityDialogOk"));
    env.client->waitForIdle();
    QVERIFY(!dialog.isNull()); // nothing sent
    QVERIFY(!env.entity(QStringLiteral("test:bad")).ok());

    // Fixing one leaves the others listed and marked.
    lock->setText(QStringLiteral("PT1M"));
    QCOMPARE(formError->text().split(QLatin1Char('\n')).size(), 3);
    QVERIFY(!lock->property("invalid").toBool());
    QVERIFY(size->property("invalid").toBool());
    idle->setText(QStringLiteral("PT1H"));
    deliveries->setValue(3);
    size->setValue(10);
    QVERIFY(!formError->isVisibleTo(dialog));
    click(dialog, QStringLiteral("entityDialogOk"));
    QTRY_VERIFY(dialog.isNull());
    QCOMPARE(env.entity(QStringLiteral("test:bad"))->properties.maxDeliveryCount, 3);
}

void TestUiEntities::editQueue_E5_updatesProperty() {
    EntitiesEnv env;
    QVERIFY(env.call([](Broker& b) {
                   EntityProperties p = EntityProperties::defaults(Tier::Standard);
                   p.lockDuration = seconds(45);
                   return b.updateEntity(QStringLiteral("test:q"), p);
               })
                .ok());
    env.actions->setSelection(QStringLiteral("test:q"), NodeKind::Queue);
    QVERIFY(env.actions->editAction()->isEnabled());
    QCOMPARE(env.actions->editAction()->shortcut(), QKeySequence(Qt::Key_F2));
    QPointer<EntityDialog> dialog = env.openEntityDialog(env.actions->editAction());
    QVERIFY(dialog);
    auto* name = dialog->findChild<QLineEdit*>(QStringLiteral("entityName"));
    QCOMPARE(name->text(), QStringLiteral("q"));
    QVERIFY(name->isReadOnly());
    QCOMPARE(durationText(dialog, QStringLiteral("lockDuration"))->text(), QStringLiteral("PT45S"));
    // E5: duplicate detection is fixed at creation, and the form says so.
    auto* detection = dialog->findChild<QCheckBox*>(QStringLiteral("requiresDuplicateDetection"));
    QVERIFY(dialog->findChild<QSpinBox*>(QStringLiteral("maxDeliveryCount"))->isEnabled());
    QVERIFY(!detection->isEnabled());
    QVERIFY(dialog->findChild<QLabel*>(QStringLiteral("requiresDuplicateDetectionHint"))
                ->text()
                .contains(QStringLiteral("fixed at creation")));
    dialog->findChild<QSpinBox*>(QStringLiteral("maxDeliveryCount"))->setValue(3);
    dialog->findChild<QComboBox*>(QStringLiteral("status"))
        ->setCurrentText(QStringLiteral("SendDisabled"));
    click(dialog, QStringLiteral("entityDialogOk"));
    QTRY_VERIFY(dialog.isNull());
    const auto info = env.entity(QStringLiteral("test:q"));
    QCOMPARE(info->properties.maxDeliveryCount, 3);
    QCOMPARE(info->properties.status, EntityStatus::SendDisabled);
    QCOMPARE(info->properties.lockDuration, seconds(45)); // untouched fields keep their values
}

// R5: whether a filter or action that fails on a message dead-letters it in the subscription
// (FilterException) or drops it there is a subscription property, set on create and on edit.
void TestUiEntities::subscription_R5_deadLetteringOnFilterExceptionsCreateAndEdit() {
    EntitiesEnv env;
    QVERIFY(env.call([](Broker& b) {
                   return b.createTopic(QStringLiteral("test:events"),
                                        EntityProperties::defaults(Tier::Standard));
               })
                .ok());
    const QString flagName = QStringLiteral("deadLetteringOnFilterEvaluationExceptions");

    // Queues and topics do not have it.
    env.actions->setSelection(QStringLiteral("test:q"), NodeKind::Queue);
    QPointer<EntityDialog> queue = env.openEntityDialog(env.actions->editAction());
    QVERIFY(queue);
    QVERIFY(queue->findChild<QCheckBox*>(flagName));
    QVERIFY(!queue->findChild<QCheckBox*>(flagName)->isVisibleTo(queue));
    queue->reject();
    QTRY_VERIFY(queue.isNull());

    env.actions->setSelection(QStringLiteral("test:events"), NodeKind::Topic);
    QPointer<EntityDialog> dialog = env.openEntityDialog(env.actions->newSubscriptionAction());
    QVERIFY(dialog);
    auto* flag = dialog->findChild<QCheckBox*>(flagName);
    QVERIFY(flag);
    QVERIFY(flag->isVisibleTo(dialog));
    QVERIFY(flag->isEnabled());
    QVERIFY(flag->isChecked()); // the default: on
    QVERIFY2(flag->toolTip().contains(QStringLiteral("FilterException")),
             qPrintable(flag->toolTip()));
    QVERIFY(flag->toolTip().contains(QStringLiteral("drops")));
    QCOMPARE(dialog->findChild<QLabel*>(flagName + QStringLiteral("Hint"))->text(),
             QStringLiteral("default on"));
    dialog->findChild<QLineEdit*>(QStringLiteral("entityName"))->setText(QStringLiteral("audit"));
    QTest::keyClick(flag, Qt::Key_Space); // the box has no text: the key, not a click point
    QVERIFY(!flag->isChecked());
    click(dialog, QStringLiteral("entityDialogOk"));
    QTRY_VERIFY(dialog.isNull());
    const QString path = QStringLiteral("test:events/Subscriptions/audit");
    QCOMPARE(env.entity(path)->properties.deadLetteringOnFilterEvaluationExceptions, false);

    // Edit shows what the engine has, and can turn it back on.
    env.actions->setSelection(path, NodeKind::Subscription);
    dialog = env.openEntityDialog(env.actions->editAction());
    QVERIFY(dialog);
    flag = dialog->findChild<QCheckBox*>(flagName);
    QVERIFY(flag->isVisibleTo(dialog));
    QVERIFY(flag->isEnabled()); // not fixed at creation
    QVERIFY(!flag->isChecked());
    QTest::keyClick(flag, Qt::Key_Space); // the box has no text: the key, not a click point
    click(dialog, QStringLiteral("entityDialogOk"));
    QTRY_VERIFY(dialog.isNull());
    QCOMPARE(env.entity(path)->properties.deadLetteringOnFilterEvaluationExceptions, true);
}

void TestUiEntities::newNamespace_E3_basicTierDefaults() {
    EntitiesEnv env;
    env.actions->setSelection({}, NodeKind::Namespace);
    QVERIFY(env.actions->newNamespaceAction()->isEnabled());
    QVERIFY(!env.actions->newQueueAction()->isEnabled());
    env.actions->newNamespaceAction()->trigger();
    QPointer<QDialog> dialog = env.find<QDialog>(QStringLiteral("namespaceDialog"));
    QVERIFY(dialog);
    dialog->findChild<QLineEdit*>(QStringLiteral("namespaceName"))
        ->setText(QStringLiteral("cheap"));
    dialog->findChild<QComboBox*>(QStringLiteral("namespaceTier"))
        ->setCurrentText(QStringLiteral("Basic"));
    click(dialog, QStringLiteral("namespaceDialogOk"));
    QTRY_VERIFY(dialog.isNull());
    const auto namespaces = env.call([](Broker& b) { return b.namespaces(); });
    QCOMPARE(namespaces.size(), 2);
    QCOMPARE(namespaces.last().name, QStringLiteral("cheap"));
    QCOMPARE(namespaces.last().tier, Tier::Basic);

    // A Basic namespace has queues only (E5): New topic is off there, and says why.
    env.actions->setSelection(QStringLiteral("cheap"), NodeKind::Namespace);
    QTRY_VERIFY(!env.actions->newTopicAction()->isEnabled());
    QVERIFY(env.actions->newTopicAction()->toolTip().contains(QStringLiteral("Basic")));
    env.actions->setSelection(QStringLiteral("test"), NodeKind::Namespace);
    QTRY_VERIFY(env.actions->newTopicAction()->isEnabled());

    // A queue there starts from the Basic defaults (TTL P14D) and may not be infinite.
    env.actions->setSelection(QStringLiteral("cheap"), NodeKind::Namespace);
    QPointer<EntityDialog> entity = env.openEntityDialog(env.actions->newQueueAction());
    QVERIFY(entity);
    QLineEdit* ttl = durationText(entity, QStringLiteral("defaultMessageTimeToLive"));
    QCOMPARE(ttl->text(), QStringLiteral("P14D"));
    ttl->setText(QStringLiteral("infinite"));
    QVERIFY(entity->findChild<QLabel*>(QStringLiteral("entityFormError"))
                ->text()
                .contains(QStringLiteral("Basic tier")));
    ttl->setText(QStringLiteral("P7D"));
    entity->findChild<QLineEdit*>(QStringLiteral("entityName"))->setText(QStringLiteral("news"));
    click(entity, QStringLiteral("entityDialogOk"));
    QTRY_VERIFY(entity.isNull());
    const auto info = env.entity(QStringLiteral("cheap:news"));
    QCOMPARE(info->kind, EntityKind::Queue);
    QCOMPARE(info->properties.defaultMessageTimeToLive, days(7));
}

QTEST_MAIN(TestUiEntities)
#include "tst_ui_entities.moc"
