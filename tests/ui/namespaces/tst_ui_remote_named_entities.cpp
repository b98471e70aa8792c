// The window on a namespace whose key cannot list it (a signature made for one queue: the
// administration API answers 401 to a listing): the header says so and what to do, the user
// names the entities through the namespace's menu (a line that does not read is refused in the
// dialog), the names are saved and the namespace opens again on them, the queue the signature
// covers with its counts and the other with a dash, the status line saying that the entities
// are the named ones. No keychain here: the signature is typed again when asked.

#include "PrivateHome.h"
#include "RemoteWindowSteps.h"
#include "ServedNamespace.h"

#include "hourglass/amqpcodec/SasToken.h"
#include "namespaces/SavedNamespaces.h"

#include <QDateTime>
#include <QDialogButtonBox>
#include <QMenu>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>

using namespace hourglass;
using namespace hourglass::ui;
using namespace hourglass::testing;
using namespace namespaces_test;

namespace {

QString signatureFor(const ServedNamespace& served, const QString& entity) {
    return amqp::makeSasToken(
        QStringLiteral("sb://localhost:%1/%2").arg(served.port()).arg(entity),
        amqp::SasKey{QStringLiteral("RootManageSharedAccessKey"), QStringLiteral("SAS_KEY_VALUE")},
        QDateTime::currentSecsSinceEpoch() + 3600);
}

QString statusOf(RemoteNamespaceView* view) {
    return view->findChild<QLabel*>(QStringLiteral("namespaceStatus"))->text();
}

QString shownAt(RemoteNamespaceView* view, const QString& path, int column) {
    QAbstractItemModel* model = view->tree()->view()->model();
    const QModelIndex row = findPath(model, path);
    return model->index(row.row(), column, row.parent()).data().toString();
}

} // namespace

class TestRemoteNamedEntities : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        if (privateHome().isEmpty())
            QSKIP("run through secret-service.sh: this test needs a home of its own");
        QCoreApplication::setOrganizationName(QStringLiteral("hourglass-tests"));
    }

    void aKeyThatCannotListBrowsesTheEntitiesNamed() {
        ServedNamespace served(ServedNamespace::Transport::Plain);
        QVERIFY(served.broker().createQueue(QStringLiteral("orders"), {}).ok());
        QVERIFY(served.broker().createQueue(QStringLiteral("secret"), {}).ok());
        OutgoingMessage message;
        message.body = "hello";
        QVERIFY(served.broker().send(QStringLiteral("orders"), message));
        const QString signature = signatureFor(served, QStringLiteral("orders"));
        QTemporaryDir dir;
        MainWindow window;
        QVERIFY(showWithDatabase(window, dir, QSize(1100, 720)));

        // Opening fails: the listing is refused, and the header says what to do.
        const QString text = QStringLiteral("Endpoint=sb://localhost:%1;SharedAccessSignature=%2;"
                                            "UseDevelopmentEmulator=true")
                                 .arg(served.port())
                                 .arg(signature);
        QVERIFY(!connectThroughDialog(window, text, {}, QStringLiteral("Scoped")));
        QCOMPARE(window.remotes()->views().size(), 1);
        RemoteNamespaceView* view = window.remotes()->views().first();
        QTRY_COMPARE(view->header()->state(), NamespaceHeader::State::Failed);
        QVERIFY2(statusOf(view).contains(QStringLiteral("name the entities")),
                 qPrintable(statusOf(view)));

        // ⋯ > Entities to browse…: a bad line is named and refused, then two queues.
        view->findChild<QAction*>(QStringLiteral("nameEntities"))->trigger();
        QDialog* dialog = nullptr;
        QTRY_VERIFY((dialog = openDialog(QStringLiteral("namedEntitiesDialog"))));
        auto* edit = dialog->findChild<QPlainTextEdit*>(QStringLiteral("namedEntitiesText"));
        auto* problem = dialog->findChild<QLabel*>(QStringLiteral("namedEntitiesProblem"));
        auto* ok = dialog->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok);
        edit->setPlainText(QStringLiteral("orders\nstream secret"));
        QVERIFY(!ok->isEnabled());
        QVERIFY(problem->isVisible());
        QVERIFY2(problem->text().contains(QStringLiteral("Line 2")), qPrintable(problem->text()));
        edit->setPlainText(QStringLiteral("orders\nqueue secret"));
        QVERIFY(ok->isEnabled());
        QVERIFY(!problem->isVisible());
        ok->click();

        // Saved (in one form), and opened again: the signature is asked for (no keychain).
        QTRY_COMPARE(window.remotes()->saved()->find(view->saved().id)->namedEntities,
                     QStringLiteral("orders\nsecret"));
        QDialog* prompt = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT((prompt = openDialog(QStringLiteral("keyPrompt"))), 10000);
        prompt->findChild<QLineEdit*>(QStringLiteral("keyField"))->setText(signature);
        prompt->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok)->click();
        QTRY_VERIFY_WITH_TIMEOUT(view->isConnected(), 20000);

        // The covered queue with its counts; the other with dashes, its tooltip saying why.
        QTRY_COMPARE(treeActive(view->tree(), QStringLiteral("localhost:orders")), 1);
        QTRY_VERIFY(
            findPath(view->tree()->view()->model(), QStringLiteral("localhost:secret")).isValid());
        QCOMPARE(
            shownAt(view, QStringLiteral("localhost:secret"), NamespaceTreeModel::ActiveColumn),
            QStringLiteral("—"));
        QVERIFY(shownAt(view, QStringLiteral("localhost:secret"), NamespaceTreeModel::NameColumn)
                    .startsWith(QStringLiteral("secret")));
        QAbstractItemModel* model = view->tree()->view()->model();
        QVERIFY(findPath(model, QStringLiteral("localhost:secret"))
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("Counts unknown")));
        QTRY_VERIFY2(statusOf(view).contains(QStringLiteral("the entities named")),
                     qPrintable(statusOf(view)));
        QVERIFY(selectInRemote(window, view, QStringLiteral("localhost:orders")));
    }
};

QTEST_MAIN(TestRemoteNamedEntities)
#include "tst_ui_remote_named_entities.moc"
