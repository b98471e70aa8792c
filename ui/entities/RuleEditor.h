#pragma once
// The form of one subscription rule (SEMANTICS.md R2): its name and its filter, true, false,
// correlation (every system field of a correlation filter and its application properties) or
// SQL. The SQL option is offered because Service Bus has it; the engine refuses it for now and
// the dialog shows that refusal, rather than the option being hidden.
//
// Object names: "ruleName", "ruleFilterType", "filterCorrelationId", "filterMessageId",
// "filterTo", "filterReplyTo", "filterSubject", "filterSessionId", "filterReplyToSessionId",
// "filterContentType", "filterProperties" (a PropertyTableEditor), "sqlExpression".

#include "Rule.h"

#include <QWidget>

class QComboBox;
class QFormLayout;
class QLineEdit;
class QPlainTextEdit;
class QStackedWidget;

namespace hourglass::ui {

class PropertyTableEditor;

class RuleEditor : public QWidget {
    Q_OBJECT
public:
    explicit RuleEditor(QWidget* parent = nullptr);

    // The rule as entered; InvalidArgument naming the bad application property row. Bounds and
    // filter sanity are the engine's to check.
    Result<Rule> rule() const;
    void clear();

    QComboBox* filterType() const { return m_filterType; }
    PropertyTableEditor* properties() const { return m_properties; }

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
    QPlainTextEdit* m_sql;
};

// One line describing a rule's filter: "true", "Subject = 'red' AND color = 'blue'", the SQL.
QString filterSummary(const Rule& rule);

} // namespace hourglass::ui
