#include "window/ShortcutsDialog.h"

#include <QAction>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QScreen>
#include <QStyle>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace hourglass::ui {

namespace {
// Room left around the dialog for the window system's frame and title bar.
const QSize kWindowFrame(32, 64);
} // namespace

ShortcutsDialog::ShortcutsDialog(const Groups& groups, QWidget* parent)
    : QDialog(parent) {
    setObjectName(QStringLiteral("shortcutsDialog"));
    setWindowTitle(tr("Keyboard shortcuts"));
    auto* table = new QTableWidget(0, 3);
    table->setObjectName(QStringLiteral("shortcutsTable"));
    table->setHorizontalHeaderLabels({tr("Where"), tr("Action"), tr("Keys")});
    table->verticalHeader()->hide();
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->horizontalHeader()->setStretchLastSection(true);
    for (const auto& [where, actions] : groups) {
        for (const QAction* action : actions) {
            if (!action || action->shortcut().isEmpty())
                continue;
            const int row = table->rowCount();
            table->insertRow(row);
            table->setItem(row, 0, new QTableWidgetItem(where));
            // Menu texts carry '&' mnemonics; the list reads better without them.
            QString text = action->text();
            text.remove(QLatin1Char('&'));
            text.remove(QStringLiteral("…"));
            if (text.endsWith(QStringLiteral("...")))
                text.chop(3);
            table->setItem(row, 1, new QTableWidgetItem(text));
            table->setItem(
                row, 2,
                new QTableWidgetItem(action->shortcut().toString(QKeySequence::NativeText)));
        }
    }
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(table);
    layout->addWidget(buttons);
    sizeToTable(table, parent);
}

void ShortcutsDialog::sizeToTable(QTableView* table, QWidget* parent) {
    // As wide as the columns' texts and as tall as every row, but never past the screen (its
    // frame and title bar included): a short screen scrolls the list instead of clipping it.
    const QAbstractItemView* view = table; // sizeHintForColumn is public there
    QHeaderView* header = table->horizontalHeader();
    // A gap after each text, so that the next column's does not seem to run on from it.
    const int gap = 2 * table->fontMetrics().averageCharWidth();
    int columns = 0;
    for (int column = 0; column < table->model()->columnCount(); ++column) {
        const int width =
            std::max(view->sizeHintForColumn(column), header->sectionSizeHint(column)) + gap;
        table->setColumnWidth(column, width);
        columns += width;
    }
    const int scrollBar = table->style()->pixelMetric(QStyle::PM_ScrollBarExtent, nullptr, table);
    const int frame = 2 * table->frameWidth();
    const QSize wanted(columns + scrollBar + frame,
                       header->sizeHint().height() + table->verticalHeader()->length() + frame);
    const QMargins margins = layout()->contentsMargins();
    const QSize chrome(margins.left() + margins.right(),
                       margins.top() + margins.bottom() + std::max(0, layout()->spacing()) +
                           findChild<QDialogButtonBox*>()->sizeHint().height());
    QScreen* shown = parent ? parent->screen() : screen();
    const QSize room = shown->availableGeometry().size() - kWindowFrame;
    resize(std::min(wanted.width() + chrome.width(), room.width()),
           std::min(wanted.height() + chrome.height(), room.height()));
}

} // namespace hourglass::ui
