#include "window/ShortcutsDialog.h"

#include <QAction>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QTableWidget>
#include <QVBoxLayout>

namespace hourglass::ui {

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
    table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
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
    resize(560, 520);
}

} // namespace hourglass::ui
