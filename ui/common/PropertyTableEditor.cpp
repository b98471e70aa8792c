#include "common/PropertyTableEditor.h"

#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QSet>
#include <QStyle>
#include <QTableWidget>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace hourglass::ui {

namespace {

enum Column { NameColumn, TypeColumn, ValueColumn, ColumnCount };

// The value keeps at least this much room when the names are long: it is what is being sent.
constexpr int kMinimumValueWidth = 140;

// A chooser of every property type, its items named as Service Bus names them.
QComboBox* makeTypeChooser() {
    auto* types = new QComboBox;
    for (PropertyType t : allPropertyTypes())
        types->addItem(propertyTypeName(t), int(t));
    return types;
}

} // namespace

PropertyTableEditor::PropertyTableEditor(QWidget* parent)
    : QWidget(parent)
    , m_table(new QTableWidget(0, ColumnCount))
    , m_add(new QToolButton)
    , m_remove(new QToolButton) {
    m_table->setObjectName(QStringLiteral("propertyTable"));
    m_add->setObjectName(QStringLiteral("addProperty"));
    m_remove->setObjectName(QStringLiteral("removeProperty"));
    m_table->setHorizontalHeaderLabels({tr("Name"), tr("Type"), tr("Value")});
    // Fitted to the longest name (fitNameColumn), so "customerReference" is not cut to "custome…";
    // still the user's to drag.
    m_table->horizontalHeader()->setSectionResizeMode(NameColumn, QHeaderView::Interactive);
    // Fixed to the chooser's widest name: ResizeToContents measured the (empty) items under the
    // choosers and cut the names to "st".
    m_table->horizontalHeader()->setSectionResizeMode(TypeColumn, QHeaderView::Fixed);
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
    connect(m_table, &QTableWidget::itemChanged, this, [this](QTableWidgetItem* item) {
        // A text longer than its cell is elided: the tooltip has it whole. (Setting it changes
        // the item once more; the second time it is already equal.)
        if (item->toolTip() != item->text())
            item->setToolTip(item->text());
        if (item->column() == NameColumn)
            fitNameColumn();
    });
    m_table->viewport()->installEventFilter(this);
    fitTypeColumn();
    fitNameColumn();
}

void PropertyTableEditor::fitNameColumn() {
    QHeaderView* header = m_table->horizontalHeader();
    // The cell's text margins on both sides, as the style draws an item (and the editor's frame
    // while a name is typed).
    const int padding =
        2 * (m_table->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, m_table) + 1) + 8;
    const QFontMetrics metrics(m_table->font());
    // Room for a usual name even before one is typed.
    int wanted = std::max(header->sectionSizeHint(NameColumn),
                          metrics.horizontalAdvance(QStringLiteral("correlationKey")) + padding);
    for (int row = 0; row < m_table->rowCount(); ++row)
        if (const QTableWidgetItem* item = m_table->item(row, NameColumn))
            wanted = std::max(wanted, metrics.horizontalAdvance(item->text()) + padding);
    // A very long name leaves the value its room, and is elided (its tooltip has it whole).
    const int available =
        m_table->viewport()->width() - header->sectionSize(TypeColumn) - kMinimumValueWidth;
    header->resizeSection(NameColumn, std::max(header->sectionSizeHint(NameColumn),
                                               std::min(wanted, std::max(available, 0))));
}

bool PropertyTableEditor::eventFilter(QObject* watched, QEvent* event) {
    // The room the value is left depends on the viewport's width: refit when it changes.
    if (watched == m_table->viewport() && event->type() == QEvent::Resize)
        fitNameColumn();
    return QWidget::eventFilter(watched, event);
}

void PropertyTableEditor::fitTypeColumn() {
    // A chooser holding every name, styled as the rows' ones will be, gives the width they need.
    QComboBox* probe = makeTypeChooser();
    probe->setParent(m_table->viewport());
    probe->ensurePolished();
    const int width = std::max(probe->sizeHint().width(),
                               m_table->horizontalHeader()->sectionSizeHint(TypeColumn));
    // Rows as tall as the chooser, so that it is drawn whole rather than clipped top and bottom.
    QHeaderView* rows = m_table->verticalHeader();
    rows->setMinimumSectionSize(probe->sizeHint().height());
    rows->setDefaultSectionSize(std::max(rows->defaultSectionSize(), probe->sizeHint().height()));
    delete probe;
    // A cell widget gets the section less the grid line.
    const int gridLine = m_table->showGrid() ? 1 : 0;
    m_table->horizontalHeader()->resizeSection(TypeColumn, width + gridLine);
}

void PropertyTableEditor::changeEvent(QEvent* event) {
    if (event->type() == QEvent::StyleChange || event->type() == QEvent::FontChange) {
        fitTypeColumn();
        fitNameColumn();
    }
    QWidget::changeEvent(event);
}

void PropertyTableEditor::setProperties(const QVariantMap& properties) {
    clear();
    for (auto it = properties.cbegin(); it != properties.cend(); ++it)
        addRow(it.key(), propertyTypeOf(it.value()).value_or(PropertyType::String),
               propertyText(it.value()));
}

int PropertyTableEditor::addRow(const QString& name, PropertyType type, const QString& value) {
    const int row = m_table->rowCount();
    m_table->insertRow(row);
    auto* nameItem = new QTableWidgetItem(name);
    nameItem->setToolTip(name);
    m_table->setItem(row, NameColumn, nameItem);
    QComboBox* types = makeTypeChooser();
    types->setObjectName(QStringLiteral("propertyType%1").arg(row));
    types->setCurrentIndex(types->findData(int(type)));
    connect(types, &QComboBox::currentIndexChanged, this, &PropertyTableEditor::edited);
    m_table->setCellWidget(row, TypeColumn, types);
    auto* valueItem = new QTableWidgetItem(value);
    valueItem->setToolTip(value);
    m_table->setItem(row, ValueColumn, valueItem);
    fitNameColumn();
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
        const PropertyType type =
            types ? PropertyType(types->currentData().toInt()) : PropertyType::String;
        const auto value = propertyFromText(type, text);
        if (!value)
            return Error::make(ErrorCode::InvalidArgument,
                               tr("Application property '%1': '%2' is not %3.")
                                   .arg(name, text, propertyTypeExpectation(type)));
        result.insert(name, *value);
    }
    return result;
}

} // namespace hourglass::ui
