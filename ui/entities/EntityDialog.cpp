#include "entities/EntityDialog.h"

#include "common/InlineError.h"
#include "entities/EntityPropertyForm.h"
#include "hourglass/EntityPath.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTimer>
#include <QVBoxLayout>

#include <optional>

namespace hourglass::ui {

struct EntityDialog::Loaded {
    QString namespaceName;
    Tier tier = Tier::Standard;
    QStringList forwardTargets;
    std::optional<EntityInfo> entity; // Edit only
    std::optional<Error> error;
};

namespace {
QString kindWord(EntityKind kind) {
    switch (kind) {
    case EntityKind::Queue:
        return QObject::tr("queue");
    case EntityKind::Topic:
        return QObject::tr("topic");
    case EntityKind::Subscription:
        return QObject::tr("subscription");
    }
    return QObject::tr("entity");
}

// The same check the engine makes when it creates the entity (EntityPath::parse), run before the
// call so that a bad name is flagged while it is typed, not after Create.
Result<void> checkEntityName(EntityKind kind, const QString& name) {
    return kind == EntityKind::Subscription ? validateSubscriptionName(name)
                                            : validateQueueOrTopicPath(name);
}
} // namespace

EntityDialog* EntityDialog::forCreate(BrokerClient& client, EntityKind kind,
                                      const QString& namespaceName, const QString& topicPath,
                                      QWidget* parent) {
    return new EntityDialog(client, Mode::Create, kind, namespaceName, topicPath, parent);
}

EntityDialog* EntityDialog::forEdit(BrokerClient& client, const QString& qualifiedPath,
                                    QWidget* parent) {
    const auto parsed = EntityPath::parse(qualifiedPath);
    const QString ns = parsed ? parsed->namespaceName() : QString();
    const QString path = parsed ? parsed->entity() : qualifiedPath;
    const EntityKind kind =
        parsed && parsed->isSubscription() ? EntityKind::Subscription : EntityKind::Queue;
    return new EntityDialog(client, Mode::Edit, kind, ns, path, parent);
}

EntityDialog::EntityDialog(BrokerClient& client, Mode mode, EntityKind kind,
                           const QString& namespaceName, const QString& path, QWidget* parent)
    : QDialog(parent)
    , m_client(client)
    , m_mode(mode)
    , m_kind(kind)
    , m_namespace(namespaceName)
    , m_path(path)
    , m_name(new QLineEdit(this))
    , m_nameError(makeInlineErrorLabel(QStringLiteral("entityNameError"), this))
    , m_form(new EntityPropertyForm(this))
    , m_error(makeInlineErrorLabel(QStringLiteral("entityDialogError"), this)) {
    setObjectName(QStringLiteral("entityDialog"));
    setWindowTitle(mode == Mode::Create ? tr("New %1").arg(kindWord(kind))
                                        : tr("Edit %1").arg(qualifiedPath(m_namespace, path)));

    m_name->setObjectName(QStringLiteral("entityName"));
    auto* header = new QFormLayout;
    if (mode == Mode::Create) {
        m_name->setPlaceholderText(kind == EntityKind::Subscription
                                       ? tr("1-50 letters, digits, '.', '-', '_'")
                                       : tr("e.g. orders or sales/orders"));
    } else {
        m_name->setText(path);
        m_name->setReadOnly(true); // renaming is not an update in Service Bus
    }
    header->addRow(tr("Namespace"), new QLabel(m_namespace, this));
    if (kind == EntityKind::Subscription && mode == Mode::Create) {
        auto* topic = new QLabel(path, this);
        topic->setObjectName(QStringLiteral("entityTopic"));
        header->addRow(tr("Topic"), topic);
    }
    header->addRow(mode == Mode::Create ? tr("Name") : tr("Path"), m_name);
    if (mode == Mode::Create) {
        connect(m_name, &QLineEdit::textChanged, this, &EntityDialog::checkName);
        // The engine's refusal (a name that exists...) was about the name sent: a new name makes
        // it stale, and a stale refusal under a name that may be fine misleads.
        connect(m_name, &QLineEdit::textChanged, this, [this] { m_error->hide(); });
    }

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_ok = buttons->button(QDialogButtonBox::Ok);
    m_ok->setObjectName(QStringLiteral("entityDialogOk"));
    m_ok->setText(mode == Mode::Create ? tr("Create") : tr("Save"));
    m_ok->setEnabled(false); // until the namespace's tier is known
    buttons->button(QDialogButtonBox::Cancel)->setObjectName(QStringLiteral("entityDialogCancel"));
    connect(buttons, &QDialogButtonBox::accepted, this, &EntityDialog::submit);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(header);
    // Right under the name, in the dialog's own column: a form layout would close the row of the
    // hidden label, and the dialog would jump as the name's problem comes and goes.
    if (mode == Mode::Create)
        layout->addWidget(m_nameError);
    layout->addWidget(m_form);
    layout->addWidget(m_error);
    layout->addWidget(buttons);

    m_form->setKind(kind, Tier::Standard);
    m_form->setPurpose(mode == Mode::Edit ? EntityPropertyForm::Purpose::Edit
                                          : EntityPropertyForm::Purpose::Create);
    m_form->setEnabled(false);
    load();
}

QString EntityDialog::targetPath() const {
    if (m_mode == Mode::Edit)
        return m_path;
    const QString name = m_name->text().trimmed();
    return m_kind == EntityKind::Subscription
               ? m_path + QLatin1Char('/') + kSubscriptionsSegment + QLatin1Char('/') + name
               : name;
}

void EntityDialog::load() {
    const Mode mode = m_mode;
    const QString ns = m_namespace;
    const QString path = m_path;
    m_client.call(
        this,
        [mode, ns, path](Broker& broker) {
            Loaded out;
            const QList<NamespaceInfo> namespaces = broker.namespaces();
            // An unqualified path lives in the first namespace, as the Broker resolves it.
            out.namespaceName =
                ns.isEmpty() && !namespaces.isEmpty() ? namespaces.first().name : ns;
            bool found = false;
            for (const NamespaceInfo& info : namespaces) {
                if (info.name.compare(out.namespaceName, Qt::CaseInsensitive) == 0) {
                    out.tier = info.tier;
                    found = true;
                }
            }
            if (!found) {
                out.error = makeError(ErrorCode::MessagingEntityNotFound,
                                      QStringLiteral("no namespace named '%1'").arg(ns));
                return out;
            }
            for (const EntityInfo& info : broker.entities(out.namespaceName))
                if (info.kind != EntityKind::Subscription)
                    out.forwardTargets << info.path;
            if (mode == Mode::Edit) {
                auto entity = broker.entity(qualifiedPath(out.namespaceName, path));
                if (!entity)
                    out.error = entity.error();
                else
                    out.entity = std::move(entity).value();
            }
            return out;
        },
        [this](const Loaded& loaded) { onLoaded(loaded); });
}

void EntityDialog::onLoaded(const Loaded& loaded) {
    if (loaded.error) {
        showError(*loaded.error);
        return;
    }
    m_namespace = loaded.namespaceName;
    if (loaded.entity) {
        m_kind = loaded.entity->kind;
        m_form->setKind(m_kind, loaded.tier);
        m_form->setProperties(loaded.entity->properties);
    } else {
        m_form->setKind(m_kind, loaded.tier);
        m_form->setProperties(EntityProperties::defaults(loaded.tier));
    }
    QStringList targets = loaded.forwardTargets;
    targets.removeAll(m_path); // E3: not itself
    m_form->setForwardTargets(targets);
    m_form->setEnabled(true);
    m_loaded = true;
    updateOk();
    // A topic has fewer rows than the queue form the dialog opened with: fit them, once the
    // layouts have taken the hidden rows out (their requests are posted, not immediate).
    QTimer::singleShot(0, this, [this] { adjustSize(); });
}

void EntityDialog::checkName() {
    const QString name = m_name->text().trimmed();
    // An empty field is where every name starts: Create waits without a red line.
    const Result<void> valid = name.isEmpty() ? Result<void>() : checkEntityName(m_kind, name);
    markInvalid(m_name, !valid);
    if (!valid)
        m_nameError->setText(valid.error().description);
    m_nameError->setVisible(!valid);
    updateOk();
}

void EntityDialog::updateOk() {
    bool nameOk = true;
    QString why;
    if (m_mode == Mode::Create) {
        const QString name = m_name->text().trimmed();
        nameOk = !name.isEmpty() && checkEntityName(m_kind, name).ok();
        if (name.isEmpty())
            why = tr("Type a name first");
        else if (!nameOk)
            why = m_nameError->text();
    }
    m_ok->setEnabled(m_loaded && !m_submitting && nameOk);
    m_ok->setToolTip(why);
}

void EntityDialog::submit() {
    if (!m_loaded || !m_ok->isEnabled())
        return; // Return pressed in a field while Create is off
    // The form already shows the validator's message next to the field it names.
    if (const auto valid = m_form->validate(); !valid) {
        m_error->hide();
        return;
    }
    const Mode mode = m_mode;
    const EntityKind kind = m_kind;
    const QString path = qualifiedPath(m_namespace, targetPath());
    const EntityProperties properties = m_form->properties();
    m_submitting = true;
    updateOk();
    m_client.call(
        this,
        [mode, kind, path, properties](Broker& broker) -> Result<EntityInfo> {
            if (mode == Mode::Edit)
                return broker.updateEntity(path, properties);
            switch (kind) {
            case EntityKind::Queue:
                return broker.createQueue(path, properties);
            case EntityKind::Topic:
                return broker.createTopic(path, properties);
            case EntityKind::Subscription:
                return broker.createSubscription(path, properties);
            }
            return makeError(ErrorCode::GeneralError, QStringLiteral("unknown entity kind"));
        },
        [this](const Result<EntityInfo>& result) {
            m_submitting = false;
            updateOk();
            if (!result) {
                showError(result.error());
                return;
            }
            emit applied(qualifiedPath(result->namespaceName, result->path));
            accept();
        });
}

void EntityDialog::showError(const Error& error) {
    showInlineError(m_error, error);
    emit errorOccurred(error);
}

} // namespace hourglass::ui
