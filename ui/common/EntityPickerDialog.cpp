#include "common/EntityPickerDialog.h"

#include "common/BrokerClient.h"
#include "common/MessageDrag.h"
#include "common/MessageTransfer.h"
#include "hourglass/EntityPath.h"

#include <QDialogButtonBox>
#include <QHash>
#include <QLabel>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace hourglass::ui {

namespace {
constexpr int kPathRole = Qt::UserRole;
constexpr int kNameRole = Qt::UserRole + 1;

QString namespaceOf(const QString& qualifiedPath) {
    return EntityPath::of(qualifiedPath).namespaceName();
}
} // namespace

EntityPickerDialog::EntityPickerDialog(BrokerClient& client, const QString& sourcePath,
                                       qsizetype count, Broker::Transfer mode, QWidget* parent)
    : QDialog(parent)
    , m_sourcePath(sourcePath)
    , m_list(new QTreeWidget(this))
    , m_accept(nullptr) {
    setObjectName(QStringLiteral("entityPicker"));
    const bool copy = mode == Broker::Transfer::Copy;
    const QString what = countOf(count, tr("message"));
    setWindowTitle(copy ? tr("Copy %1 to…").arg(what) : tr("Move %1 to…").arg(what));

    auto* intro = new QLabel(
        copy ? tr("Copy the selected messages to:") : tr("Move the selected messages to:"), this);
    m_list->setObjectName(QStringLiteral("entityPickerList"));
    m_list->setHeaderHidden(true);
    m_list->setRootIsDecorated(true);
    m_list->setMinimumSize(320, 260);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    m_accept = buttons->addButton(copy ? tr("Copy") : tr("Move"), QDialogButtonBox::AcceptRole);
    m_accept->setObjectName(QStringLiteral("entityPickerAccept"));
    m_accept->setEnabled(false);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_list, &QTreeWidget::currentItemChanged, this, &EntityPickerDialog::updateAccept);
    connect(m_list, &QTreeWidget::itemDoubleClicked, this, [this](QTreeWidgetItem* item) {
        if (item && (item->flags() & Qt::ItemIsEnabled))
            accept();
    });

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addWidget(m_list, 1);
    layout->addWidget(buttons);

    client.call(
        this, [ns = namespaceOf(sourcePath)](Broker& b) { return b.entities(ns); },
        [this](QList<EntityInfo> entities) {
            fill(entities);
            emit loaded();
        });
}

void EntityPickerDialog::fill(const QList<EntityInfo>& entities) {
    const QString here = deadLetterOwner(m_sourcePath).isEmpty() ? m_sourcePath : QString();
    const QString resubmitTo = deadLetterOwner(m_sourcePath);
    QHash<QString, QTreeWidgetItem*> topics;
    // Topics first, so that their subscriptions find them (entities() lists by path anyway).
    QList<EntityInfo> ordered = entities;
    std::stable_sort(ordered.begin(), ordered.end(), [](const EntityInfo& a, const EntityInfo& b) {
        return (a.kind == EntityKind::Subscription) < (b.kind == EntityKind::Subscription);
    });
    for (const EntityInfo& info : ordered) {
        const QString path = info.namespaceName + QLatin1Char(':') + info.path;
        QTreeWidgetItem* parent = info.kind == EntityKind::Subscription
                                      ? topics.value(info.topicPath.toLower())
                                      : nullptr;
        auto* item = parent ? new QTreeWidgetItem(parent) : new QTreeWidgetItem(m_list);
        item->setData(0, kPathRole, path);
        item->setData(0, kNameRole, info.path);
        QString text = info.kind == EntityKind::Subscription ? info.name : info.path;
        const EntityStatus status = info.properties.status;
        if (path.compare(here, Qt::CaseInsensitive) == 0) {
            text = tr("%1 (here)").arg(text);
            item->setFlags(item->flags() & ~Qt::ItemIsEnabled);
        } else if (status == EntityStatus::Disabled || status == EntityStatus::SendDisabled) {
            text = tr("%1 (%2)").arg(text, entityStatusName(status));
            item->setFlags(item->flags() & ~Qt::ItemIsEnabled);
        } else if (path.compare(resubmitTo, Qt::CaseInsensitive) == 0) {
            text = tr("%1 (resubmit)").arg(text);
        }
        item->setText(0, text);
        if (info.kind == EntityKind::Topic)
            topics.insert(info.path.toLower(), item);
    }
    m_list->expandAll();
}

bool EntityPickerDialog::select(const QString& qualifiedPath) {
    for (QTreeWidgetItemIterator it(m_list); *it; ++it) {
        if ((*it)->data(0, kPathRole).toString().compare(qualifiedPath, Qt::CaseInsensitive) != 0)
            continue;
        if (!((*it)->flags() & Qt::ItemIsEnabled))
            return false;
        m_list->setCurrentItem(*it);
        return true;
    }
    return false;
}

QString EntityPickerDialog::targetPath() const {
    const QTreeWidgetItem* item = m_list->currentItem();
    return item && (item->flags() & Qt::ItemIsEnabled) ? item->data(0, kPathRole).toString()
                                                       : QString();
}

QString EntityPickerDialog::targetName() const {
    const QTreeWidgetItem* item = m_list->currentItem();
    return item && (item->flags() & Qt::ItemIsEnabled) ? item->data(0, kNameRole).toString()
                                                       : QString();
}

void EntityPickerDialog::updateAccept() {
    m_accept->setEnabled(!targetPath().isEmpty());
}

} // namespace hourglass::ui
