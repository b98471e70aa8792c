#pragma once
// The tree row selected last in each database ("ns:path"), so that opening the database again
// (the next start included) shows the entity the user left, not the first queue. Kept in
// QSettings ("window/lastSelections"), for the most recently used databases only.

#include <QString>

namespace hourglass::ui {

// The row last selected in the database at `databasePath`; empty when none is known.
QString lastSelection(const QString& databasePath);
void rememberSelection(const QString& databasePath, const QString& qualifiedPath);

} // namespace hourglass::ui
