#include "common/ColumnLayout.h"

#include <QAbstractItemModel>
#include <QAbstractItemView>
#include <QAction>
#include <QHeaderView>
#include <QSettings>
#include <QSignalBlocker>

#include <algorithm>

namespace hourglass::ui {

namespace {
// Cell padding of the styles we ship (Fusion and the platform's), with a little air.
constexpr int kCellPadding = 20;
// A header section's margins around its title.
constexpr int kTitlePadding = 12;
// The header's sort indicator takes room beside the title of a sortable column.
constexpr int kSortIndicator = 16;

QString joined(const QList<int>& numbers) {
    QStringList texts;
    for (int n : numbers)
        texts.append(QString::number(n));
    return texts.join(QLatin1Char(','));
}

QList<int> numbersOf(const QString& text) {
    QList<int> numbers;
    for (const QString& part : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        bool ok = false;
        const int n = part.toInt(&ok);
        if (ok)
            numbers.append(n);
    }
    return numbers;
}

QString orderKey(const QString& group) {
    return group + QStringLiteral("/order");
}
QString hiddenKey(const QString& group) {
    return group + QStringLiteral("/hidden");
}
} // namespace

ColumnLayout::ColumnLayout(QHeaderView* header, const QString& viewName, QList<Column> defaults)
    : QObject(header)
    , m_header(header)
    , m_group(settingsGroup(viewName))
    , m_defaults(std::move(defaults)) {
    m_header->setSectionsMovable(true);
    m_header->setContextMenuPolicy(Qt::ActionsContextMenu);
    for (const Column& column : m_defaults) {
        if (column.shown == Shown::Always)
            continue;
        auto* action = new QAction(this);
        action->setObjectName(QStringLiteral("showColumn%1").arg(column.logical));
        action->setCheckable(true);
        action->setData(column.logical);
        connect(action, &QAction::triggered, this,
                [this, logical = column.logical](bool shown) { toggle(logical, shown); });
        m_header->addAction(action);
        m_actions.append(action);
    }
    auto* separator = new QAction(this);
    separator->setSeparator(true);
    m_header->addAction(separator);
    auto* reset = new QAction(tr("Reset columns"), this);
    reset->setObjectName(QStringLiteral("resetColumns"));
    reset->setToolTip(tr("The default columns, order and widths of this view"));
    connect(reset, &QAction::triggered, this, &ColumnLayout::reset);
    m_header->addAction(reset);
    connect(m_header, &QHeaderView::sectionMoved, this, [this] {
        if (!m_applying)
            rememberOrder();
    });
    apply();
    applyDefaultWidths();
}

QString ColumnLayout::settingsGroup(const QString& viewName) {
    return QStringLiteral("columns/") + viewName;
}

QList<int> ColumnLayout::order() const {
    QList<int> defaultOrder;
    for (const Column& column : m_defaults)
        defaultOrder.append(column.logical);
    QList<int> saved = numbersOf(QSettings().value(orderKey(m_group)).toString());
    // A remembered order from a version with other columns is dropped, not half-applied.
    QList<int> sortedSaved = saved;
    QList<int> sortedDefault = defaultOrder;
    std::sort(sortedSaved.begin(), sortedSaved.end());
    std::sort(sortedDefault.begin(), sortedDefault.end());
    return sortedSaved == sortedDefault ? saved : defaultOrder;
}

QSet<int> ColumnLayout::hidden() const {
    QSet<int> hidden;
    QSettings settings;
    if (settings.contains(hiddenKey(m_group))) {
        for (int logical : numbersOf(settings.value(hiddenKey(m_group)).toString()))
            hidden.insert(logical);
    } else {
        for (const Column& column : m_defaults)
            if (column.shown == Shown::NotByDefault)
                hidden.insert(column.logical);
    }
    for (const Column& column : m_defaults)
        if (column.shown == Shown::Always)
            hidden.remove(column.logical);
    return hidden;
}

void ColumnLayout::apply() {
    const QAbstractItemModel* model = m_header->model();
    if (!model)
        return;
    m_applying = true;
    // The model may have fewer columns than the layout lists (the windowed message list has no
    // dead-letter columns): place the ones it has, in the wanted order.
    int position = 0;
    bool moved = false;
    {
        // Each move the view hears of has it measure every header section again (its geometry
        // follows the header's size hint): a dozen columns put in order cost milliseconds, when
        // a panel is built. The sections move quietly; the view hears once, below.
        const QSignalBlocker quiet(m_header);
        for (int logical : order()) {
            if (logical >= m_header->count())
                continue;
            if (m_header->visualIndex(logical) != position) {
                m_header->moveSection(m_header->visualIndex(logical), position);
                moved = true;
            }
            ++position;
        }
    }
    if (moved) {
        emit m_header->geometriesChanged();
        if (auto* view = qobject_cast<QAbstractItemView*>(m_header->parentWidget()))
            view->viewport()->update();
    }
    QSet<int> listed;
    for (const Column& column : m_defaults)
        listed.insert(column.logical);
    const QSet<int> hiddenNow = hidden();
    for (int logical = 0; logical < m_header->count(); ++logical)
        m_header->setSectionHidden(logical, !listed.contains(logical) ||
                                                hiddenNow.contains(logical) ||
                                                m_unavailable.contains(logical));
    m_applying = false;
    updateActions();
}

void ColumnLayout::setUnavailable(const QSet<int>& columns) {
    m_unavailable = columns;
    apply();
}

void ColumnLayout::updateActions() {
    const QAbstractItemModel* model = m_header->model();
    const QSet<int> hiddenNow = hidden();
    for (QAction* action : m_actions) {
        const int logical = action->data().toInt();
        if (model)
            action->setText(model->headerData(logical, Qt::Horizontal).toString());
        action->setChecked(!hiddenNow.contains(logical));
        action->setVisible(!m_unavailable.contains(logical));
    }
}

int ColumnLayout::defaultWidth(int logical) const {
    const QAbstractItemModel* model = m_header->model();
    const QString title = model ? model->headerData(logical, Qt::Horizontal).toString() : QString();
    const int titleWidth = m_header->fontMetrics().horizontalAdvance(title) + kTitlePadding +
                           (m_header->isSortIndicatorShown() ? kSortIndicator : 0);
    // The cells are drawn in the view's font, not the header's.
    QFont cellFont = m_header->parentWidget() ? m_header->parentWidget()->font() : m_header->font();
    int sampleWidth = 0;
    for (const Column& column : m_defaults) {
        if (column.logical != logical)
            continue;
        cellFont.setBold(column.font == SampleFont::Bold);
        sampleWidth = QFontMetrics(cellFont).horizontalAdvance(column.sample) + column.extraWidth;
    }
    return qMax(titleWidth, sampleWidth + kCellPadding);
}

void ColumnLayout::applyDefaultWidths() {
    for (const Column& column : m_defaults)
        if (column.logical < m_header->count())
            m_header->resizeSection(column.logical, defaultWidth(column.logical));
}

void ColumnLayout::reset() {
    QSettings settings;
    settings.remove(orderKey(m_group));
    settings.remove(hiddenKey(m_group));
    apply();
    applyDefaultWidths();
    emit columnsReset();
}

void ColumnLayout::rememberOrder() {
    // The columns the model has, in the order the user left them; the ones it lacks (the
    // windowed list has no dead-letter columns) keep their places in the remembered order.
    QList<int> full = order();
    QList<int> shownOrder;
    for (int position = 0; position < m_header->count(); ++position)
        if (full.contains(m_header->logicalIndex(position)))
            shownOrder.append(m_header->logicalIndex(position));
    qsizetype next = 0;
    for (int& logical : full)
        if (logical < m_header->count() && next < shownOrder.size())
            logical = shownOrder[next++];
    QSettings().setValue(orderKey(m_group), joined(full));
}

void ColumnLayout::toggle(int logical, bool shown) {
    QSet<int> hiddenNow = hidden();
    if (shown)
        hiddenNow.remove(logical);
    else
        hiddenNow.insert(logical);
    QList<int> sorted(hiddenNow.begin(), hiddenNow.end());
    std::sort(sorted.begin(), sorted.end());
    QSettings().setValue(hiddenKey(m_group), joined(sorted));
    apply();
}

} // namespace hourglass::ui
