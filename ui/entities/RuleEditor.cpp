#include "entities/RuleEditor.h"

#include "common/PropertyTableEditor.h"
#include "entities/SqlExpressionField.h"
#include "hourglass/PropertyTypes.h"

#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QRegularExpression>
#include <QStackedWidget>
#include <QStringList>
#include <QVBoxLayout>

#include <utility>

namespace hourglass::ui {

namespace {
// Pages of the filter stack, in the order of the filter type combo.
enum Page { NoFieldsPage, CorrelationPage, SqlPage };

// The two forms (name and filter above, the correlation fields below) share one label width so
// their fields line up.
QLabel* caption(const QString& text, QWidget* parent) {
    auto* label = new QLabel(text, parent);
    label->setMinimumWidth(
        label->fontMetrics().horizontalAdvance(RuleEditor::tr("Application properties")) + 8);
    return label;
}

// An application property of a correlation filter as the list shows it: its value and its type,
// since the filter compares the type as well as the value (R2: Int64 5 does not match Int32 5).
QString typedValueText(const QVariant& value) {
    if (!value.isValid() || propertyTypeOf(value) == PropertyType::Null)
        return QStringLiteral("null");
    return QStringLiteral("%1 (%2)").arg(propertyText(value), propertyTypeNameOf(value));
}

// The system properties a correlation filter sets, as (name, value) pairs in the form's order.
QList<std::pair<QString, QString>> systemTerms(const CorrelationFilter& c) {
    QList<std::pair<QString, QString>> terms;
    const auto add = [&terms](const char* name, const QString& value) {
        if (!value.isEmpty())
            terms.append({QLatin1String(name), value});
    };
    add("CorrelationId", c.correlationId);
    add("MessageId", c.messageId);
    add("To", c.to);
    add("ReplyTo", c.replyTo);
    add("Subject", c.subject);
    add("SessionId", c.sessionId);
    add("ReplyToSessionId", c.replyToSessionId);
    add("ContentType", c.contentType);
    return terms;
}

// A text typed on several lines, on one line for a list cell: each line break with the
// indentation around it becomes one space.
QString oneLine(const QString& text) {
    static const QRegularExpression lineBreak(QStringLiteral("[ \\t]*[\\r\\n]+[ \\t]*"));
    QString line = text;
    return line.replace(lineBreak, QStringLiteral(" "));
}
} // namespace

QString actionSummary(const Rule& rule) {
    return oneLine(rule.sqlAction);
}

QString filterSummary(const Rule& rule) {
    switch (rule.filterType) {
    case FilterType::True:
        return QStringLiteral("true");
    case FilterType::False:
        return QStringLiteral("false");
    case FilterType::Sql:
        return oneLine(rule.sqlExpression);
    case FilterType::Correlation:
        break;
    }
    // Named as a correlation filter, as "name: value" pairs: not as SQL, which it is not (no
    // operators, every value compared for equality with its type).
    QStringList terms;
    for (const auto& [name, value] : systemTerms(rule.correlation))
        terms << QStringLiteral("%1: %2").arg(name, value);
    const QVariantMap& properties = rule.correlation.properties;
    for (auto it = properties.begin(); it != properties.end(); ++it)
        terms << QStringLiteral("%1: %2").arg(it.key(), typedValueText(it.value()));
    return RuleEditor::tr("Correlation · %1").arg(terms.join(QStringLiteral(" · ")));
}

QString filterDescription(const Rule& rule) {
    if (rule.filterType != FilterType::Correlation)
        return rule.filterType == FilterType::Sql ? rule.sqlExpression : filterSummary(rule);
    QStringList lines{RuleEditor::tr("Correlation filter (every value must be equal):")};
    const QList<std::pair<QString, QString>> system = systemTerms(rule.correlation);
    if (!system.isEmpty()) {
        lines << RuleEditor::tr("System properties:");
        for (const auto& [name, value] : system)
            lines << QStringLiteral("    %1: %2").arg(name, value);
    }
    const QVariantMap& properties = rule.correlation.properties;
    if (!properties.isEmpty()) {
        lines << RuleEditor::tr("Application properties:");
        for (auto it = properties.begin(); it != properties.end(); ++it)
            lines << QStringLiteral("    %1: %2").arg(it.key(), typedValueText(it.value()));
    }
    return lines.join(QLatin1Char('\n'));
}

RuleEditor::RuleEditor(QWidget* parent)
    : QWidget(parent)
    , m_name(new QLineEdit(this))
    , m_filterType(new QComboBox(this))
    , m_pages(new QStackedWidget(this))
    , m_properties(new PropertyTableEditor(this))
    , m_sql(new SqlExpressionField(SqlExpressionField::Language::Filter,
                                   QStringLiteral("sqlExpression"), this))
    , m_action(new SqlExpressionField(SqlExpressionField::Language::Action,
                                      QStringLiteral("sqlAction"), this)) {
    m_name->setObjectName(QStringLiteral("ruleName"));
    m_name->setPlaceholderText(tr("1-50 letters, digits, '.', '-', '_'"));
    m_filterType->setObjectName(QStringLiteral("ruleFilterType"));
    m_filterType->addItem(tr("True (every message)"), int(FilterType::True));
    m_filterType->addItem(tr("False (no message)"), int(FilterType::False));
    m_filterType->addItem(tr("Correlation"), int(FilterType::Correlation));
    m_filterType->addItem(tr("SQL"), int(FilterType::Sql));

    auto* none = new QLabel(tr("This filter has no fields."), m_pages);
    none->setEnabled(false);
    none->setAlignment(Qt::AlignTop | Qt::AlignLeft);

    auto* correlation = new QWidget(m_pages);
    auto* fields = new QFormLayout(correlation);
    fields->setContentsMargins(0, 0, 0, 0);
    m_correlationId =
        addCorrelationField(QStringLiteral("filterCorrelationId"), tr("Correlation id"), fields);
    m_messageId = addCorrelationField(QStringLiteral("filterMessageId"), tr("Message id"), fields);
    m_to = addCorrelationField(QStringLiteral("filterTo"), tr("To"), fields);
    m_replyTo = addCorrelationField(QStringLiteral("filterReplyTo"), tr("Reply to"), fields);
    m_subject = addCorrelationField(QStringLiteral("filterSubject"), tr("Subject"), fields);
    m_sessionId = addCorrelationField(QStringLiteral("filterSessionId"), tr("Session id"), fields);
    m_replyToSessionId = addCorrelationField(QStringLiteral("filterReplyToSessionId"),
                                             tr("Reply to session id"), fields);
    m_contentType =
        addCorrelationField(QStringLiteral("filterContentType"), tr("Content type"), fields);
    m_properties->setObjectName(QStringLiteral("filterProperties"));
    fields->addRow(caption(tr("Application properties"), correlation), m_properties);

    auto* sql = new QWidget(m_pages);
    auto* sqlForm = new QFormLayout(sql);
    sqlForm->setContentsMargins(0, 0, 0, 0);
    m_sql->editor()->setPlaceholderText(tr("e.g. color = 'red' AND sys.Label LIKE 'order%'"));
    m_sql->editor()->setToolTip(
        tr("A predicate over sys. (system) and user. (application) properties: comparisons, "
           "AND, OR, NOT, LIKE, IN, IS NULL, EXISTS. Checked as you type."));
    sqlForm->addRow(caption(tr("Expression"), sql), m_sql);

    m_pages->addWidget(none);
    m_pages->addWidget(correlation);
    m_pages->addWidget(sql);

    m_action->editor()->setPlaceholderText(
        tr("optional, e.g. SET priority = 'high'; REMOVE draft"));
    m_action->editor()->setToolTip(
        tr("SET and REMOVE statements run on this rule's own copy of each message it matches; "
           "that copy also gets the property RuleName. Empty: no action."));
    // A few lines: actions are short, and the filter above is what the form is about.
    m_action->editor()->setFixedHeight(m_action->editor()->fontMetrics().lineSpacing() * 3 +
                                       2 * m_action->editor()->frameWidth() + 8);

    auto* top = new QFormLayout;
    top->setContentsMargins(0, 0, 0, 0);
    top->addRow(caption(tr("Rule name"), this), m_name);
    top->addRow(caption(tr("Filter"), this), m_filterType);
    auto* bottom = new QFormLayout;
    bottom->setContentsMargins(0, 0, 0, 0);
    bottom->addRow(caption(tr("Action"), this), m_action);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(top);
    layout->addWidget(m_pages, 1);
    layout->addLayout(bottom);

    connect(m_filterType, &QComboBox::currentIndexChanged, this, [this] {
        switch (FilterType(m_filterType->currentData().toInt())) {
        case FilterType::True:
        case FilterType::False:
            m_pages->setCurrentIndex(NoFieldsPage);
            break;
        case FilterType::Correlation:
            m_pages->setCurrentIndex(CorrelationPage);
            break;
        case FilterType::Sql:
            m_pages->setCurrentIndex(SqlPage);
            break;
        }
    });
}

QLineEdit* RuleEditor::addCorrelationField(const QString& objectName, const QString& label,
                                           QFormLayout* layout) {
    auto* edit = new QLineEdit(this);
    edit->setObjectName(objectName);
    edit->setPlaceholderText(tr("any"));
    layout->addRow(caption(label, edit->parentWidget()), edit);
    return edit;
}

Result<Rule> RuleEditor::rule() const {
    Rule rule;
    rule.name = m_name->text().trimmed();
    rule.filterType = FilterType(m_filterType->currentData().toInt());
    rule.sqlAction = m_action->text(); // R4: any filter type may carry an action
    if (rule.filterType == FilterType::Sql)
        rule.sqlExpression = m_sql->text();
    if (rule.filterType != FilterType::Correlation)
        return rule;
    CorrelationFilter& c = rule.correlation;
    c.correlationId = m_correlationId->text();
    c.messageId = m_messageId->text();
    c.to = m_to->text();
    c.replyTo = m_replyTo->text();
    c.subject = m_subject->text();
    c.sessionId = m_sessionId->text();
    c.replyToSessionId = m_replyToSessionId->text();
    c.contentType = m_contentType->text();
    auto properties = m_properties->properties();
    if (!properties)
        return properties.error();
    c.properties = *properties;
    return rule;
}

void RuleEditor::setRule(const Rule& rule) {
    clear();
    m_name->setText(rule.name);
    m_filterType->setCurrentIndex(m_filterType->findData(int(rule.filterType)));
    const CorrelationFilter& c = rule.correlation;
    m_correlationId->setText(c.correlationId);
    m_messageId->setText(c.messageId);
    m_to->setText(c.to);
    m_replyTo->setText(c.replyTo);
    m_subject->setText(c.subject);
    m_sessionId->setText(c.sessionId);
    m_replyToSessionId->setText(c.replyToSessionId);
    m_contentType->setText(c.contentType);
    m_properties->setProperties(c.properties); // each row with its value's own type
    if (rule.filterType == FilterType::Sql)
        m_sql->editor()->setPlainText(rule.sqlExpression);
    m_action->editor()->setPlainText(rule.sqlAction);
    checkSql(); // a stored rule is valid: say so at once rather than after the debounce
}

void RuleEditor::clear() {
    for (QLineEdit* edit : {m_name, m_correlationId, m_messageId, m_to, m_replyTo, m_subject,
                            m_sessionId, m_replyToSessionId, m_contentType})
        edit->clear();
    m_properties->clear();
    m_sql->clear();
    m_action->clear();
}

void RuleEditor::checkSql() {
    m_sql->check();
    m_action->check();
}

} // namespace hourglass::ui
