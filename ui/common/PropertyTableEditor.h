#pragma once
// An editable table of application properties: one row per property with its name, its type and
// its value as text. Service Bus application properties are typed (AMQP simple types), so the
// type is chosen per row rather than guessed from the text; properties() parses every row and
// names the first bad one, so that a form can refuse it inline before anything is sent.
//
// Used by the send dialog, by abandon/defer/dead-letter with property changes, and anywhere a
// QVariantMap of application properties is edited.
//
// Object names for tests: "propertyTable", "addProperty", "removeProperty".

#include "Status.h"

#include <QVariantMap>
#include <QWidget>

class QTableWidget;
class QToolButton;

namespace hourglass::ui {

class PropertyTableEditor : public QWidget {
    Q_OBJECT
public:
    // The value types offered, as shown in the type column.
    enum class ValueType { String, Int, Long, Double, Bool, DateTime, Uuid };
    static QString typeName(ValueType type);

    explicit PropertyTableEditor(QWidget* parent = nullptr);

    // Replaces every row; each value's type is taken from its QVariant type.
    void setProperties(const QVariantMap& properties);
    // Every row parsed as its type. Rows with an empty name and value are skipped. An empty or
    // repeated name, or a value that does not parse as its type, gives InvalidArgument naming
    // the row.
    Result<QVariantMap> properties() const;
    // Adds a row (also what the "+" button does); returns its index.
    int addRow(const QString& name = {}, ValueType type = ValueType::String,
               const QString& value = {});
    int rowCount() const;
    void clear();
    QTableWidget* table() const { return m_table; }

signals:
    void edited();

private:
    QTableWidget* m_table;
    QToolButton* m_add;
    QToolButton* m_remove;
};

} // namespace hourglass::ui
