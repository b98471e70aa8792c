// Entity management in the explorer, subscription rules (R2-R5): correlation, SQL filters and
// actions checked as they are typed (the token in error underlined, keywords highlighted), and
// the engine's refusals inline; existing rules edited in the form and replaced in one call, a
// correlation filter shown as one. The other entity actions are in tst_ui_entity_actions.cpp.

#include "EntitiesTestEnv.h"
#include "common/PropertyTableEditor.h"
#include "entities/RuleDialog.h"
#include "entities/RuleEditor.h"
#include "entities/SqlHighlighter.h"

#include <QApplication>
#include <QComboBox>
#include <QGroupBox>
#include <QLabel>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPointer>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTextBlock>
#include <QTextLayout>
#include <QTimer>
#include <QTreeWidget>

using namespace hourglass;
using namespace hourglass::ui;
using hourglass::testing::click;
using hourglass::testing::EntitiesEnv;
using NodeKind = NamespaceTreeModel::NodeKind;

namespace {

const QString kAuditPath = QStringLiteral("test:events/Subscriptions/audit");

// Topic "events" with subscription "audit", made by the engine, and its rule dialog opened from
// the Rules action once it lists $Default.
QPointer<RuleDialog> openRuleDialog(EntitiesEnv& env) {
    const bool made =
        env.call([](Broker& b) -> Result<void> {
               const auto defaults = EntityProperties::defaults(Tier::Standard);
               if (auto t = b.createTopic(QStringLiteral("test:events"), defaults); !t)
                   return t.error();
               if (auto s = b.createSubscription(kAuditPath, defaults); !s)
                   return s.error();
               return {};
           })
            .ok();
    if (!made)
        return nullptr;
    env.actions->setSelection(kAuditPath, NodeKind::Subscription);
    env.actions->rulesAction()->trigger();
    QPointer<RuleDialog> dialog = env.find<RuleDialog>(QStringLiteral("ruleDialog"));
    if (dialog && !QTest::qWaitFor([&] { return dialog->ruleNames().size() == 1; }))
        return nullptr;
    return dialog;
}

QPlainTextEdit* sqlEditor(QWidget* dialog, const QString& name) {
    return dialog->findChild<QPlainTextEdit*>(name);
}

void chooseFilter(QWidget* dialog, FilterType filterType) {
    auto* type = dialog->findChild<QComboBox*>(QStringLiteral("ruleFilterType"));
    type->setCurrentIndex(type->findData(int(filterType)));
}

// The kind of token the highlighter gave the character at `position` of `editor` (0: plain).
int tokenKindAt(QPlainTextEdit* editor, int position) {
    const QTextBlock block = editor->document()->findBlock(position);
    const int inBlock = position - block.position();
    for (const QTextLayout::FormatRange& range : block.layout()->formats())
        if (inBlock >= range.start && inBlock < range.start + range.length)
            return range.format.property(SqlHighlighter::kSqlTokenProperty).toInt();
    return 0;
}

} // namespace

class TestUiEntityRules : public QObject {
    Q_OBJECT
private slots:
    void rules_R2_addCorrelationRemoveAndBadSqlRefused();
    void rules_R5_sqlErrorShownWhereItIs_data();
    void rules_R5_sqlErrorShownWhereItIs();
    void rules_R4_sqlFilterWithActionAdded();
    void rules_R4_correlationFilterWithActionAdded();
    void rules_R3_keywordsHighlighted();
    void rules_R2_existingRuleEditedAndReplaced();
    void rules_R2_correlationFilterShownAsItself();
};

void TestUiEntityRules::rules_R2_addCorrelationRemoveAndBadSqlRefused() {
    EntitiesEnv env;
    QVERIFY(env.call([](Broker& b) {
                   return b.createTopic(QStringLiteral("test:events"),
                                        EntityProperties::defaults(Tier::Standard));
               })
                .ok());
    // The subscription is created through the dialog, from the topic's row.
    env.actions->setSelection(QStringLiteral("test:events"), NodeKind::Topic);
    QVERIFY(env.actions->newSubscriptionAction()->isEnabled());
    QPointer<EntityDialog> sub = env.openEntityDialog(env.actions->newSubscriptionAction());
    QVERIFY(sub);
    QCOMPARE(sub->findChild<QLabel*>(QStringLiteral("entityTopic"))->text(),
             QStringLiteral("events"));
    sub->findChild<QLineEdit*>(QStringLiteral("entityName"))->setText(QStringLiteral("audit"));
    click(sub, QStringLiteral("entityDialogOk"));
    QTRY_VERIFY(sub.isNull());
    const QString path = QStringLiteral("test:events/Subscriptions/audit");

    env.actions->setSelection(path, NodeKind::Subscription);
    QVERIFY(env.actions->rulesAction()->isEnabled());
    env.actions->rulesAction()->trigger();
    QPointer<RuleDialog> dialog = env.find<RuleDialog>(QStringLiteral("ruleDialog"));
    QVERIFY(dialog);
    QTRY_COMPARE(dialog->ruleNames(), QStringList{QStringLiteral("$Default")}); // E4

    dialog->findChild<QLineEdit*>(QStringLiteral("ruleName"))->setText(QStringLiteral("red"));
    auto* type = dialog->findChild<QComboBox*>(QStringLiteral("ruleFilterType"));
    type->setCurrentIndex(type->findData(int(FilterType::Correlation)));
    dialog->findChild<QLineEdit*>(QStringLiteral("filterSubject"))
        ->setText(QStringLiteral("order"));
    dialog->findChild<QLineEdit*>(QStringLiteral("filterCorrelationId"))
        ->setText(QStringLiteral("c-1"));
    dialog->findChild<PropertyTableEditor*>(QStringLiteral("filterProperties"))
        ->addRow(QStringLiteral("color"), PropertyType::String, QStringLiteral("red"));
    click(dialog, QStringLiteral("addRule"));
    QTRY_COMPARE(dialog->ruleNames(),
                 (QStringList{QStringLiteral("$Default"), QStringLiteral("red")}));
    // The list may show the rule (the change feed reloads it) before the add's own reply
    // clears the form: wait for that reply, as a user would see the form empty.
    QTRY_VERIFY(dialog->findChild<QLineEdit*>(QStringLiteral("ruleName"))->text().isEmpty());
    auto rules = env.entity(path)->rules;
    QCOMPARE(rules.size(), 2);
    QCOMPARE(rules[1].filterType, FilterType::Correlation);
    QCOMPARE(rules[1].correlation.subject, QStringLiteral("order"));
    QCOMPARE(rules[1].correlation.correlationId, QStringLiteral("c-1"));
    QCOMPARE(rules[1].correlation.properties.value(QStringLiteral("color")),
             QVariant(QStringLiteral("red")));
    auto* list = dialog->findChild<QTreeWidget*>(QStringLiteral("ruleList"));
    QVERIFY(list->topLevelItem(1)->text(1).contains(QStringLiteral("Subject: order")));

    // SQL is offered, and the engine's refusal of a bad expression is shown inline; nothing is
    // added.
    dialog->findChild<QLineEdit*>(QStringLiteral("ruleName"))->setText(QStringLiteral("bysql"));
    type->setCurrentIndex(type->findData(int(FilterType::Sql)));
    dialog->findChild<QPlainTextEdit*>(QStringLiteral("sqlExpression"))
        ->setPlainText(QStringLiteral("color == 'red'"));
    click(dialog, QStringLiteral("addRule"));
    auto* error = dialog->findChild<QLabel*>(QStringLiteral("ruleDialogError"));
    QTRY_VERIFY(error->isVisibleTo(dialog));
    QVERIFY2(error->text().startsWith(QStringLiteral("InvalidArgument: ")),
             qPrintable(error->text()));
    QCOMPARE(env.entity(path)->rules.size(), 2);
    QCOMPARE(dialog->findChild<QLineEdit*>(QStringLiteral("ruleName"))->text(),
             QStringLiteral("bysql"));

    // Removal asks first; Remove removes.
    list->setCurrentItem(list->topLevelItem(1));
    click(dialog, QStringLiteral("removeRule"));
    QPointer<QMessageBox> confirm =
        dialog->findChild<QMessageBox*>(QStringLiteral("confirmRemoveRule"));
    QVERIFY(confirm);
    QVERIFY(confirm->text().contains(QStringLiteral("'red'")));
    QTest::mouseClick(confirm->button(QMessageBox::Ok), Qt::LeftButton);
    QTRY_COMPARE(dialog->ruleNames(), QStringList{QStringLiteral("$Default")});
    QCOMPARE(env.entity(path)->rules.size(), 1);
}

// R5: a text that does not parse is refused as it is typed, with the engine's code and
// description, and the token in error is underlined at the line and column the description
// names; fixing the text clears both. Nothing is sent to the engine for this.
void TestUiEntityRules::rules_R5_sqlErrorShownWhereItIs_data() {
    QTest::addColumn<QString>("editor"); // "sqlExpression" (the filter) or "sqlAction"
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("where");      // in the description
    QTest::addColumn<int>("underlineStart"); // in the editor's document; -1: no underline
    QTest::addColumn<QString>("underlined");
    QTest::addColumn<QString>("fixed");

    const QString filter = QStringLiteral("sqlExpression");
    const QString action = QStringLiteral("sqlAction");
    QTest::newRow("== in a filter") << filter << "color = 'red' AND quantity == 5"
                                    << "[Token line=1, column=29, " << 28 << "="
                                    << "color = 'red' AND quantity = 5";
    // The text is checked without its leading blank line and indentation, as the rule carries
    // it; the underline still lands on the token as typed.
    QTest::newRow("second line, after leading space") << filter << "\n  a = 1\nAND b == 2"
                                                      << "[Token line=2, column=8, " << 16 << "="
                                                      << "\n  a = 1\nAND b = 2";
    QTest::newRow("end of text marks the last word")
        << filter << "color = 'red' AND"
        << "Token in error= <end of text>" << 14 << "AND"
        << "color = 'red' AND EXISTS(size)";
    QTest::newRow("unknown sys. name") << filter << "sys.Colour = 'x'"
                                       << "column=5, " << 4 << "Colour"
                                       << "sys.Label = 'x'";
    QTest::newRow("action without a target") << action << "SET priority = 'high' REMOVE"
                                             << "Token in error= <end of text>" << 22 << "REMOVE"
                                             << "SET priority = 'high' REMOVE draft";
    QTest::newRow("action with ==") << action << "SET a == 1"
                                    << "[Token line=1, column=8, " << 7 << "="
                                    << "SET a = 1";
    // Refused, but not a parse error: no position to underline.
    QTest::newRow("filter too long")
        << filter << QStringLiteral("a = '%1'").arg(QString(1020, u'x')) << "1,024" << -1
        << QString() << "a = 'x'";
}

void TestUiEntityRules::rules_R5_sqlErrorShownWhereItIs() {
    QFETCH(QString, editor);
    QFETCH(QString, text);
    QFETCH(QString, where);
    QFETCH(int, underlineStart);
    QFETCH(QString, underlined);
    QFETCH(QString, fixed);
    EntitiesEnv env;
    QPointer<RuleDialog> dialog = openRuleDialog(env);
    QVERIFY(dialog);
    chooseFilter(dialog, FilterType::Sql);
    QPlainTextEdit* edit = sqlEditor(dialog, editor);
    QVERIFY(edit);
    auto* status = dialog->findChild<QLabel*>(editor + QStringLiteral("Status"));
    auto* timer = dialog->findChild<QTimer*>(editor + QStringLiteral("CheckTimer"));
    QVERIFY(status);
    QVERIFY(timer);

    edit->setPlainText(text);
    // Checked a moment after typing stops, not at each keystroke.
    QVERIFY(timer->isActive());
    QVERIFY(!status->isVisibleTo(dialog));
    QTRY_VERIFY(status->isVisibleTo(dialog));
    QVERIFY2(status->text().startsWith(QStringLiteral("InvalidArgument: ")),
             qPrintable(status->text()));
    QVERIFY2(status->text().contains(where), qPrintable(status->text()));
    if (underlineStart >= 0)
        QVERIFY2(status->text().contains(
                     QStringLiteral("There was an error parsing the SQL expression. [Token ")),
                 qPrintable(status->text()));

    const QList<QTextEdit::ExtraSelection> marks = edit->extraSelections();
    if (underlineStart < 0) {
        QVERIFY(marks.isEmpty());
    } else {
        QCOMPARE(marks.size(), 1);
        QCOMPARE(marks[0].cursor.selectionStart(), underlineStart);
        QCOMPARE(marks[0].cursor.selectedText(), underlined);
        QCOMPARE(marks[0].format.underlineStyle(), QTextCharFormat::WaveUnderline);
        QCOMPARE(marks[0].format.underlineColor().rgb(),
                 status->palette().color(QPalette::WindowText).rgb()); // the error's colour
    }
    QCOMPARE(env.entity(kAuditPath)->rules.size(), 1); // checked here, nothing sent

    edit->setPlainText(fixed);
    QTRY_VERIFY(edit->extraSelections().isEmpty());
    QTRY_VERIFY2(status->text().startsWith(QStringLiteral("Valid")), qPrintable(status->text()));
    QVERIFY(status->isVisibleTo(dialog));
    QVERIFY(dialog->findChild<RuleEditor*>()->sqlFilter()); // the fields are the editor's
}

// R4: an SQL filter with an action is added, and the engine has both; the list shows each
// rule's filter and action. A refusal on Add (a taken name) is still the engine's, inline.
void TestUiEntityRules::rules_R4_sqlFilterWithActionAdded() {
    EntitiesEnv env;
    QPointer<RuleDialog> dialog = openRuleDialog(env);
    QVERIFY(dialog);
    auto* name = dialog->findChild<QLineEdit*>(QStringLiteral("ruleName"));
    QTest::keyClicks(name, QStringLiteral("$Default"));
    chooseFilter(dialog, FilterType::Sql);
    QTest::keyClicks(sqlEditor(dialog, QStringLiteral("sqlExpression")),
                     QStringLiteral("color = 'red' AND quantity > 10"));
    QTest::keyClicks(sqlEditor(dialog, QStringLiteral("sqlAction")),
                     QStringLiteral("SET priority = 'high'; REMOVE draft"));
    auto* filterStatus = dialog->findChild<QLabel*>(QStringLiteral("sqlExpressionStatus"));
    auto* actionStatus = dialog->findChild<QLabel*>(QStringLiteral("sqlActionStatus"));
    QTRY_COMPARE(filterStatus->text(), QStringLiteral("Valid"));
    QTRY_COMPARE(actionStatus->text(), QStringLiteral("Valid · 2 statements"));

    click(dialog, QStringLiteral("addRule"));
    auto* error = dialog->findChild<QLabel*>(QStringLiteral("ruleDialogError"));
    QTRY_VERIFY(error->isVisibleTo(dialog));
    QVERIFY2(error->text().startsWith(QStringLiteral("MessagingEntityAlreadyExists: ")),
             qPrintable(error->text()));
    QCOMPARE(name->text(), QStringLiteral("$Default")); // kept for correction
    QCOMPARE(sqlEditor(dialog, QStringLiteral("sqlAction"))->toPlainText(),
             QStringLiteral("SET priority = 'high'; REMOVE draft"));

    name->setText(QStringLiteral("urgent"));
    click(dialog, QStringLiteral("addRule"));
    QTRY_COMPARE(dialog->ruleNames(),
                 (QStringList{QStringLiteral("$Default"), QStringLiteral("urgent")}));
    QTRY_VERIFY(name->text().isEmpty());
    QVERIFY(sqlEditor(dialog, QStringLiteral("sqlAction"))->toPlainText().isEmpty());
    QVERIFY(!actionStatus->isVisibleTo(dialog)); // an empty action: nothing to say
    const auto rules = env.entity(kAuditPath)->rules;
    QCOMPARE(rules.size(), 2);
    QCOMPARE(rules[1].filterType, FilterType::Sql);
    QCOMPARE(rules[1].sqlExpression, QStringLiteral("color = 'red' AND quantity > 10"));
    QCOMPARE(rules[1].sqlAction, QStringLiteral("SET priority = 'high'; REMOVE draft"));

    auto* list = dialog->findChild<QTreeWidget*>(QStringLiteral("ruleList"));
    QCOMPARE(list->columnCount(), 3);
    QCOMPARE(list->headerItem()->text(RuleDialog::ActionColumn), QStringLiteral("Action"));
    QCOMPARE(list->topLevelItem(1)->text(RuleDialog::FilterColumn),
             QStringLiteral("color = 'red' AND quantity > 10"));
    QCOMPARE(list->topLevelItem(1)->text(RuleDialog::ActionColumn),
             QStringLiteral("SET priority = 'high'; REMOVE draft"));
    QCOMPARE(list->topLevelItem(0)->text(RuleDialog::ActionColumn), QString());
}

// R4: "Correlation filters may carry an action too"; the list names the type of a correlation
// value that is not a string, since the filter compares the type too (R2).
void TestUiEntityRules::rules_R4_correlationFilterWithActionAdded() {
    EntitiesEnv env;
    QPointer<RuleDialog> dialog = openRuleDialog(env);
    QVERIFY(dialog);
    dialog->findChild<QLineEdit*>(QStringLiteral("ruleName"))->setText(QStringLiteral("five"));
    chooseFilter(dialog, FilterType::Correlation);
    dialog->findChild<QLineEdit*>(QStringLiteral("filterSubject"))
        ->setText(QStringLiteral("order"));
    auto* properties = dialog->findChild<PropertyTableEditor*>(QStringLiteral("filterProperties"));
    properties->addRow(QStringLiteral("quantity"), PropertyType::Int32, QStringLiteral("5"));
    properties->addRow(QStringLiteral("color"), PropertyType::String, QStringLiteral("red"));
    QPlainTextEdit* action = sqlEditor(dialog, QStringLiteral("sqlAction"));
    QVERIFY(action->isVisibleTo(dialog)); // offered for every filter type
    action->setPlainText(QStringLiteral("SET sys.To = 'warehouse'"));
    QTRY_COMPARE(dialog->findChild<QLabel*>(QStringLiteral("sqlActionStatus"))->text(),
                 QStringLiteral("Valid · 1 statement"));
    click(dialog, QStringLiteral("addRule"));
    QTRY_COMPARE(dialog->ruleNames(),
                 (QStringList{QStringLiteral("$Default"), QStringLiteral("five")}));

    const auto rules = env.entity(kAuditPath)->rules;
    QCOMPARE(rules.size(), 2);
    QCOMPARE(rules[1].filterType, FilterType::Correlation);
    QCOMPARE(rules[1].correlation.subject, QStringLiteral("order"));
    QCOMPARE(rules[1].correlation.properties.value(QStringLiteral("quantity")), QVariant(int(5)));
    QCOMPARE(rules[1].sqlAction, QStringLiteral("SET sys.To = 'warehouse'"));

    auto* list = dialog->findChild<QTreeWidget*>(QStringLiteral("ruleList"));
    const QString filter = list->topLevelItem(1)->text(RuleDialog::FilterColumn);
    QVERIFY2(filter.contains(QStringLiteral("quantity: 5 (Int32)")), qPrintable(filter));
    QVERIFY2(filter.contains(QStringLiteral("color: red (String)")), qPrintable(filter));
    QVERIFY2(filter.contains(QStringLiteral("Subject: order")), qPrintable(filter));
    QCOMPARE(list->topLevelItem(1)->text(RuleDialog::ActionColumn),
             QStringLiteral("SET sys.To = 'warehouse'"));
}

// R3/R4: keywords, strings, numbers and scopes are highlighted in both editors; a name is a name
// after a scope (user.in), and SET/REMOVE are keywords of actions only.
void TestUiEntityRules::rules_R3_keywordsHighlighted() {
    EntitiesEnv env;
    QPointer<RuleDialog> dialog = openRuleDialog(env);
    QVERIFY(dialog);
    chooseFilter(dialog, FilterType::Sql);
    using Kind = SqlHighlighter::TokenKind;
    const int keyword = int(Kind::Keyword);

    QPlainTextEdit* filter = sqlEditor(dialog, QStringLiteral("sqlExpression"));
    const QString text =
        QStringLiteral("color = 'red' and quantity IN (1, 2.5e3)\n"
                       "OR user.in IS NOT NULL OR sys.Label LIKE 'a\nb' OR set = 1");
    filter->setPlainText(text);
    const auto kindAt = [&](const QString& what, int nth = 0) {
        int from = -1;
        for (int i = 0; i <= nth; ++i)
            from = text.indexOf(what, from + 1);
        return tokenKindAt(filter, from);
    };
    QTRY_COMPARE(kindAt(QStringLiteral("and")), keyword); // case-insensitive
    QCOMPARE(kindAt(QStringLiteral("IN (")), keyword);
    QCOMPARE(kindAt(QStringLiteral("OR")), keyword);
    QCOMPARE(kindAt(QStringLiteral("IS")), keyword);
    QCOMPARE(kindAt(QStringLiteral("NOT")), keyword);
    QCOMPARE(kindAt(QStringLiteral("NULL")), keyword);
    QCOMPARE(kindAt(QStringLiteral("LIKE")), keyword);
    QCOMPARE(kindAt(QStringLiteral("color")), 0);
    QCOMPARE(kindAt(QStringLiteral("'red'")), int(Kind::String));
    QCOMPARE(kindAt(QStringLiteral("b' OR")), int(Kind::String)); // a string over two lines
    QCOMPARE(kindAt(QStringLiteral("1,")), int(Kind::Number));
    QCOMPARE(kindAt(QStringLiteral("e3")), int(Kind::Number));
    QCOMPARE(kindAt(QStringLiteral("user.")), int(Kind::Scope));
    QCOMPARE(kindAt(QStringLiteral("sys.")), int(Kind::Scope));
    QCOMPARE(kindAt(QStringLiteral("in IS")), 0); // a name after its scope
    QCOMPARE(kindAt(QStringLiteral("Label")), 0);
    QCOMPARE(kindAt(QStringLiteral("set =")), 0); // not a filter keyword

    // The keyword format is its own: bold, in a colour other than the text's.
    const QTextBlock first = filter->document()->firstBlock();
    const auto ranges = first.layout()->formats();
    const auto isKeyword = [&](const QTextLayout::FormatRange& r) {
        return r.format.property(SqlHighlighter::kSqlTokenProperty).toInt() == keyword;
    };
    const auto found = std::find_if(ranges.begin(), ranges.end(), isKeyword);
    QVERIFY(found != ranges.end());
    QCOMPARE(found->start, int(text.indexOf(QStringLiteral("and"))));
    QCOMPARE(found->length, 3);
    QCOMPARE(found->format.fontWeight(), int(QFont::Bold));
    const QColor onLight = found->format.foreground().color();
    QVERIFY(onLight != filter->palette().color(QPalette::Text));

    // On a dark palette (the dark theme's base and text) the colours follow, to stay readable.
    QPalette dark = filter->palette();
    dark.setColor(QPalette::Base, QColor(0x1f, 0x21, 0x24));
    dark.setColor(QPalette::Text, QColor(0xe6, 0xe6, 0xe6));
    filter->setPalette(dark);
    const auto keywordColor = [&] {
        const auto now = first.layout()->formats();
        const auto k = std::find_if(now.begin(), now.end(), isKeyword);
        return k == now.end() ? QColor() : k->format.foreground().color();
    };
    QTRY_VERIFY(keywordColor().isValid() && keywordColor() != onLight);
    QVERIFY(keywordColor().lightness() > onLight.lightness());

    QPlainTextEdit* action = sqlEditor(dialog, QStringLiteral("sqlAction"));
    action->setPlainText(QStringLiteral("SET [in] = 'x'; remove draft"));
    QTRY_COMPARE(tokenKindAt(action, 0), keyword);
    QCOMPARE(tokenKindAt(action, 5), 0); // [in]: a delimited name
    QCOMPARE(tokenKindAt(action, 11), int(Kind::String));
    QCOMPARE(tokenKindAt(action, 16), keyword);
}

namespace {
// A correlation rule with system and typed application properties and an action, as the engine
// keeps it.
Rule typedCorrelationRule() {
    Rule rule;
    rule.name = QStringLiteral("typed");
    rule.filterType = FilterType::Correlation;
    rule.correlation.subject = QStringLiteral("order");
    rule.correlation.correlationId = QStringLiteral("c-1");
    rule.correlation.properties.insert(QStringLiteral("quantity"), qint64(5));
    rule.correlation.properties.insert(QStringLiteral("color"), QStringLiteral("red"));
    rule.sqlAction = QStringLiteral("SET seen = 1");
    return rule;
}

// Adds `rule` to the audit subscription through the engine and waits for the dialog to list it.
bool addThroughEngine(EntitiesEnv& env, RuleDialog* dialog, const Rule& rule) {
    if (!env.call([rule](Broker& b) { return b.addRule(kAuditPath, rule); }).ok())
        return false;
    return QTest::qWaitFor([&] { return dialog->ruleNames().contains(rule.name); });
}

QTreeWidgetItem* listed(RuleDialog* dialog, const QString& name) {
    auto* list = dialog->findChild<QTreeWidget*>(QStringLiteral("ruleList"));
    const auto found = list->findItems(name, Qt::MatchExactly, RuleDialog::NameColumn);
    return found.isEmpty() ? nullptr : found.first();
}

PropertyType rowType(PropertyTableEditor* table, int row) {
    auto* chooser = table->findChild<QComboBox*>(QStringLiteral("propertyType%1").arg(row));
    return chooser ? PropertyType(chooser->currentData().toInt()) : PropertyType::Null;
}

QString cellText(PropertyTableEditor* table, int row, int column) {
    const QTableWidgetItem* item = table->table()->item(row, column);
    return item ? item->text() : QString();
}
} // namespace

// An existing rule opens in the form when it is chosen in the list, with every field it sets;
// Save replaces it in one engine call (renamed, retyped); an edit the engine refuses leaves the
// rule as it was; New rule goes back to adding.
void TestUiEntityRules::rules_R2_existingRuleEditedAndReplaced() {
    EntitiesEnv env;
    QPointer<RuleDialog> dialog = openRuleDialog(env);
    QVERIFY(dialog);
    QVERIFY(addThroughEngine(env, dialog, typedCorrelationRule()));
    auto* box = dialog->findChild<QGroupBox*>(QStringLiteral("ruleEditorBox"));
    auto* save = dialog->findChild<QPushButton*>(QStringLiteral("saveRule"));
    QCOMPARE(box->title(), QStringLiteral("Add a rule"));
    QVERIFY(!save->isVisibleTo(dialog));

    auto* list = dialog->findChild<QTreeWidget*>(QStringLiteral("ruleList"));
    list->setCurrentItem(listed(dialog, QStringLiteral("typed")));
    QCOMPARE(dialog->editedRule(), QStringLiteral("typed"));
    QCOMPARE(box->title(), QStringLiteral("Edit rule 'typed'"));
    QVERIFY(save->isVisibleTo(dialog));
    auto* name = dialog->findChild<QLineEdit*>(QStringLiteral("ruleName"));
    QCOMPARE(name->text(), QStringLiteral("typed"));
    auto* subject = dialog->findChild<QLineEdit*>(QStringLiteral("filterSubject"));
    QCOMPARE(subject->text(), QStringLiteral("order"));
    QCOMPARE(sqlEditor(dialog, QStringLiteral("sqlAction"))->toPlainText(),
             QStringLiteral("SET seen = 1"));

    // Renamed, a system property changed, an application property retyped: one replace.
    name->setText(QStringLiteral("invoices"));
    subject->setText(QStringLiteral("invoice"));
    auto* properties = dialog->findChild<PropertyTableEditor*>(QStringLiteral("filterProperties"));
    QCOMPARE(cellText(properties, 1, 0), QStringLiteral("quantity"));
    auto* quantityType = properties->findChild<QComboBox*>(QStringLiteral("propertyType1"));
    quantityType->setCurrentIndex(quantityType->findData(int(PropertyType::Int32)));
    click(dialog, QStringLiteral("saveRule"));
    QTRY_COMPARE(dialog->ruleNames(),
                 (QStringList{QStringLiteral("$Default"), QStringLiteral("invoices")}));
    QTRY_COMPARE(box->title(), QStringLiteral("Edit rule 'invoices'"));
    auto rules = env.entity(kAuditPath)->rules;
    QCOMPARE(rules.size(), 2);
    Rule expected = typedCorrelationRule();
    expected.name = QStringLiteral("invoices");
    expected.correlation.subject = QStringLiteral("invoice");
    expected.correlation.properties.insert(QStringLiteral("quantity"), int(5));
    QCOMPARE(rules[1], expected);
    QCOMPARE(rules[1].correlation.properties.value(QStringLiteral("quantity")).metaType(),
             QMetaType::fromType<int>());

    // An edit the engine refuses: shown inline, the rule unchanged, the form kept.
    chooseFilter(dialog, FilterType::Sql);
    sqlEditor(dialog, QStringLiteral("sqlExpression"))->setPlainText(QStringLiteral("a == 1"));
    click(dialog, QStringLiteral("saveRule"));
    auto* error = dialog->findChild<QLabel*>(QStringLiteral("ruleDialogError"));
    QTRY_VERIFY(error->isVisibleTo(dialog));
    QVERIFY2(error->text().startsWith(QStringLiteral("InvalidArgument: ")),
             qPrintable(error->text()));
    QCOMPARE(env.entity(kAuditPath)->rules, rules);
    QCOMPARE(sqlEditor(dialog, QStringLiteral("sqlExpression"))->toPlainText(),
             QStringLiteral("a == 1"));

    // A valid SQL filter in the correlation filter's place.
    sqlEditor(dialog, QStringLiteral("sqlExpression"))->setPlainText(QStringLiteral("a = 1"));
    click(dialog, QStringLiteral("saveRule"));
    QTRY_COMPARE(env.entity(kAuditPath)->rules[1].filterType, FilterType::Sql);
    QTRY_VERIFY(!error->isVisibleTo(dialog));
    QCOMPARE(env.entity(kAuditPath)->rules[1].sqlExpression, QStringLiteral("a = 1"));

    // New rule: an empty form that adds.
    click(dialog, QStringLiteral("newRule"));
    QCOMPARE(box->title(), QStringLiteral("Add a rule"));
    QVERIFY(!save->isVisibleTo(dialog));
    QVERIFY(name->text().isEmpty());
    QVERIFY(dialog->editedRule().isEmpty());
}

// A correlation filter is shown as one: in the list as "name: value" pairs with each application
// property's type (no SQL operators), in its tooltip one line a value, and in the form on its
// own page with its system properties and a typed row per application property.
void TestUiEntityRules::rules_R2_correlationFilterShownAsItself() {
    EntitiesEnv env;
    QPointer<RuleDialog> dialog = openRuleDialog(env);
    QVERIFY(dialog);
    QVERIFY(addThroughEngine(env, dialog, typedCorrelationRule()));
    QTreeWidgetItem* item = listed(dialog, QStringLiteral("typed"));
    QVERIFY(item);
    const QString summary = item->text(RuleDialog::FilterColumn);
    QCOMPARE(summary, QStringLiteral("Correlation · CorrelationId: c-1 · Subject: order · "
                                     "color: red (String) · quantity: 5 (Int64)"));
    const QString tip = item->toolTip(RuleDialog::FilterColumn);
    QVERIFY2(tip.contains(QStringLiteral("System properties:\n    CorrelationId: c-1\n"
                                         "    Subject: order")),
             qPrintable(tip));
    QVERIFY2(tip.contains(QStringLiteral("Application properties:\n    color: red (String)\n"
                                         "    quantity: 5 (Int64)")),
             qPrintable(tip));

    dialog->findChild<QTreeWidget*>(QStringLiteral("ruleList"))->setCurrentItem(item);
    auto* type = dialog->findChild<QComboBox*>(QStringLiteral("ruleFilterType"));
    QCOMPARE(FilterType(type->currentData().toInt()), FilterType::Correlation);
    QVERIFY(dialog->findChild<QLineEdit*>(QStringLiteral("filterSubject"))->isVisibleTo(dialog));
    QVERIFY(!sqlEditor(dialog, QStringLiteral("sqlExpression"))->isVisibleTo(dialog));
    QCOMPARE(dialog->findChild<QLineEdit*>(QStringLiteral("filterCorrelationId"))->text(),
             QStringLiteral("c-1"));
    QVERIFY(dialog->findChild<QLineEdit*>(QStringLiteral("filterTo"))->text().isEmpty());
    auto* properties = dialog->findChild<PropertyTableEditor*>(QStringLiteral("filterProperties"));
    QCOMPARE(properties->rowCount(), 2);
    QCOMPARE(cellText(properties, 0, 0), QStringLiteral("color"));
    QCOMPARE(rowType(properties, 0), PropertyType::String);
    QCOMPARE(cellText(properties, 0, 2), QStringLiteral("red"));
    QCOMPARE(cellText(properties, 1, 0), QStringLiteral("quantity"));
    QCOMPARE(rowType(properties, 1), PropertyType::Int64);
    QCOMPARE(cellText(properties, 1, 2), QStringLiteral("5"));
    // Read back unchanged, types and all.
    const auto read = dialog->editor()->rule();
    QVERIFY(read.ok());
    QCOMPARE(*read, typedCorrelationRule());
}

QTEST_MAIN(TestUiEntityRules)
#include "tst_ui_entity_rules.moc"
