#include "common/ActionRegistry.h"

#include <QAction>
#include <QHash>
#include <QPointer>

namespace hourglass::ui::actions {

namespace {
using Commands = QHash<QString, QPointer<QAction>>;

// Owners by address: an owner's entry goes with it (add), so a new object at the same address
// starts with no commands.
QHash<const QObject*, Commands>& registry() {
    static QHash<const QObject*, Commands> owners;
    return owners;
}
} // namespace

void add(QObject* owner, const QString& id, QAction* action) {
    auto& owners = registry();
    if (!owners.contains(owner))
        QObject::connect(owner, &QObject::destroyed, [owner] { registry().remove(owner); });
    owners[owner].insert(id, action);
}

QAction* find(const QObject* owner, const QString& id) {
    const auto& owners = registry();
    const auto commands = owners.constFind(owner);
    return commands == owners.constEnd() ? nullptr : commands->value(id).data();
}

} // namespace hourglass::ui::actions
