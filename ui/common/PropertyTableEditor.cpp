#include "common/PropertyTableEditor.h"

#include <QComboBox>
#include <QDateTime>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QSet>
#include <QTableWidget>
#include <QToolButton>
#include <QUuid>
#include <QVBoxLayout>

namespace hourglass::ui {

namespace {

enum Column { NameColumn, TypeColumn, ValueColumn, ColumnCount };

constexpr PropertyTableEditor::ValueType kTypes[] = {
    PropertyTableEditor::ValueType::String, PropertyTableEditor::ValueType::Int,
    PropertyTableEditor::ValueType::Long,   PropertyTableEditor::ValueType::Double,
    PropertyTableEditor::ValueType::Bool,   PropertyTableEditor::ValueType::DateTime,
    PropertyTableEditor::ValueType::Uuid,
};

PropertyTableEditor::ValueType typeOf(const QVariant& value) {
    switch (value.typeId()) {
    case QMetaType::Int:
    case QMetaType::UInt:
    case QMetaType::Short:
    case QMetaType::UShort:
        return PropertyTableEditor::ValueType::Int;
    case QMetaType::LongLong:
    case QMetaType::ULongLong:
    case QMetaType::Long:
    case QMetaType::ULong:
        return PropertyTableEditor::ValueType::Long;
    case QMetaType::Double:
    case QMetaType::Float:
        return PropertyTableEditor::ValueType::Double;
    case QMetaType::Bool:
        return PropertyTableEditor::ValueType::Bool;
    case QMetaType::QDateTime:
        return PropertyTableEditor::ValueType::DateTime;
    case QMetaType::QUuid:
        return PropertyTableEditor::ValueType::Uuid;
    default:
        return PropertyTableEditor::ValueType::String;
    }
}

QString textOf(const QVariant& value) {
    switch (value.typeId()) {
    case QMetaType::QDateTime:
        return value.toDateTime().toUTC().toString(Qt::ISODateWithMs);
    case QMetaType::QUuid:
        return value.toUuid().toString(QUuid::WithoutBraces);
    case QMetaType::Bool:
        return value.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    default:
        return value.toString();
    }
}

// The value of `text` as `type`, or an invalid QVariant when it does not parse.
QVariant parse(const QString& text, PropertyTableEditor::ValueType type) {
    bool ok = false;
    const QString t = text.trimmed();
    switch (type) {
    case PropertyTableEditor::ValueType::String:
        return text;
    case PropertyTableEditor::ValueType::Int: {
        const int v = t.toInt(&ok);
        return ok ? QVariant(v) : QVariant();
    }
    case PropertyTableEditor::ValueType::Long: {
        const qlonglong v = t.toLongLong(&ok);
        return ok ? QVariant(v) : QVariant();
    }
    case PropertyTableEditor::ValueType::Double: {
        const double v = t.toDouble(&ok);
        return ok ? QVariant(v) : QVariant();
    }
    case PropertyTableEditor::ValueType::Bool:
        if (t.compare(QLatin1String("true"), Qt::CaseInsensitive) == 0 || t == QLatin1String("1"))
            return true;
        if (t.compare(QLatin1String("false"), Qt::CaseInsensitive) == 0 || t == QLatin1String("0"))
            return false;
        return {};
    case PropertyTableEditor::ValueType::DateTime: {
        const QDateTime v = QDateTime::fromString(t, Qt::ISODateWithMs);
        return v.isValid() ? QVariant(v) : QVariant();
    }
    case PropertyTableEditor::ValueType::Uuid: {
        const QUuid v(t);
        return v.isNull() ? QVariant() : QVariant(v);
    }
    }
    return {};
}

QString expected(PropertyTableEditor::ValueType type) {
    switch (type) {
    case PropertyTableEditor::ValueType::Int:
        return QStringLiteral("a 32-bit integer");
    case PropertyTableEditor::ValueType::Long:
        return QStringLiteral("a 64-bit integer");
    case PropertyTableEditor::ValueType::Double:
        return QStringLiteral("a number such as 2.5");
    case PropertyTableEditor::ValueType::Bool:
        return QStringLiteral("true or false");
    case PropertyTableEditor::ValueType::DateTime:
        return QStringLiteral("an ISO-8601 date and time such as 2026-01-31T12:00:00Z");
    case PropertyTableEditor::ValueType::Uuid:
        return QStringLiteral("a UUID");
    case PropertyTableEditor::ValueType::String:
        break;
    }
    return QStringLiteral("text");
}

} // namespace

QString PropertyTableEditor::typeName(ValueType type) {
    switch (type) {
    case ValueType::String:
        return QStringLiteral("string");
    case ValueType::Int:
        return QStringLiteral("int");
    case ValueType::Long:
        return QStringLiteral("long");
    case ValueType::Double:
        return QStringLiteral("double");
    case ValueType::Bool:
        return QStringLiteral("bool");
    case ValueType::DateTime:
        return QStringLiteral("datetime");
    case ValueType::Uuid:
        return QStringLiteral("uuid");
    }
    return {};
}

PropertyTableEditor::PropertyTableEditor(QWidget* parent)
    : QWidget(parent)
    , m_table(new QTableWidget(0, ColumnCount))
    , m_add(new QToolButton)
    , m_remove(new QToolButton) {
    m_table->setObjectName(QStringLiteral("propertyTable"));
    m_add->setObjectName(QStringLiteral("addProperty"));
    m_remove->setObjectName(QStringLiteral("removeProperty"));
    m_table->setHorizontalHeaderLabels({tr("Name"), tr("Type"), tr("Value")});
    m_table->horizontalHeader()->setSectionResizeMode(NameColumn, QHeaderView::Interactive);
    m_table->horizontalHeader()->setSectionResizeMode(TypeColumn, QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->verticalHeader()->hide();
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_add->setText(QStringLiteral("+"));
    m_add->setToolTip(tr("Add a property"));
    m_remove->setText(QStringLiteral("−"));
    m_remove->setToolTip(tr("Remove the selected properties"));

    auto* buttons = new QHBoxLayout;
    buttons->setContentsMargins(0, 0, 0, 0);
    buttons->addWidget(m_add);
    buttons->addWidget(m_remove);
    buttons->addStretch(1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_table, 1);
    layout->addLayout(buttons);

    connect(m_add, &QToolButton::clicked, this, [this] {
        const int row = addRow();
        m_table->setCurrentCell(row, NameColumn);
        m_table->editItem(m_table->item(row, NameColumn));
    });
    connect(m_remove, &QToolButton::clicked, this, [this] {
        QList<int> rows;
        for (const QModelIndex& index : m_table->selectionModel()->selectedRows())
            rows.append(index.row());
        if (rows.isEmpty() && m_table->currentRow() >= 0)
            rows.append(m_table->currentRow());
        std::sort(rows.begin(), rows.end(), std::greater<>());
        for (int row : rows)
            m_table->removeRow(row);
        emit edited();
    });
    connect(m_table, &QTableWidget::itemChanged, this, &PropertyTableEditor::edited);
}

void PropertyTableEditor::setProperties(const QVariantMap& properties) {
    clear();
    for (auto it = properties.cbegin(); it != properties.cend(); ++it)
        addRow(it.key(), typeOf(it.value()), textOf(it.value()));
}

int PropertyTableEditor::addRow(const QString& name, ValueType type, const QString& value) {
    const int row = m_table->rowCount();
    m_table->insertRow(row);
    m_table->setItem(row, NameColumn, new QTableWidgetItem(name));
    auto* types = new QComboBox;
    types->setObjectName(QStringLiteral("propertyType%1").arg(row));
    for (ValueType t : kTypes)
        types->addItem(typeName(t), int(t));
    types->setCurrentIndex(types->findData(int(type)));
    connect(types, &QComboBox::currentIndexChanged, this, &PropertyTableEditor::edited);
    m_table->setCellWidget(row, TypeColumn, types);
    m_table->setItem(row, ValueColumn, new QTableWidgetItem(value));
    emit edited();
    return row;
}

int PropertyTableEditor::rowCount() const {
    return m_table->rowCount();
}

void PropertyTableEditor::clear() {
    m_table->setRowCount(0);
}

Result<QVariantMap> PropertyTableEditor::properties() const {
    QVariantMap result;
    QSet<QString> seen;
    for (int row = 0; row < m_table->rowCount(); ++row) {
        const QTableWidgetItem* nameItem = m_table->item(row, NameColumn);
        const QTableWidgetItem* valueItem = m_table->item(row, ValueColumn);
        const QString name = nameItem ? nameItem->text().trimmed() : QString();
        const QString text = valueItem ? valueItem->text() : QString();
        if (name.isEmpty() && text.isEmpty())
            continue;
        if (name.isEmpty())
            return Error::make(
                ErrorCode::InvalidArgument,
                tr("Application property in row %1 has a value but no name.").arg(row + 1));
        if (seen.contains(name))
            return Error::make(
                ErrorCode::InvalidArgument,
                tr("Application property '%1' appears twice (row %2).").arg(name).arg(row + 1));
        seen.insert(name);
        const auto* types = qobject_cast<const QComboBox*>(m_table->cellWidget(row, TypeColumn));
        const ValueType type = types ? ValueType(types->currentData().toInt()) : ValueType::String;
        const QVariant value = parse(text, type);
        if (!value.isValid())
            return Error::make(
                ErrorCode::InvalidArgument,
                tr("Application property '%1': '%2' is not %3.").arg(name, text, expected(type)));
        result.insert(name, value);
    }
    return result;
}

} // namespace hourglass::ui
