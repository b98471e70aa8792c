// The entity registry (EntityRegistry.h).
#include "EntityRegistry.h"

namespace hourglass {

QString EntityRegistry::keyOf(const QString& namespaceName, const QString& path) {
    return namespaceName.toLower() + u':' + path.toLower();
}

Entity* EntityRegistry::byId(qint64 id) const {
    auto it = m_entities.find(id);
    return it == m_entities.end() ? nullptr : it->second.get();
}

Entity* EntityRegistry::find(const QString& namespaceName, const QString& path) const {
    return m_byKey.value(keyOf(namespaceName, path), nullptr);
}

Entity& EntityRegistry::add(std::unique_ptr<Entity> entity) {
    Entity& added = *entity;
    m_byKey.insert(keyOf(added.namespaceName, added.path), &added);
    m_entities.emplace(added.id, std::move(entity));
    return added;
}

void EntityRegistry::remove(const Entity& entity) {
    m_byKey.remove(keyOf(entity.namespaceName, entity.path));
    m_entities.erase(entity.id);
}

void EntityRegistry::clear() {
    m_byKey.clear();
    m_entities.clear();
    m_nextId = 1;
}

} // namespace hourglass
