#include "entities/EntityActions.h"

#include "common/RemoteConfirm.h"

#include "entities/EntityDialog.h"
#include "entities/NamespaceDialog.h"
#include "entities/RuleDialog.h"
#include "hourglass/EntityPath.h"
#include "hourglass/scenario/EmulatorConfig.h"

#include <QAction>
#include <QFile>
#include <QFileDialog>
#include <QJsonDocument>
#include <QMessageBox>
#include <QPushButton>
#include <QSaveFile>

#include <optional>

namespace hourglass::ui {

namespace {

struct DeleteSummary {
    qint64 messages = 0;
    qint64 children = 0; // subscriptions of a topic, entities of a namespace
    std::optional<Error> error;
};

qint64 messageCount(const EntityCounts& c) {
    return c.active + c.scheduled + c.deferred + c.locked + c.deadLettered;
}

// "no messages", "1 message", "12 messages".
QString countText(qint64 n, const QString& one, const QString& many) {
    if (n == 0)
        return QObject::tr("no %1").arg(many);
    return QStringLiteral("%1 %2").arg(n).arg(n == 1 ? one : many);
}

QString deleteQuestion(EntityActions::NodeKind kind, const QString& name, const DeleteSummary& s) {
    using NodeKind = EntityActions::NodeKind;
    const QString messages = countText(s.messages, QObject::tr("message"), QObject::tr("messages"));
    switch (kind) {
    case NodeKind::Namespace:
        return QObject::tr("Delete namespace '%1' with %2, holding %3?")
            .arg(name, countText(s.children, QObject::tr("entity"), QObject::tr("entities")),
                 messages);
    case NodeKind::Topic:
        return QObject::tr("Delete topic '%1' with %2, holding %3?")
            .arg(name,
                 countText(s.children, QObject::tr("subscription"), QObject::tr("subscriptions")),
                 messages);
    case NodeKind::Subscription:
        return s.messages == 0
                   ? QObject::tr("Delete subscription '%1'? It holds no messages.").arg(name)
                   : QObject::tr("Delete subscription '%1' and its %2?").arg(name, messages);
    case NodeKind::Queue:
    case NodeKind::DeadLetterQueue:
        break;
    }
    return s.messages == 0 ? QObject::tr("Delete queue '%1'? It holds no messages.").arg(name)
                           : QObject::tr("Delete queue '%1' and its %2?").arg(name, messages);
}

Result<QStringList> importFile(Broker& broker, const QString& filePath,
                               const QString& intoNamespace, ExistingEntities existing) {
    QFile file(filePath);
    if (!file.open(QIODevice::ReadOnly))
        return makeError(ErrorCode::InvalidArgument,
                         QStringLiteral("cannot read %1: %2").arg(filePath, file.errorString()));
    auto config = parseEmulatorConfigDocument(file.readAll());
    if (!config)
        return config.error();
    if (!intoNamespace.isEmpty()) {
        if (config->namespaces.size() != 1)
            return makeError(ErrorCode::InvalidArgument,
                             QStringLiteral("%1 declares %2 namespaces; only a file with one "
                                            "can be imported under another name")
                                 .arg(filePath)
                                 .arg(config->namespaces.size()));
        config->namespaces.first().name = intoNamespace;
    }
    if (auto applied = applyUserConfig(broker, *config, existing); !applied)
        return applied.error();
    QStringList names;
    for (const ConfigNamespace& ns : config->namespaces)
        names << ns.name;
    return names;
}

Result<void> exportFile(const Broker& broker, const QString& namespaceName,
                        const QString& filePath) {
    const auto userConfig = exportUserConfig(broker, namespaceName);
    if (!userConfig)
        return userConfig.error();
    const QJsonObject document{{QStringLiteral("UserConfig"), *userConfig}};
    // QSaveFile: an existing config.json is replaced only once the new one is complete.
    QSaveFile file(filePath);
    if (!file.open(QIODevice::WriteOnly) ||
        file.write(QJsonDocument(document).toJson(QJsonDocument::Indented)) < 0 || !file.commit())
        return makeError(ErrorCode::GeneralError,
                         QStringLiteral("cannot write %1: %2").arg(filePath, file.errorString()));
    return {};
}

} // namespace

EntityActions::EntityActions(BrokerClient& client, QWidget* dialogParent, QObject* parent)
    : QObject(parent)
    , m_client(client)
    , m_dialogParent(dialogParent) {
    m_newNamespace = makeAction(tr("New &namespace…"));
    m_newQueue = makeAction(tr("New &queue…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_N));
    m_newTopic = makeAction(tr("New &topic…"));
    m_newSubscription = makeAction(tr("New &subscription…"));
    m_edit = makeAction(tr("&Edit properties…"), QKeySequence(Qt::Key_F2));
    m_rules = makeAction(tr("Manage &rules…"));
    m_delete = makeAction(tr("&Delete…"), QKeySequence::Delete);
    m_import = makeAction(tr("&Import emulator config.json…"));
    m_export = makeAction(tr("E&xport namespace as config.json…"));
    // F2 and Delete mean other things in other panels (the message list deletes messages): they
    // act only where the actions are added, the tree and its context menu.
    m_edit->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    m_delete->setShortcutContext(Qt::WidgetWithChildrenShortcut);

    connect(m_newNamespace, &QAction::triggered, this, &EntityActions::openNamespaceDialog);
    connect(m_newQueue, &QAction::triggered, this, [this] { openNewEntity(EntityKind::Queue); });
    connect(m_newTopic, &QAction::triggered, this, [this] { openNewEntity(EntityKind::Topic); });
    connect(m_newSubscription, &QAction::triggered, this,
            [this] { openNewEntity(EntityKind::Subscription); });
    connect(m_edit, &QAction::triggered, this, &EntityActions::openEdit);
    connect(m_rules, &QAction::triggered, this, &EntityActions::openRules);
    connect(m_delete, &QAction::triggered, this, &EntityActions::confirmDelete);
    connect(m_import, &QAction::triggered, this, &EntityActions::chooseImportFile);
    connect(m_export, &QAction::triggered, this, &EntityActions::chooseExportFile);
    updateEnabled();
}

QAction* EntityActions::makeAction(const QString& text, const QKeySequence& shortcut) {
    auto* action = new QAction(text, this);
    action->setShortcut(shortcut);
    return action;
}

QList<QAction*> EntityActions::actions() const {
    return {m_newNamespace, m_newQueue, m_newTopic, m_newSubscription, m_edit,
            m_rules,        m_delete,   m_import,   m_export};
}

void EntityActions::setSelection(const QString& qualifiedPath, NodeKind kind) {
    Selection s;
    s.path = qualifiedPath;
    s.kind = kind;
    if (kind == NodeKind::Namespace) {
        s.namespaceName = qualifiedPath;
    } else if (const auto path = EntityPath::parse(qualifiedPath)) {
        s.namespaceName = path->namespaceName();
        s.entityPath = path->entity();
        s.topicPath = path->isSubscription()    ? path->topic().entity()
                      : kind == NodeKind::Topic ? path->entity()
                                                : QString();
    } else {
        s = Selection{}; // a path the engine would refuse: act as if nothing were selected
    }
    m_selection = s;
    ++m_selectionGeneration;
    updateEnabled();
    readTier();
}

void EntityActions::readTier() {
    if (m_selection.namespaceName.isEmpty())
        return;
    const QString name = m_selection.namespaceName;
    const quint64 generation = m_selectionGeneration;
    m_client.call(
        this,
        [name](Broker& broker) -> std::optional<Tier> {
            for (const NamespaceInfo& info : broker.namespaces()) {
                if (info.name.compare(name, Qt::CaseInsensitive) == 0)
                    return info.tier;
            }
            return std::nullopt;
        },
        [this, generation](std::optional<Tier> tier) {
            if (generation != m_selectionGeneration)
                return;
            m_selection.tier = tier;
            updateEnabled();
        });
}

void EntityActions::setSelection(const QModelIndex& treeIndex) {
    if (!treeIndex.isValid()) {
        setSelection(QString(), NodeKind::Namespace);
        return;
    }
    setSelection(treeIndex.data(NamespaceTreeModel::PathRole).toString(),
                 NodeKind(treeIndex.data(NamespaceTreeModel::KindRole).toInt()));
}

void EntityActions::updateEnabled() {
    const Selection& s = m_selection;
    const bool inNamespace = !s.namespaceName.isEmpty();
    const bool entity = !s.entityPath.isEmpty() && s.kind != NodeKind::DeadLetterQueue;
    m_newQueue->setEnabled(inNamespace);
    // E5: a Basic namespace has queues only.
    const bool basic = s.tier == Tier::Basic;
    m_newTopic->setEnabled(inNamespace && !basic);
    m_newTopic->setToolTip(basic ? tr("A Basic namespace has queues only; topics need the "
                                      "Standard or Premium tier.")
                                 : QString());
    m_newSubscription->setEnabled(!s.topicPath.isEmpty());
    m_edit->setEnabled(entity);
    m_rules->setEnabled(entity && s.kind == NodeKind::Subscription);
    m_delete->setEnabled(entity || (inNamespace && s.kind == NodeKind::Namespace));
    m_delete->setText(s.kind == NodeKind::Namespace && inNamespace ? tr("&Delete namespace…")
                                                                   : tr("&Delete…"));
    m_export->setEnabled(inNamespace);
}

template <typename Dialog> void EntityActions::showDialog(Dialog* dialog) {
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &Dialog::errorOccurred, this, &EntityActions::errorOccurred);
    dialog->open(); // non-blocking: the window stays live and tests can drive the dialog
}

void EntityActions::openNamespaceDialog() {
    auto* dialog = new NamespaceDialog(m_client, m_dialogParent);
    connect(dialog, &NamespaceDialog::created, this, [this](const QString& name) {
        emit statusMessage(tr("Namespace '%1' created").arg(name));
        emit created(name);
    });
    showDialog(dialog);
}

void EntityActions::openNewEntity(EntityKind kind) {
    if (m_selection.namespaceName.isEmpty())
        return;
    const QString topic = kind == EntityKind::Subscription ? m_selection.topicPath : QString();
    auto* dialog =
        EntityDialog::forCreate(m_client, kind, m_selection.namespaceName, topic, m_dialogParent);
    connect(dialog, &EntityDialog::applied, this, [this](const QString& path) {
        emit statusMessage(tr("Created %1").arg(path));
        emit created(path);
    });
    showDialog(dialog);
}

void EntityActions::openEdit() {
    if (!m_edit->isEnabled())
        return;
    auto* dialog = EntityDialog::forEdit(
        m_client, qualifiedPath(m_selection.namespaceName, m_selection.entityPath), m_dialogParent);
    connect(dialog, &EntityDialog::applied, this,
            [this](const QString& path) { emit statusMessage(tr("Updated %1").arg(path)); });
    showDialog(dialog);
}

void EntityActions::openRules() {
    if (!m_rules->isEnabled())
        return;
    auto* dialog = new RuleDialog(
        m_client, qualifiedPath(m_selection.namespaceName, m_selection.entityPath), m_dialogParent);
    connect(dialog, &RuleDialog::statusMessage, this, &EntityActions::statusMessage);
    showDialog(dialog);
}

void EntityActions::confirmDelete() {
    if (!m_delete->isEnabled())
        return;
    const Selection target = m_selection;
    // The question names what goes with the entity, so it is asked once the counts are known.
    m_client.call(
        this,
        [target](Broker& broker) {
            DeleteSummary s;
            if (target.kind == NodeKind::Namespace || target.kind == NodeKind::Topic) {
                for (const EntityInfo& info : broker.entities(target.namespaceName)) {
                    const bool child =
                        target.kind == NodeKind::Namespace ||
                        (info.kind == EntityKind::Subscription &&
                         info.topicPath.compare(target.entityPath, Qt::CaseInsensitive) == 0);
                    if (!child)
                        continue;
                    ++s.children;
                    s.messages += messageCount(info.counts);
                }
                return s;
            }
            const auto info = broker.entity(qualifiedPath(target.namespaceName, target.entityPath));
            if (!info)
                s.error = info.error();
            else
                s.messages = messageCount(info->counts);
            return s;
        },
        [this, target](const DeleteSummary& summary) {
            if (summary.error) {
                emit errorOccurred(*summary.error);
                return;
            }
            const QString name =
                target.kind == NodeKind::Namespace ? target.namespaceName : target.path;
            // On a remote namespace the question names it.
            QString question = deleteQuestion(target.kind, name, summary);
            if (const QString remote = remoteNamespaceLine(m_client); !remote.isEmpty())
                question += QLatin1Char('\n') + remote;
            auto* box = new QMessageBox(QMessageBox::Warning, tr("Delete"),
                                        question + QLatin1Char('\n') + tr("This cannot be undone."),
                                        QMessageBox::Ok | QMessageBox::Cancel, m_dialogParent);
            box->setObjectName(QStringLiteral("confirmDelete"));
            box->button(QMessageBox::Ok)->setText(tr("Delete"));
            box->setDefaultButton(QMessageBox::Cancel);
            box->setAttribute(Qt::WA_DeleteOnClose);
            // By the button: QMessageBox finishes with the button's code, not Accepted.
            connect(box, &QMessageBox::buttonClicked, this,
                    [this, box, target](QAbstractButton* button) {
                        if (box->standardButton(button) == QMessageBox::Ok)
                            deleteSelected(target);
                    });
            box->open();
        });
}

void EntityActions::deleteSelected(const Selection& target) {
    const bool isNamespace = target.kind == NodeKind::Namespace;
    const QString name = isNamespace ? target.namespaceName : target.path;
    m_client.call(
        this,
        [target, isNamespace](Broker& broker) {
            return isNamespace ? broker.deleteNamespace(target.namespaceName)
                               : broker.deleteEntity(
                                     qualifiedPath(target.namespaceName, target.entityPath));
        },
        [this, name](const Result<void>& deleted) {
            if (!deleted) {
                emit errorOccurred(deleted.error());
                return;
            }
            emit statusMessage(tr("Deleted %1").arg(name));
        });
}

void EntityActions::importConfig(const QString& filePath, const QString& intoNamespace,
                                 ExistingEntities existing) {
    m_client.call(
        this,
        [filePath, intoNamespace, existing](Broker& broker) {
            return importFile(broker, filePath, intoNamespace, existing);
        },
        [this, filePath](const Result<QStringList>& imported) {
            if (!imported) {
                emit errorOccurred(imported.error());
                return;
            }
            emit statusMessage(
                tr("Imported %1 from %2").arg(imported->join(QStringLiteral(", ")), filePath));
            emit configImported(*imported);
        });
}

void EntityActions::exportConfig(const QString& namespaceName, const QString& filePath) {
    m_client.call(
        this,
        [namespaceName, filePath](Broker& broker) {
            return exportFile(broker, namespaceName, filePath);
        },
        [this, namespaceName, filePath](const Result<void>& written) {
            if (!written) {
                emit errorOccurred(written.error());
                return;
            }
            emit statusMessage(tr("Exported namespace '%1' to %2").arg(namespaceName, filePath));
            emit configExported(filePath);
        });
}

void EntityActions::chooseImportFile() {
    const QString path = QFileDialog::getOpenFileName(
        m_dialogParent, tr("Import emulator config.json"), {}, tr("JSON files (*.json)"));
    if (!path.isEmpty())
        askImportTarget(path);
}

void EntityActions::askImportTarget(const QString& filePath) {
    // The file's namespaces name the new one; a small file, read here to ask the question.
    QFile file(filePath);
    if (!file.open(QIODevice::ReadOnly)) {
        emit errorOccurred(
            makeError(ErrorCode::InvalidArgument,
                      QStringLiteral("cannot read %1: %2").arg(filePath, file.errorString())));
        return;
    }
    const auto config = parseEmulatorConfigDocument(file.read(16 * 1024 * 1024));
    if (!config) {
        emit errorOccurred(config.error());
        return;
    }
    QStringList names;
    for (const ConfigNamespace& ns : config->namespaces)
        names << QStringLiteral("'%1'").arg(ns.name);
    const QString selected = m_selection.namespaceName;

    auto* box = new QMessageBox(QMessageBox::Question, tr("Import emulator config.json"),
                                tr("Where do the entities of %1 go?").arg(filePath),
                                QMessageBox::Cancel, m_dialogParent);
    box->setObjectName(QStringLiteral("importTargetDialog"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    QPushButton* into =
        box->addButton(selected.isEmpty() ? tr("Into the selected namespace")
                                          : tr("Into the selected namespace '%1'").arg(selected),
                       QMessageBox::AcceptRole);
    into->setObjectName(QStringLiteral("importIntoSelected"));
    // Only a file of one namespace goes into another one.
    into->setEnabled(!selected.isEmpty() && config->namespaces.size() == 1);
    QPushButton* asNew =
        box->addButton(names.size() == 1 ? tr("As a new namespace %1").arg(names.first())
                                         : tr("As new namespaces %1").arg(names.join(u", ")),
                       QMessageBox::AcceptRole);
    asNew->setObjectName(QStringLiteral("importAsNew"));
    asNew->setEnabled(!names.isEmpty());
    box->setDefaultButton(into->isEnabled() ? into : asNew);
    connect(box, &QMessageBox::buttonClicked, this,
            [this, into, asNew, filePath, selected](QAbstractButton* clicked) {
                if (clicked == into)
                    importConfig(filePath, selected, ExistingEntities::Keep);
                else if (clicked == asNew)
                    importConfig(filePath);
            });
    box->open();
}

void EntityActions::chooseExportFile() {
    if (m_selection.namespaceName.isEmpty())
        return;
    const QString path = QFileDialog::getSaveFileName(
        m_dialogParent, tr("Export namespace '%1'").arg(m_selection.namespaceName),
        QStringLiteral("config.json"), tr("JSON files (*.json)"));
    if (!path.isEmpty())
        exportConfig(m_selection.namespaceName, path);
}

} // namespace hourglass::ui
