#pragma once
// An editable table of application properties: one row per property with its name, its type and
// its value as text. Service Bus application properties are typed (AMQP simple types), so the
// type is chosen per row rather than guessed from the text; properties() parses every row and
// names the first bad one, so that a form can refuse it inline before anything is sent.
//
// Used by the send dialog, by abandon/defer/dead-letter with property changes, and anywhere a
// QVariantMap of application properties is edited.
//
// Types are named and parsed as Service Bus names them (engine/PropertyTypes.h: Int32, Int64,
// String, DateTime...). The type column is as wide as its longest name, the rows as tall as its
// chooser; the name column as wide as the longest name typed (the value keeps at least 140 px)
// and the value takes the rest, so a row reads whole at the dialogs' default sizes.
//
// Object names for tests: "propertyTable", "addProperty", "removeProperty", and
// "propertyType<row>" for each row's type chooser.

#include "hourglass/PropertyTypes.h"
#include "hourglass/Status.h"

#include <QVariantMap>
#include <QWidget>

class QTableWidget;
class QToolButton;

namespace hourglass::ui {

class PropertyTableEditor : public QWidget {
    Q_OBJECT
public:
    explicit PropertyTableEditor(QWidget* parent = nullptr);

    // Replaces every row; each value's type is taken from its QVariant type.
    void setProperties(const QVariantMap& properties);
    // Every row parsed as its type. Rows with an empty name and value are skipped. An empty or
    // repeated name, or a value that does not parse as its type, gives InvalidArgument naming
    // the row.
    Result<QVariantMap> properties() const;
    // Adds a row (also what the "+" button does); returns its index.
    int addRow(const QString& name = {}, PropertyType type = PropertyType::String,
               const QString& value = {});
    int rowCount() const;
    void clear();
    QTableWidget* table() const { return m_table; }

signals:
    void edited();

protected:
    void changeEvent(QEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    // Sizes the type column to its longest type name in the current style and font.
    void fitTypeColumn();
    // Sizes the name column to its longest name, leaving the value its minimum.
    void fitNameColumn();

    QTableWidget* m_table;
    QToolButton* m_add;
    QToolButton* m_remove;
};

} // namespace hourglass::ui
