#include "entities/RuleEditor.h"

#include "common/PropertyTableEditor.h"

#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QStackedWidget>
#include <QStringList>
#include <QVBoxLayout>

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

QString quoted(const QVariant& value) {
    return value.typeId() == QMetaType::QString
               ? QLatin1Char('\'') + value.toString() + QLatin1Char('\'')
               : value.toString();
}
} // namespace

QString filterSummary(const Rule& rule) {
    switch (rule.filterType) {
    case FilterType::True:
        return QStringLiteral("true");
    case FilterType::False:
        return QStringLiteral("false");
    case FilterType::Sql:
        return rule.sqlExpression;
    case FilterType::Correlation:
        break;
    }
    const CorrelationFilter& c = rule.correlation;
    QStringList terms;
    const auto add = [&terms](const char* name, const QString& value) {
        if (!value.isEmpty())
            terms << QStringLiteral("%1 = '%2'").arg(QLatin1String(name), value);
    };
    add("CorrelationId", c.correlationId);
    add("MessageId", c.messageId);
    add("To", c.to);
    add("ReplyTo", c.replyTo);
    add("Subject", c.subject);
    add("SessionId", c.sessionId);
    add("ReplyToSessionId", c.replyToSessionId);
    add("ContentType", c.contentType);
    for (auto it = c.properties.begin(); it != c.properties.end(); ++it)
        terms << QStringLiteral("%1 = %2").arg(it.key(), quoted(it.value()));
    return terms.join(QStringLiteral(" AND "));
}

RuleEditor::RuleEditor(QWidget* parent)
    : QWidget(parent)
    , m_name(new QLineEdit(this))
    , m_filterType(new QComboBox(this))
    , m_pages(new QStackedWidget(this))
    , m_properties(new PropertyTableEditor(this))
    , m_sql(new QPlainTextEdit(this)) {
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

    m_sql->setObjectName(QStringLiteral("sqlExpression"));
    m_sql->setPlaceholderText(tr("e.g. color = 'red' AND sys.Label LIKE 'order%'"));

    m_pages->addWidget(none);
    m_pages->addWidget(correlation);
    m_pages->addWidget(m_sql);

    auto* top = new QFormLayout;
    top->setContentsMargins(0, 0, 0, 0);
    top->addRow(caption(tr("Rule name"), this), m_name);
    top->addRow(caption(tr("Filter"), this), m_filterType);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(top);
    layout->addWidget(m_pages, 1);

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
    if (rule.filterType == FilterType::Sql)
        rule.sqlExpression = m_sql->toPlainText().trimmed();
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

void RuleEditor::clear() {
    for (QLineEdit* edit : {m_name, m_correlationId, m_messageId, m_to, m_replyTo, m_subject,
                            m_sessionId, m_replyToSessionId, m_contentType})
        edit->clear();
    m_properties->clear();
    m_sql->clear();
}

} // namespace hourglass::ui
