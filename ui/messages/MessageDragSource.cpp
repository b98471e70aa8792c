#include "messages/MessageDragSource.h"

#include "messages/MessageDragFiles.h"

#include <QAbstractItemView>
#include <QApplication>
#include <QDrag>
#include <QItemSelectionModel>
#include <QMimeData>
#include <QMouseEvent>

namespace hourglass::ui {

MessageDragSource::MessageDragSource(QAbstractItemView* view, Provider provider)
    : QObject(view)
    , m_view(view)
    , m_provider(std::move(provider)) {
    view->setDragDropMode(QAbstractItemView::DragOnly);
    view->setDefaultDropAction(Qt::MoveAction);
    view->viewport()->installEventFilter(this);
}

QMimeData* MessageDragSource::createMimeData() {
    auto messages = m_provider();
    if (!messages) {
        emit refused(messages.error());
        return nullptr;
    }
    if (messages->sequenceNumbers.isEmpty())
        return nullptr;
    auto* mime = new QMimeData;
    encodeMessages(*messages, mime);
    if (m_files) {
        const QList<QUrl> urls = m_files->urlsFor(*messages);
        if (!urls.isEmpty())
            mime->setUrls(urls);
    }
    return mime;
}

void MessageDragSource::enableFiles(BrokerClient& client) {
    m_files = new MessageDragFiles(client, this);
    trackSelection();
}

void MessageDragSource::trackSelection() {
    QItemSelectionModel* selection = m_view->selectionModel();
    if (!m_files || selection == m_tracked)
        return;
    if (m_tracked)
        disconnect(m_tracked, nullptr, this, nullptr);
    m_tracked = selection;
    if (selection)
        connect(selection, &QItemSelectionModel::selectionChanged, this,
                &MessageDragSource::prepareFiles);
    prepareFiles();
}

void MessageDragSource::prepareFiles() {
    auto messages = m_provider();
    m_files->prepare(messages ? *messages : DraggedMessages{});
}

void MessageDragSource::startDrag() {
    QMimeData* mime = createMimeData();
    if (!mime)
        return;
    auto* drag = new QDrag(m_view);
    drag->setMimeData(mime);
    // The drop target runs the move itself (one engine call); the list learns of it through the
    // change feed, so the result of exec() needs no handling here.
    drag->exec(Qt::MoveAction | Qt::CopyAction, Qt::MoveAction);
}

bool MessageDragSource::eventFilter(QObject* watched, QEvent* event) {
    if (watched != m_view->viewport())
        return false;
    trackSelection();
    switch (event->type()) {
    case QEvent::MouseButtonPress: {
        auto* mouse = static_cast<QMouseEvent*>(event);
        m_heldSelection = false;
        m_pressed = QPersistentModelIndex();
        if (mouse->button() != Qt::LeftButton || mouse->modifiers() != Qt::NoModifier)
            return false;
        m_pressPos = mouse->position().toPoint();
        m_pressed = m_view->indexAt(m_pressPos);
        QItemSelectionModel* selection = m_view->selectionModel();
        m_heldSelection = m_pressed.isValid() && selection && selection->isSelected(m_pressed);
        if (m_heldSelection)
            m_view->setFocus(Qt::MouseFocusReason);
        return m_heldSelection;
    }
    case QEvent::MouseMove: {
        auto* mouse = static_cast<QMouseEvent*>(event);
        if (!m_pressed.isValid() || !(mouse->buttons() & Qt::LeftButton))
            return false;
        if ((mouse->position().toPoint() - m_pressPos).manhattanLength() <
            QApplication::startDragDistance())
            return m_heldSelection;
        m_pressed = QPersistentModelIndex();
        m_heldSelection = false;
        startDrag();
        return true;
    }
    case QEvent::MouseButtonRelease: {
        if (!m_heldSelection)
            return false;
        // A click on a selected row without a drag: select that row alone, as a view would.
        m_heldSelection = false;
        if (m_pressed.isValid())
            m_view->selectionModel()->setCurrentIndex(
                m_pressed, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        m_pressed = QPersistentModelIndex();
        return true;
    }
    default:
        return false;
    }
}

} // namespace hourglass::ui
