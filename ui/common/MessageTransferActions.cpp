#include "common/MessageTransferActions.h"

#include "common/ActionRegistry.h"
#include "common/EntityPickerDialog.h"
#include "common/MessageTransfer.h"

#include <QAction>
#include <QWidget>

namespace hourglass::ui {

MessageTransferActions::MessageTransferActions(BrokerClient& client, QWidget* view,
                                               ResolveSelection resolve, Offer offer)
    : QObject(view)
    , m_client(client)
    , m_view(view)
    , m_resolve(std::move(resolve))
    , m_copy(new QAction(tr("Copy to…"), this)) {
    if (offer == Offer::MoveAndCopy) {
        m_move = new QAction(tr("Move to…"), this);
        m_move->setObjectName(QStringLiteral("moveMessagesAction"));
        m_move->setToolTip(tr("Move the selected messages to another entity (or drag them onto "
                              "it in the tree)"));
        connect(m_move, &QAction::triggered, this, [this] { start(Broker::Transfer::Move); });
    }
    m_copy->setObjectName(QStringLiteral("copyMessagesAction"));
    m_copy->setToolTip(tr("Copy the selected messages to another entity (or drag them onto it "
                          "in the tree with Ctrl)"));
    connect(m_copy, &QAction::triggered, this, [this] { start(Broker::Transfer::Copy); });
    for (QAction* action : actions())
        action->setEnabled(false);
}

QList<QAction*> MessageTransferActions::actions() const {
    return m_move ? QList<QAction*>{m_move, m_copy} : QList<QAction*>{m_copy};
}

void MessageTransferActions::addToContextMenu(QWidget* panel) {
    m_view->setContextMenuPolicy(Qt::ActionsContextMenu);
    if (!m_view->actions().isEmpty()) {
        auto* separator = new QAction(m_view);
        separator->setSeparator(true);
        m_view->addAction(separator);
    }
    for (QAction* action : actions()) {
        panel->addAction(action);
        m_view->addAction(action);
    }
    if (m_move)
        actions::add(panel, QString::fromLatin1(kMoveToCommand), m_move);
    actions::add(panel, QString::fromLatin1(kCopyToCommand), m_copy);
}

void MessageTransferActions::setEnabled(bool enabled) {
    for (QAction* action : actions())
        action->setEnabled(enabled);
}

void MessageTransferActions::start(Broker::Transfer mode) {
    m_resolve(this, [this, mode](Result<DraggedMessages> selection) {
        if (!selection)
            return emit errorOccurred(selection.error());
        if (selection->sequenceNumbers.isEmpty())
            return emit statusMessage(tr("Select the messages to move or copy first."));
        pick(*selection, mode);
    });
}

void MessageTransferActions::pick(const DraggedMessages& messages, Broker::Transfer mode) {
    if (m_picker)
        m_picker->close();
    m_picker = new EntityPickerDialog(m_client, messages.sourcePath,
                                      messages.sequenceNumbers.size(), mode, m_view);
    m_picker->setAttribute(Qt::WA_DeleteOnClose);
    connect(m_picker, &QDialog::accepted, this, [this, messages, mode] {
        const QString target = m_picker->targetPath();
        if (target.isEmpty())
            return;
        transferMessages(
            m_client, this, messages, target, m_picker->targetName(), mode,
            [this, messages, mode](const QString& text) {
                emit transferred(messages, mode);
                emit statusMessage(text);
            },
            [this](const Error& error) { emit errorOccurred(error); });
    });
    m_picker->open();
}

} // namespace hourglass::ui
