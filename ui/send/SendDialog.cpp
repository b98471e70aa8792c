#include "send/SendDialog.h"

#include "common/BrokerClient.h"
#include "common/InlineError.h"
#include "routing/RoutingPreviewPanel.h"
#include "send/SettlementView.h"

#include <QAction>
#include <QComboBox>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QScreen>
#include <QSplitter>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>

namespace hourglass::ui {

namespace {

QPushButton* button(const QString& text, const char* objectName, QWidget* parent) {
    auto* b = new QPushButton(text, parent);
    b->setObjectName(QLatin1String(objectName));
    // Return in a field must not send or close: sending is deliberate (button or Ctrl+Return).
    b->setAutoDefault(false);
    return b;
}

} // namespace

SendDialog::SendDialog(BrokerClient& client, const QString& targetPath, QWidget* parent)
    : QDialog(parent)
    , m_client(client)
    , m_target(targetPath)
    , m_form(new SendForm(client.clock(), this))
    , m_result(new SettlementView(this))
    , m_templateCombo(new QComboBox(this))
    , m_loadTemplate(button(tr("Load"), "loadTemplate", this))
    , m_saveTemplate(button(tr("Save as…"), "saveTemplate", this))
    , m_deleteTemplate(button(tr("Delete"), "deleteTemplate", this))
    , m_templateError(makeInlineErrorLabel(QStringLiteral("templateError"), this, 0))
    , m_send(button(tr("Send"), "sendButton", this))
    , m_close(button(tr("Close"), "sendClose", this))
    , m_sendAction(new QAction(tr("Send"), this))
    , m_routingBox(new QGroupBox(this))
    , m_routing(new RoutingPreviewPanel(client, m_routingBox))
    , m_routingDelay(new QTimer(this)) {
    setObjectName(QStringLiteral("sendDialog"));
    setWindowTitle(tr("Send to %1").arg(targetPath));
    m_templateCombo->setObjectName(QStringLiteral("sendTemplate"));
    m_templateCombo->setMinimumContentsLength(20);
    m_templateCombo->setPlaceholderText(tr("no saved templates"));
    // A templates file problem is rare and comes with no keystroke, so no room is kept for it:
    // the body starts right under the template row.
    QSizePolicy errorPolicy = m_templateError->sizePolicy();
    errorPolicy.setRetainSizeWhenHidden(false);
    m_templateError->setSizePolicy(errorPolicy);
    m_send->setToolTip(tr("Send (Ctrl+Return); the dialog stays open to send again"));
    m_sendAction->setObjectName(QStringLiteral("sendAction"));
    m_sendAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Return));
    m_sendAction->setShortcutContext(Qt::WindowShortcut);
    addAction(m_sendAction);

    auto* templateRow = new QHBoxLayout;
    templateRow->addWidget(new QLabel(tr("Template"), this));
    templateRow->addWidget(m_templateCombo, 1);
    templateRow->addWidget(m_loadTemplate);
    templateRow->addWidget(m_saveTemplate);
    templateRow->addWidget(m_deleteTemplate);
    auto* buttons = new QHBoxLayout;
    buttons->addStretch();
    buttons->addWidget(m_send);
    buttons->addWidget(m_close);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(templateRow);
    layout->addWidget(m_templateError);
    auto* splitter = new QSplitter(Qt::Horizontal, this);
    splitter->setObjectName(QStringLiteral("sendSplitter"));
    splitter->setChildrenCollapsible(false);
    // Titled like the form's own sections; shown only for a topic.
    m_routingBox->setTitle(tr("Routing: which subscriptions would get this message"));
    auto* routingLayout = new QVBoxLayout(m_routingBox);
    routingLayout->setContentsMargins(4, 4, 4, 4);
    routingLayout->addWidget(m_routing);
    splitter->addWidget(m_form);
    splitter->addWidget(m_routingBox);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    m_routingBox->hide();
    m_splitter = splitter;
    layout->addWidget(splitter, 1);
    layout->addWidget(m_result);
    layout->addLayout(buttons);
    resize(980, 640);

    connect(m_send, &QPushButton::clicked, this, &SendDialog::send);
    connect(m_sendAction, &QAction::triggered, this, &SendDialog::send);
    connect(m_close, &QPushButton::clicked, this, &QDialog::reject);
    connect(m_loadTemplate, &QPushButton::clicked, this,
            [this] { loadTemplate(m_templateCombo->currentText()); });
    connect(m_saveTemplate, &QPushButton::clicked, this, &SendDialog::askTemplateName);
    connect(m_deleteTemplate, &QPushButton::clicked, this, &SendDialog::confirmDeleteTemplate);
    m_routingDelay->setSingleShot(true);
    m_routingDelay->setInterval(250);
    connect(m_routingDelay, &QTimer::timeout, this, &SendDialog::previewRouting);
    connect(m_form, &SendForm::edited, m_routingDelay, qOverload<>(&QTimer::start));
    refreshTemplates();
    checkTargetIsTopic();
}

void SendDialog::checkTargetIsTopic() {
    m_client.call(
        this, [target = m_target](Broker& broker) { return broker.entity(target); },
        [this](const Result<EntityInfo>& info) {
            if (!info || info->kind != EntityKind::Topic)
                return;
            m_routingBox->show();
            // Room for the form as it was and the preview beside it, within the screen.
            const QRect available =
                screen() ? screen()->availableGeometry() : QRect(0, 0, 1600, 900);
            resize(std::max(width(), std::min(1500, available.width() - 40)), height());
            // The form keeps the width it needs; the preview takes the rest.
            const int formWidth = m_form->sizeHint().width();
            m_splitter->setSizes({formWidth, std::max(320, m_splitter->width() - formWidth)});
            previewRouting();
        });
}

void SendDialog::previewRouting() {
    if (m_routingBox->isHidden())
        return;
    auto prepared = m_form->prepare(m_client.clock().now());
    if (!prepared) {
        m_routing->showNotReady(prepared.error().description);
        return;
    }
    m_routing->showComposedMessage(m_target, prepared->message);
}

bool SendDialog::loadBodyFromFile(const QString& path) {
    auto loaded = m_form->loadBodyFromFile(path);
    if (!loaded)
        m_result->showRefused(loaded.error().description);
    return loaded.ok();
}

void SendDialog::send() {
    if (m_sending)
        return; // one send at a time: its result is what the view shows
    auto prepared = m_form->prepare(m_client.clock().now());
    if (!prepared) {
        m_result->showRefused(prepared.error().description);
        return;
    }
    m_pending = std::move(prepared).value();
    m_results.clear();
    m_sending = true;
    m_send->setEnabled(false);
    m_sendAction->setEnabled(false);
    m_result->showProgress(0, m_pending.repeat);
    if (m_pending.repeat > 1) {
        sendNextChunk();
        return;
    }
    m_client.call(
        this,
        [path = m_target, send = m_pending](Broker& broker) {
            return send.scheduledAt ? broker.schedule(path, send.message, *send.scheduledAt)
                                    : broker.send(path, send.message);
        },
        [this](Result<SendResult> result) {
            if (!result) {
                m_result->showError(result.error());
            } else {
                m_results.append(*result);
                m_result->showAccepted(m_results, m_pending.scheduledAt, m_client.clock().now());
                emit statusMessage(tr("Sent a message to %1").arg(m_target));
                emit sent(m_target, 1);
            }
            finishSending();
        });
}

void SendDialog::sendNextChunk() {
    const int count = std::min<int>(kChunk, m_pending.repeat - int(m_results.size()));
    // Copies share the body's bytes (implicit sharing); the engine gives each copy without a
    // message id a fresh one.
    QList<OutgoingMessage> batch(count, m_pending.message);
    m_client.call(
        this, [path = m_target, batch](Broker& broker) { return broker.sendBatch(path, batch); },
        [this](Result<QList<SendResult>> result) {
            const int total = m_pending.repeat;
            if (!result) {
                m_result->showError(result.error(), int(m_results.size()), total);
                finishSending();
                return;
            }
            m_results.append(*result);
            if (m_results.size() < total) {
                m_result->showProgress(int(m_results.size()), total);
                sendNextChunk();
                return;
            }
            m_result->showAccepted(m_results, m_pending.scheduledAt, m_client.clock().now());
            emit statusMessage(tr("Sent %1 messages to %2").arg(QString::number(total), m_target));
            emit sent(m_target, total);
            finishSending();
        });
}

void SendDialog::finishSending() {
    m_sending = false;
    m_send->setEnabled(true);
    m_sendAction->setEnabled(true);
}

void SendDialog::useTemplatesFile(const QString& path) {
    m_templates = MessageTemplates(path);
    refreshTemplates();
}

void SendDialog::refreshTemplates(const QString& select) {
    const QStringList names = m_templates.names();
    const QString keep = select.isEmpty() ? m_templateCombo->currentText() : select;
    m_templateCombo->clear();
    m_templateCombo->addItems(names);
    // With a placeholder Qt selects nothing by itself; Load and Delete need a current name.
    m_templateCombo->setCurrentIndex(names.isEmpty() ? -1 : std::max<int>(0, names.indexOf(keep)));
    const bool any = !names.isEmpty();
    m_loadTemplate->setEnabled(any);
    m_deleteTemplate->setEnabled(any);
    showTemplateError(m_templates.loadError().isEmpty()
                          ? QString()
                          : tr("Saved templates could not be read: %1 Saving a template keeps "
                               "the unreadable file as templates.corrupt.json.")
                                .arg(m_templates.loadError()));
}

void SendDialog::showTemplateError(const QString& text) {
    m_templateError->setText(text);
    m_templateError->setVisible(!text.isEmpty());
}

bool SendDialog::saveTemplate(const QString& name) {
    const QString trimmed = name.trimmed();
    auto made = m_form->toTemplate(trimmed, m_client.clock().now());
    Result<void> saved = made ? m_templates.save(*made) : Result<void>(made.error());
    if (!saved) {
        showTemplateError(tr("The template was not saved: %1").arg(saved.error().description));
        return false;
    }
    refreshTemplates(trimmed);
    emit statusMessage(tr("Saved the template '%1'").arg(trimmed));
    return true;
}

bool SendDialog::loadTemplate(const QString& name) {
    const auto found = m_templates.find(name);
    if (!found) {
        showTemplateError(tr("There is no template named '%1'.").arg(name));
        return false;
    }
    m_form->applyTemplate(*found);
    showTemplateError({});
    m_result->clear();
    return true;
}

bool SendDialog::deleteTemplate(const QString& name) {
    if (auto removed = m_templates.remove(name); !removed) {
        showTemplateError(tr("The template was not deleted: %1").arg(removed.error().description));
        return false;
    }
    refreshTemplates();
    emit statusMessage(tr("Deleted the template '%1'").arg(name));
    return true;
}

void SendDialog::askTemplateName() {
    auto* prompt = new QInputDialog(this);
    prompt->setObjectName(QStringLiteral("templateNameDialog"));
    prompt->setAttribute(Qt::WA_DeleteOnClose);
    prompt->setWindowTitle(tr("Save template"));
    prompt->setLabelText(tr("Template name (an existing name is replaced):"));
    prompt->setTextValue(m_templateCombo->currentText());
    connect(prompt, &QInputDialog::textValueSelected, this,
            [this](const QString& name) { saveTemplate(name); });
    prompt->open();
}

void SendDialog::confirmDeleteTemplate() {
    const QString name = m_templateCombo->currentText();
    if (name.isEmpty())
        return;
    auto* box =
        new QMessageBox(QMessageBox::Question, tr("Delete template"),
                        tr("Delete the template '%1'?").arg(name), QMessageBox::NoButton, this);
    box->setObjectName(QStringLiteral("confirmDeleteTemplate"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    QPushButton* yes = box->addButton(tr("Delete"), QMessageBox::AcceptRole);
    box->addButton(QMessageBox::Cancel);
    // A click on Delete or a test's accept(): either way the user said yes.
    connect(box, &QDialog::finished, this, [this, box, yes, name](int result) {
        if (box->clickedButton() == yes || result == QDialog::Accepted)
            deleteTemplate(name);
    });
    box->open();
}

} // namespace hourglass::ui
