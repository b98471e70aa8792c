#pragma once
// The form of one subscription rule (service-bus-rules.md R2-R4): its name, its filter (true,
// false, correlation with every system field and its typed application properties, or an SQL
// expression) and an optional SQL action, which every filter type may carry (R4). The SQL filter
// and the action are edited as highlighted text and checked as they are typed, with the engine's
// compiler (SqlExpressionField); the engine checks the whole rule again when it is added.
//
// Object names: "ruleName", "ruleFilterType", "filterCorrelationId", "filterMessageId",
// "filterTo", "filterReplyTo", "filterSubject", "filterSessionId", "filterReplyToSessionId",
// "filterContentType", "filterProperties" (a PropertyTableEditor), and the SqlExpressionFields
// "sqlExpression" (the filter) and "sqlAction" (with their "...Status" and "...CheckTimer").

#include "hourglass/Rule.h"

#include <QWidget>

class QComboBox;
class QFormLayout;
class QLineEdit;
class QStackedWidget;

namespace hourglass::ui {

class PropertyTableEditor;
class SqlExpressionField;

class RuleEditor : public QWidget {
    Q_OBJECT
public:
    explicit RuleEditor(QWidget* parent = nullptr);

    // The rule as entered; InvalidArgument naming the bad application property row. Bounds and
    // filter sanity are the engine's to check.
    Result<Rule> rule() const;
    // Shows `rule` for editing: its name, its filter's page with every field it sets (a
    // correlation filter's application properties each with its type), and its action.
    void setRule(const Rule& rule);
    void clear();

    QComboBox* filterType() const { return m_filterType; }
    PropertyTableEditor* properties() const { return m_properties; }
    SqlExpressionField* sqlFilter() const { return m_sql; }
    SqlExpressionField* sqlAction() const { return m_action; }
    // Checks the SQL filter and action now rather than after their debounce.
    void checkSql();

private:
    QLineEdit* addCorrelationField(const QString& objectName, const QString& label,
                                   QFormLayout* layout);

    QLineEdit* m_name;
    QComboBox* m_filterType;
    QStackedWidget* m_pages;
    QLineEdit* m_correlationId;
    QLineEdit* m_messageId;
    QLineEdit* m_to;
    QLineEdit* m_replyTo;
    QLineEdit* m_subject;
    QLineEdit* m_sessionId;
    QLineEdit* m_replyToSessionId;
    QLineEdit* m_contentType;
    PropertyTableEditor* m_properties;
    SqlExpressionField* m_sql;
    SqlExpressionField* m_action;
};

// One line describing a rule's filter: "true", "false", the SQL text on one line, or a
// correlation filter as itself: "Correlation · Subject: red · quantity: 5 (Int32)" (every
// application property names its Service Bus type, as the filter compares the type too).
QString filterSummary(const Rule& rule);
// The filter whole, for a tooltip: the SQL text as written, or a correlation filter's system
// properties and typed application properties one a line.
QString filterDescription(const Rule& rule);
// The rule's action on one line; empty for none.
QString actionSummary(const Rule& rule);

} // namespace hourglass::ui
