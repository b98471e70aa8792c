#include "SqlAction.h"

#include "SqlError.h"
#include "SqlEvaluator.h"

namespace hourglass {

namespace {

void removeApplicationProperty(QVariantMap& properties, const QString& name) {
    for (auto it = properties.begin(); it != properties.end();) {
        if (it.key().compare(name, Qt::CaseInsensitive) == 0)
            it = properties.erase(it);
        else
            ++it;
    }
}

void setApplicationProperty(QVariantMap& properties, const QString& name, const QVariant& value) {
    // NULL is stored as the Null type so that the property exists (EXISTS is true).
    const QVariant stored = value.isValid() ? value : QVariant::fromValue(nullptr);
    if (properties.contains(name)) {
        properties.insert(name, stored);
        return;
    }
    for (auto it = properties.begin(); it != properties.end(); ++it) {
        if (it.key().compare(name, Qt::CaseInsensitive) == 0) {
            it.value() = stored;
            return;
        }
    }
    properties.insert(name, stored);
}

} // namespace

Result<SqlAction> SqlAction::compile(const QString& text) {
    auto statements = parseSqlAction(text);
    if (!statements)
        return statements.error();
    SqlAction action;
    action.m_text = text;
    action.m_statements = std::move(*statements);
    return action;
}

Result<OutgoingMessage> SqlAction::applyTo(const OutgoingMessage& message,
                                           const SqlBrokerFields& broker) const {
    OutgoingMessage copy = message;
    for (const SqlStatement& statement : m_statements) {
        QVariant value;
        if (!statement.remove) {
            auto evaluated = sqlEvaluate(*statement.value, copy, broker);
            if (!evaluated)
                return evaluated.error();
            value = *evaluated;
        }
        if (statement.target.system) {
            if (const auto why = statement.target.system->write(copy, value))
                return sqlEvaluationError(
                    QStringLiteral("%1 %2.").arg(statement.target.display(), *why));
        } else if (statement.remove) {
            removeApplicationProperty(copy.applicationProperties, statement.target.name);
        } else {
            setApplicationProperty(copy.applicationProperties, statement.target.name, value);
        }
    }
    return copy;
}

} // namespace hourglass
