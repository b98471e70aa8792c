// Drag and drop over a real broker: the MIME payload, drops on the tree model (move, copy,
// resubmit, refusals), the same drops through the tree view's drag events, files from the
// desktop, and the drag sources on the message and dead-letter lists.

#include "DragDropTestEnv.h"
#include "common/BrokerClient.h"
#include "common/MessageDrag.h"
#include "deadletter/DeadLetterPanel.h"
#include "messages/MessageDragFiles.h"
#include "messages/MessageDragSource.h"
#include "messages/MessageListModel.h"
#include "messages/MessageListPanel.h"
#include "messages/MessageViewModel.h"
#include "messages/SelectionPrefetch.h"
#include "tree/NamespaceTreeModel.h"
#include "tree/NamespaceTreePanel.h"

#include <QAbstractItemModelTester>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFile>
#include <QItemSelectionModel>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QMimeData>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTest>
#include <QTreeView>
#include <QUrl>

#include <memory>

using namespace hourglass;
using namespace hourglass::ui;
using namespace hourglass::testing::deadletter;
using namespace hourglass::testing::dragdrop;
using Kind = NamespaceTreeModel::NodeKind;

class TestUiDragDrop : public QObject {
    Q_OBJECT
private slots:
    void mimeRoundTrip();
    void dropMovesMessages();
    void dropWithCopyKeepsSource();
    void deadLetterDropOnItsEntityResubmits();
    void refusedTargets();
    void dropThroughViewEvents();
    void refusedRowIgnoresDragAndSaysWhy();
    void fileDropBecomesMessage();
    void oversizeFileIsRefused();
    void listsStartDragsOfTheSelection();
    void smallSelectionsDragOutAsJsonFiles();
    void selectionBeyondTheLoadedRowsDragsWhole();
};

void TestUiDragDrop::mimeRoundTrip() {
    auto mime = messagesMime(QStringLiteral("test:orders/$deadletterqueue"), {3, 7, 42});
    QVERIFY(mime->hasFormat(QStringLiteral("application/x-hourglass-messages")));
    const auto decoded = decodeMessages(mime.get());
    QVERIFY(decoded);
    QCOMPARE(decoded->sourcePath, QStringLiteral("test:orders/$deadletterqueue"));
    QCOMPARE(decoded->sequenceNumbers, (QList<qint64>{3, 7, 42}));
    QCOMPARE(deadLetterOwner(decoded->sourcePath), QStringLiteral("test:orders"));
    QCOMPARE(deadLetterOwner(QStringLiteral("test:orders")), QString());

    QMimeData garbage;
    garbage.setData(messagesMimeType(), "not a payload");
    QVERIFY(!decodeMessages(&garbage));
    QMimeData none;
    QVERIFY(!decodeMessages(&none));
}

void TestUiDragDrop::dropMovesMessages() {
    DropEnv env;
    const QList<qint64> seqs = env.sendTo(kQueue, 3);
    NamespaceTreeModel model(*env.client);
    QAbstractItemModelTester tester(&model);
    QVERIFY(waitForRow(model, QStringLiteral("test:b")));
    const QModelIndex target = rowOf(model, QStringLiteral("test:b"));
    QVERIFY(model.flags(target) & Qt::ItemIsDropEnabled);
    QSignalSpy finished(&model, &NamespaceTreeModel::dropFinished);

    auto mime = messagesMime(QStringLiteral("test:orders"), seqs);
    QVERIFY(model.canDropMimeData(mime.get(), Qt::MoveAction, -1, -1, target));
    QVERIFY(model.dropMimeData(mime.get(), Qt::MoveAction, -1, -1, target));
    QTRY_COMPARE(finished.count(), 1);
    QCOMPARE(finished.first().first().toString(), QStringLiteral("Moved 3 messages to 'b'."));

    QVERIFY(env.messages(kQueue).isEmpty());
    const QList<MessageView> moved = env.messages(kTarget);
    QCOMPARE(moved.size(), 3);
    for (int i = 0; i < 3; ++i) {
        const OutgoingMessage sent = Env::message(QStringLiteral("m-%1").arg(i));
        QCOMPARE(moved[i].messageId, sent.messageId);
        QCOMPARE(moved[i].body, sent.body);
        QCOMPARE(moved[i].correlationId, sent.correlationId);
        QCOMPARE(moved[i].applicationProperties, sent.applicationProperties);
    }
}

void TestUiDragDrop::dropWithCopyKeepsSource() {
    DropEnv env;
    const QList<qint64> seqs = env.sendTo(kQueue, 3);
    NamespaceTreeModel model(*env.client);
    QVERIFY(waitForRow(model, QStringLiteral("test:b")));
    QSignalSpy finished(&model, &NamespaceTreeModel::dropFinished);
    auto mime = messagesMime(QStringLiteral("test:orders"), seqs.mid(0, 2));
    QVERIFY(model.dropMimeData(mime.get(), Qt::CopyAction, -1, -1,
                               rowOf(model, QStringLiteral("test:b"))));
    QTRY_COMPARE(finished.count(), 1);
    QVERIFY(finished.first().first().toString().startsWith(QStringLiteral("Copied 2 messages")));
    QCOMPARE(env.messages(kQueue).size(), 3);
    QCOMPARE(env.messages(kTarget).size(), 2);
}

void TestUiDragDrop::deadLetterDropOnItsEntityResubmits() {
    DropEnv env;
    env.deadLetter(kQueue, 1, QStringLiteral("BadOrder"), QStringLiteral("Customer is missing"));
    const QList<MessageView> dead = env.messages(kDlq);
    QCOMPARE(dead.size(), 1);
    NamespaceTreeModel model(*env.client);
    QVERIFY(waitForRow(model, QStringLiteral("test:orders")));
    QSignalSpy finished(&model, &NamespaceTreeModel::dropFinished);

    auto mime =
        messagesMime(QStringLiteral("test:orders/$deadletterqueue"), {dead.first().sequenceNumber});
    const QModelIndex owner = rowOf(model, QStringLiteral("test:orders"));
    QVERIFY(model.canDropMimeData(mime.get(), Qt::MoveAction, -1, -1, owner));
    QVERIFY(model.dropMimeData(mime.get(), Qt::MoveAction, -1, -1, owner));
    QTRY_COMPARE(finished.count(), 1);
    QVERIFY(
        finished.first().first().toString().startsWith(QStringLiteral("Resubmitted 1 message")));

    QVERIFY(env.messages(kDlq).isEmpty());
    const QList<MessageView> back = env.messages(kQueue);
    QCOMPARE(back.size(), 1);
    QCOMPARE(back.first().messageId, dead.first().messageId);
    QCOMPARE(back.first().body, dead.first().body);
    QVERIFY(!back.first().applicationProperties.contains(QStringLiteral("DeadLetterReason")));
    QVERIFY(back.first().deadLetterReason.isEmpty());
    QCOMPARE(back.first().applicationProperties.value(QStringLiteral("customer")),
             QVariant(QStringLiteral("acme")));
}

void TestUiDragDrop::refusedTargets() {
    DropEnv env;
    const QList<qint64> seqs = env.sendTo(kQueue, 1);
    env.update(kTarget, [](EntityProperties& p) { p.status = EntityStatus::Disabled; });
    NamespaceTreeModel model(*env.client);
    QVERIFY(waitForRow(model, QStringLiteral("test:b")));
    auto mime = messagesMime(QStringLiteral("test:orders"), seqs);

    const QModelIndex disabled = rowOf(model, QStringLiteral("test:b"));
    QVERIFY(!model.canDropMimeData(mime.get(), Qt::MoveAction, -1, -1, disabled));
    QCOMPARE(model.dropRefusal(mime.get(), Qt::MoveAction, disabled)->code,
             ErrorCode::MessagingEntityDisabled);
    const QModelIndex dlq = rowOf(model, QStringLiteral("test:orders/$deadletterqueue"));
    QVERIFY(dlq.isValid());
    QVERIFY(!(model.flags(dlq) & Qt::ItemIsDropEnabled));
    QVERIFY(!model.canDropMimeData(mime.get(), Qt::MoveAction, -1, -1, dlq));
    QVERIFY(!model.canDropMimeData(mime.get(), Qt::MoveAction, -1, -1,
                                   rowOf(model, QStringLiteral("test:orders"))));
    QVERIFY(!model.canDropMimeData(mime.get(), Qt::MoveAction, -1, -1,
                                   rowOf(model, QStringLiteral("test"))));

    // A drop asked for anyway is refused with the same reason, and nothing moves.
    QSignalSpy failed(&model, &NamespaceTreeModel::dropFailed);
    QVERIFY(!model.dropMimeData(mime.get(), Qt::MoveAction, -1, -1, disabled));
    QCOMPARE(failed.count(), 1);
    QCOMPARE(failed.first().first().value<Error>().code, ErrorCode::MessagingEntityDisabled);
    QCOMPARE(env.messages(kQueue).size(), 1);
}

void TestUiDragDrop::dropThroughViewEvents() {
    DropEnv env;
    const QList<qint64> seqs = env.sendTo(kQueue, 3);
    NamespaceTreePanel panel(*env.client);
    panel.resize(500, 400);
    panel.show();
    QVERIFY(waitForRow(*panel.model(), QStringLiteral("test:b")));
    QSignalSpy status(&panel, &NamespaceTreePanel::statusMessage);
    QTreeView* view = panel.view();
    QWidget* viewport = view->viewport();

    // A real drag started by MessageDragSource proposes Move (its default action) and Copy with
    // Ctrl; a synthetic event has no QDrag behind it, so the proposed action is set as a drag
    // would set it.
    const auto dropAt = [&](const QString& path, const QMimeData* mime,
                            Qt::KeyboardModifiers modifiers) {
        const Qt::DropAction proposed =
            modifiers & Qt::ControlModifier ? Qt::CopyAction : Qt::MoveAction;
        const QModelIndex row = rowOf(*view->model(), path);
        const QPoint center = view->visualRect(row).center();
        const Qt::DropActions actions = Qt::MoveAction | Qt::CopyAction;
        QDragEnterEvent enter(center, actions, mime, Qt::LeftButton, modifiers);
        enter.setDropAction(proposed);
        QCoreApplication::sendEvent(viewport, &enter);
        QVERIFY(enter.isAccepted());
        QDragMoveEvent move(center, actions, mime, Qt::LeftButton, modifiers);
        move.setDropAction(proposed);
        QCoreApplication::sendEvent(viewport, &move);
        QVERIFY(move.isAccepted());
        QDropEvent drop(center, actions, mime, Qt::LeftButton, modifiers);
        drop.setDropAction(proposed);
        QCoreApplication::sendEvent(viewport, &drop);
        QVERIFY(drop.isAccepted());
    };

    // No modifier: a move.
    auto moveMime = messagesMime(QStringLiteral("test:orders"), seqs.mid(0, 2));
    dropAt(QStringLiteral("test:b"), moveMime.get(), Qt::NoModifier);
    QTRY_COMPARE(status.count(), 1);
    QCOMPARE(status.first().first().toString(), QStringLiteral("Moved 2 messages to 'b'."));
    QCOMPARE(env.messages(kQueue).size(), 1);
    QCOMPARE(env.messages(kTarget).size(), 2);

    // Ctrl: a copy.
    auto copyMime = messagesMime(QStringLiteral("test:orders"), seqs.mid(2, 1));
    dropAt(QStringLiteral("test:b"), copyMime.get(), Qt::ControlModifier);
    QTRY_COMPARE(status.count(), 2);
    QCOMPARE(status.last().first().toString(), QStringLiteral("Copied 1 message to 'b'."));
    QCOMPARE(env.messages(kQueue).size(), 1);
    QCOMPARE(env.messages(kTarget).size(), 3);
}

void TestUiDragDrop::refusedRowIgnoresDragAndSaysWhy() {
    DropEnv env;
    const QList<qint64> seqs = env.sendTo(kQueue, 1);
    env.update(kTarget, [](EntityProperties& p) { p.status = EntityStatus::SendDisabled; });
    NamespaceTreePanel panel(*env.client);
    panel.resize(500, 400);
    panel.show();
    QVERIFY(waitForRow(*panel.model(), QStringLiteral("test:b")));
    QTreeView* view = panel.view();
    auto* hint = child<QLabel>(panel, "dropHint");
    QVERIFY(!hint->isVisible());

    auto mime = messagesMime(QStringLiteral("test:orders"), seqs);
    const Qt::DropActions actions = Qt::MoveAction | Qt::CopyAction;
    const QPoint refused =
        view->visualRect(rowOf(*view->model(), QStringLiteral("test:b"))).center();
    QDragEnterEvent enter(refused, actions, mime.get(), Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(view->viewport(), &enter);
    QDragMoveEvent move(refused, actions, mime.get(), Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(view->viewport(), &move);
    QVERIFY(!move.isAccepted());
    QVERIFY(hint->isVisible());
    QVERIFY2(hint->text().contains(QStringLiteral("SendDisabled")), qPrintable(hint->text()));

    // Over an accepting row the hint goes away; leaving the view clears it too.
    const QPoint accepted =
        view->visualRect(rowOf(*view->model(), QStringLiteral("test:t"))).center();
    QDragMoveEvent over(accepted, actions, mime.get(), Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(view->viewport(), &over);
    QVERIFY(over.isAccepted());
    QVERIFY(!hint->isVisible());
    QCOMPARE(env.messages(kTarget).size(), 0);
}

void TestUiDragDrop::fileDropBecomesMessage() {
    DropEnv env;
    const QString path = env.dir.filePath(QStringLiteral("order.json"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("{\"order\": 17}\n");
    file.close();

    NamespaceTreeModel model(*env.client);
    QVERIFY(waitForRow(model, QStringLiteral("test:b")));
    QSignalSpy finished(&model, &NamespaceTreeModel::dropFinished);
    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(path)});
    const QModelIndex target = rowOf(model, QStringLiteral("test:b"));
    QVERIFY(model.canDropMimeData(&mime, Qt::CopyAction, -1, -1, target));
    QVERIFY(model.dropMimeData(&mime, Qt::CopyAction, -1, -1, target));
    QTRY_COMPARE(finished.count(), 1);
    QVERIFY2(finished.first().first().toString().contains(QStringLiteral("order.json")) ||
                 finished.first().first().toString().contains(QStringLiteral("1 file")),
             qPrintable(finished.first().first().toString()));

    const QList<MessageView> sent = env.messages(kTarget);
    QCOMPARE(sent.size(), 1);
    QCOMPARE(sent.first().body, QByteArray("{\"order\": 17}\n"));
    QCOMPARE(sent.first().contentType, QStringLiteral("application/json"));
    QCOMPARE(sent.first().messageId, QStringLiteral("order.json"));

    // Files go to queues and topics, not to subscriptions.
    QVERIFY(!model.canDropMimeData(&mime, Qt::CopyAction, -1, -1,
                                   rowOf(model, QStringLiteral("test:t/Subscriptions/s1"))));
}

void TestUiDragDrop::oversizeFileIsRefused() {
    DropEnv env;
    env.update(kTarget, [](EntityProperties& p) { p.maxMessageSizeInKilobytes = 1; });
    const QString path = env.dir.filePath(QStringLiteral("big.bin"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(QByteArray(4096, 'x'));
    file.close();

    NamespaceTreeModel model(*env.client);
    QVERIFY(waitForRow(model, QStringLiteral("test:b")));
    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(path)});
    const QModelIndex target = rowOf(model, QStringLiteral("test:b"));
    QVERIFY(!model.canDropMimeData(&mime, Qt::CopyAction, -1, -1, target));
    QSignalSpy failed(&model, &NamespaceTreeModel::dropFailed);
    QVERIFY(!model.dropMimeData(&mime, Qt::CopyAction, -1, -1, target));
    QCOMPARE(failed.count(), 1);
    const Error error = failed.first().first().value<Error>();
    QCOMPARE(error.code, ErrorCode::MessageSizeExceeded);
    QVERIFY2(error.description.contains(QStringLiteral("big.bin")), qPrintable(error.description));

    // The worker side refuses too (a file grown after the drag began), sending nothing.
    auto sent =
        env.call([path](Broker& b) { return sendFiles(b, QStringLiteral("test:b"), {path}); });
    QVERIFY(!sent);
    QCOMPARE(sent.error().code, ErrorCode::MessageSizeExceeded);
    QCOMPARE(env.messages(kTarget).size(), 0);
}

void TestUiDragDrop::listsStartDragsOfTheSelection() {
    DropEnv env;
    // Dead-lettered first: deadLetter() receives the queue's first message.
    env.deadLetter(kQueue, 2, QStringLiteral("BadOrder"), QStringLiteral("no"));
    const QList<qint64> seqs = env.sendTo(kQueue, 3);

    MessageListPanel list(*env.client);
    list.show();
    list.setPath(QStringLiteral("test:orders"));
    QTRY_COMPARE(list.view()->model()->rowCount(), 3);
    QTRY_VERIFY(list.view()->model()->index(2, 0).data(Qt::UserRole).isValid());
    list.view()->selectAll();
    auto* source = list.view()->findChild<MessageDragSource*>();
    QVERIFY(source);
    std::unique_ptr<QMimeData> mime(source->createMimeData());
    QVERIFY(mime);
    auto dragged = decodeMessages(mime.get());
    QVERIFY(dragged);
    QCOMPARE(dragged->sourcePath, QStringLiteral("test:orders"));
    QCOMPARE(dragged->sequenceNumbers.size(), 3);
    for (qint64 seq : seqs)
        QVERIFY(dragged->sequenceNumbers.contains(seq));

    DeadLetterPanel dead(*env.client);
    dead.show();
    dead.setEntity(QStringLiteral("test:orders"), Kind::Queue);
    QTRY_COMPARE(dead.model()->rowCount(), 2);
    dead.view()->selectAll();
    auto* deadSource = dead.view()->findChild<MessageDragSource*>();
    QVERIFY(deadSource);
    std::unique_ptr<QMimeData> deadMime(deadSource->createMimeData());
    QVERIFY(deadMime);
    dragged = decodeMessages(deadMime.get());
    QVERIFY(dragged);
    QCOMPARE(dragged->sourcePath, QStringLiteral("test:orders/$deadletterqueue"));
    QCOMPARE(dragged->sequenceNumbers, dead.selectedSequenceNumbers());
    QCOMPARE(dragged->sequenceNumbers.size(), 2);
}

void TestUiDragDrop::smallSelectionsDragOutAsJsonFiles() {
    DropEnv env;
    env.sendTo(kQueue, 3);
    MessageListPanel list(*env.client);
    list.show();
    list.setPath(QStringLiteral("test:orders"));
    QTRY_COMPARE(list.view()->model()->rowCount(), 3);
    QTRY_VERIFY(list.view()->model()->index(2, 0).data(Qt::UserRole).isValid());
    auto* source = list.view()->findChild<MessageDragSource*>();
    QVERIFY(source && source->files());
    QSignalSpy ready(source->files(), &MessageDragFiles::ready);
    list.view()->selectRow(0);
    list.view()->selectionModel()->select(list.view()->model()->index(1, 0),
                                          QItemSelectionModel::Select | QItemSelectionModel::Rows);
    QTRY_VERIFY(!ready.isEmpty());

    std::unique_ptr<QMimeData> mime(source->createMimeData());
    QVERIFY(mime && decodeMessages(mime.get()));
    QCOMPARE(decodeMessages(mime.get())->sequenceNumbers.size(), 2);
    const QList<QUrl> urls = mime->urls();
    QCOMPARE(urls.size(), 2);
    QFile first(urls.first().toLocalFile());
    QVERIFY(first.open(QIODevice::ReadOnly));
    const QJsonObject json = QJsonDocument::fromJson(first.readAll()).object();
    QCOMPARE(json.value(QStringLiteral("messageId")).toString(), QStringLiteral("m-0"));
    QCOMPARE(json.value(QStringLiteral("body")).toString(), QStringLiteral("{\"id\":\"m-0\"}"));

    // A changed selection forgets the files until the new ones are written.
    list.view()->selectRow(2);
    std::unique_ptr<QMimeData> changed(source->createMimeData());
    QVERIFY(changed && !changed->hasUrls());
    QTRY_COMPARE(ready.count(), 2);
    changed.reset(source->createMimeData());
    QCOMPARE(changed->urls().size(), 1);
}

// Select all in a list far longer than the loaded pages: the rows not loaded are read in the
// background as soon as the selection settles, so the drag carries every message and the drop
// moves them all. Before the read is done, the drag is refused with a word, not half done.
void TestUiDragDrop::selectionBeyondTheLoadedRowsDragsWhole() {
    DropEnv env;
    constexpr int kCount = 3000; // fifteen pages; a small view loads the first one or two
    const QList<qint64> seqs = env.sendTo(kQueue, kCount);
    MessageListPanel list(*env.client);
    list.resize(700, 300);
    list.show();
    list.setPath(QStringLiteral("test:orders"));
    QTRY_COMPARE(list.view()->model()->rowCount(), kCount);
    QTRY_VERIFY(list.view()->model()->index(0, 0).data(Qt::UserRole).isValid());
    QVERIFY(!list.model()->isRowLoaded(kCount - 1));
    auto* source = list.view()->findChild<MessageDragSource*>();
    QVERIFY(source);
    QSignalSpy refused(source, &MessageDragSource::refused);

    list.view()->selectAll();
    QCOMPARE(list.selectedRowCount(), qint64(kCount));
    QVERIFY(list.selectedRows().size() < kCount);
    QVERIFY(list.selectionPrefetch()->isReading());
    QVERIFY(!source->createMimeData()); // the read has not even started
    QCOMPARE(refused.size(), 1);
    const Error busy = refused.first().first().value<Error>();
    QCOMPARE(busy.code, ErrorCode::ServiceBusy);
    QVERIFY2(busy.description.contains(QStringLiteral("drag again")), qPrintable(busy.description));

    QTRY_VERIFY(list.selectionPrefetch()->result().has_value());
    std::unique_ptr<QMimeData> mime(source->createMimeData());
    QVERIFY(mime);
    const auto dragged = decodeMessages(mime.get());
    QVERIFY(dragged);
    QCOMPARE(dragged->sequenceNumbers, seqs);

    NamespaceTreeModel tree(*env.client);
    QVERIFY(waitForRow(tree, QStringLiteral("test:b")));
    QSignalSpy finished(&tree, &NamespaceTreeModel::dropFinished);
    QVERIFY(tree.dropMimeData(mime.get(), Qt::MoveAction, -1, -1,
                              rowOf(tree, QStringLiteral("test:b"))));
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 20000);
    QVERIFY2(finished.first().first().toString().startsWith(QStringLiteral("Moved 3,000")) ||
                 finished.first().first().toString().startsWith(QStringLiteral("Moved 3000")),
             qPrintable(finished.first().first().toString()));
    QTRY_COMPARE(list.view()->model()->rowCount(), 0);
    const auto moved = env.call([](Broker& b) { return b.counts(kTarget); });
    QVERIFY(moved);
    QCOMPARE(moved->active, qint64(kCount));

    // A selection that changes forgets what was read for the old one.
    list.view()->clearSelection();
    QVERIFY(!list.selectionPrefetch()->result().has_value());
    QVERIFY(!list.selectionPrefetch()->isReading());
}

QTEST_MAIN(TestUiDragDrop)
#include "tst_ui_dragdrop.moc"
