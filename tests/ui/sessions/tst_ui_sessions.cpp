// The Sessions tab over a real broker on a virtual clock (S1-S6): the model's rows,
// counts, holder, live session lock countdown and state size, refreshed by the change feed; the
// view's sorting and filtering; the state shown as text, JSON or hex and edited with a
// confirmation (bad input refused, nothing written; a session another receiver holds refused in
// words); "SessionId=<id>" in the message filter.

#include "SessionsTestEnv.h"
#include "common/DurationText.h"
#include "messages/MessageListModel.h"
#include "messages/MessageMatcher.h"
#include "sessions/SessionListModel.h"
#include "sessions/SessionStateDialog.h"
#include "sessions/SessionStateText.h"
#include "sessions/SessionsPanel.h"

#include <QAbstractItemModelTester>
#include <QCheckBox>
#include <QComboBox>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTest>

using namespace hourglass;
using namespace hourglass::ui;
using Model = SessionListModel;

namespace {

QString cell(const QAbstractItemModel& model, const QString& sessionId, int column,
             int role = Qt::DisplayRole) {
    for (int row = 0; row < model.rowCount(); ++row)
        if (model.index(row, 0).data(Model::SessionIdRole).toString() == sessionId)
            return model.index(row, column).data(role).toString();
    return QStringLiteral("<no row>");
}

Countdown lockCountdownOf(const Model& model, const QString& sessionId) {
    return model.index(model.rowOf(sessionId), Model::SessionLockColumn)
        .data(MessageListModel::CountdownRole)
        .value<Countdown>();
}

// The panel on "orders", shown (so its countdown ticker runs), its models under the tester.
struct PanelFixture {
    testing::SessionsTestEnv& env;
    SessionsPanel panel;
    QAbstractItemModelTester modelTester;
    QAbstractItemModelTester sortedTester;
    QList<Error> errors;

    explicit PanelFixture(testing::SessionsTestEnv& e, const QString& path = "test:orders")
        : env(e)
        , panel(*e.client)
        , modelTester(panel.model(), QAbstractItemModelTester::FailureReportingMode::QtTest)
        , sortedTester(panel.sorted(), QAbstractItemModelTester::FailureReportingMode::QtTest) {
        QObject::connect(&panel, &SessionsPanel::errorOccurred,
                         [this](const Error& error) { errors.append(error); });
        panel.resize(900, 500);
        panel.show();
        panel.setEntity(path);
    }
    template <typename T> T* find(const char* name) {
        T* child = panel.findChild<T*>(QLatin1String(name));
        if (!child)
            qFatal("no child %s", name);
        return child;
    }
    SessionStateDialog* openEditor(const QString& sessionId) {
        panel.selectSession(sessionId);
        // The state is read off the GUI thread before the editor can open.
        if (!QTest::qWaitFor([&] { return find<QPushButton>("sessionEditState")->isEnabled(); }))
            qFatal("the state of %s was never read", qPrintable(sessionId));
        panel.editState();
        SessionStateDialog* dialog = nullptr;
        if (!QTest::qWaitFor([&] {
                return (dialog = panel.findChild<SessionStateDialog*>(
                            QStringLiteral("sessionStateDialog")));
            }))
            qFatal("no state dialog");
        return dialog;
    }
};

template <typename T> T* in(QWidget* parent, const char* name) {
    T* child = parent->findChild<T*>(QLatin1String(name));
    if (!child)
        qFatal("no child %s", name);
    return child;
}

} // namespace

class SessionsTest : public QObject {
    Q_OBJECT
private slots:
    void model_S2_countsHolderAndLiveSessionLockCountdown();
    void model_followsTheChangeFeed();
    void view_sortsByAnyColumnAndFiltersByIdOrHolder();
    void entityWithoutSessions_saysWhyItIsEmpty();
    void stateText_S4_readsAndRefusesEachFormat_data();
    void stateText_S4_readsAndRefusesEachFormat();
    void statePane_showsTheStateAsTextJsonOrHex();
    void stateEditor_S4_confirmsBeforeWriting();
    void stateEditor_badInputChangesNothing();
    void stateEditor_S4_aSessionAnotherReceiverHoldsIsRefusedInWords();
    void messageFilter_S1_sessionIdPairMatchesThatSessionOnly();
};

void SessionsTest::model_S2_countsHolderAndLiveSessionLockCountdown() {
    testing::SessionsTestEnv env;
    env.send(QStringLiteral("A"), QStringLiteral("a-1"));
    env.send(QStringLiteral("B"), QStringLiteral("b-1"));
    env.send(QStringLiteral("A"), QStringLiteral("a-2"));
    const AcceptedSession held = env.accept(QStringLiteral("B"), QStringLiteral("alice"));
    PanelFixture f(env);
    Model& model = *f.panel.model();
    QTRY_COMPARE(model.rowCount(), 2);
    QCOMPARE(model.availability(), Model::Availability::Sessionful);
    QCOMPARE(cell(model, "A", Model::ActiveColumn), QStringLiteral("2"));
    QCOMPARE(cell(model, "A", Model::HolderColumn), QStringLiteral("available"));
    QCOMPARE(lockCountdownOf(model, "A").kind, Countdown::Kind::None);
    QCOMPARE(cell(model, "B", Model::ActiveColumn), QStringLiteral("1"));
    QCOMPARE(cell(model, "B", Model::HolderColumn), QStringLiteral("alice"));
    QCOMPARE(cell(model, "B", Model::StateColumn), QStringLiteral("none"));
    QCOMPARE(lockCountdownOf(model, "B").kind, Countdown::Kind::Running);
    QCOMPARE(lockCountdownOf(model, "B").remaining, seconds(30));
    QVERIFY(f.find<QLabel>("sessionsTitle")->text().contains(QStringLiteral(": 2")));

    // The countdown runs on the engine's clock, without a read.
    env.clock->advance(seconds(12));
    QTRY_COMPARE(lockCountdownOf(model, "B").remaining, seconds(18));
    QCOMPARE(cell(model, "B", Model::SessionLockColumn), QStringLiteral("18s"));

    // A received message counts as locked, not active.
    const auto taken = env.call([ref = SessionRef::of(held)](Broker& b) {
        return b.receiveFromSession(ref, ReceiveMode::PeekLock, 1);
    });
    QVERIFY(taken.ok());
    QTRY_COMPARE(cell(model, "B", Model::LockedColumn), QStringLiteral("1"));
    QCOMPARE(cell(model, "B", Model::ActiveColumn), QStringLiteral("0"));
    QVERIFY(f.errors.isEmpty());
}

void SessionsTest::model_followsTheChangeFeed() {
    testing::SessionsTestEnv env;
    env.send(QStringLiteral("A"), QStringLiteral("a-1"));
    PanelFixture f(env);
    Model& model = *f.panel.model();
    QTRY_COMPARE(model.rowCount(), 1);
    f.panel.selectSession(QStringLiteral("A"));
    env.send(QStringLiteral("C"), QStringLiteral("c-1"));
    env.send(QStringLiteral("B"), QStringLiteral("b-1"));
    QTRY_COMPARE(model.rowCount(), 3);
    // Rows in id order, inserted where they belong; the selection stayed on A.
    QCOMPARE(model.sessionAt(1).sessionId, QStringLiteral("B"));
    QCOMPARE(f.panel.currentSession().value_or(QString()), QStringLiteral("A"));
    // A session lock taken elsewhere shows up, and one released goes.
    const AcceptedSession held = env.accept(QStringLiteral("C"), QStringLiteral("bob"));
    QTRY_COMPARE(cell(model, "C", Model::HolderColumn), QStringLiteral("bob"));
    QVERIFY(
        env.call([ref = SessionRef::of(held)](Broker& b) { return b.releaseSession(ref); }).ok());
    QTRY_COMPARE(cell(model, "C", Model::HolderColumn), QStringLiteral("available"));
}

void SessionsTest::view_sortsByAnyColumnAndFiltersByIdOrHolder() {
    testing::SessionsTestEnv env;
    for (int i = 0; i < 3; ++i)
        env.send(QStringLiteral("big"), QStringLiteral("big-%1").arg(i));
    env.send(QStringLiteral("small"), QStringLiteral("small-1"));
    env.send(QStringLiteral("medium"), QStringLiteral("medium-1"));
    env.send(QStringLiteral("medium"), QStringLiteral("medium-2"));
    env.accept(QStringLiteral("small"), QStringLiteral("carol"));
    PanelFixture f(env);
    QSortFilterProxyModel& sorted = *f.panel.sorted();
    QTRY_COMPARE(sorted.rowCount(), 3);
    const auto idAt = [&sorted](int row) {
        return sorted.index(row, 0).data(Model::SessionIdRole).toString();
    };
    QCOMPARE(idAt(0), QStringLiteral("big")); // by id at first
    f.panel.view()->sortByColumn(Model::ActiveColumn, Qt::AscendingOrder);
    QCOMPARE(idAt(0), QStringLiteral("small"));
    QCOMPARE(idAt(1), QStringLiteral("medium"));
    QCOMPARE(idAt(2), QStringLiteral("big"));
    f.panel.view()->sortByColumn(Model::SessionLockColumn, Qt::DescendingOrder);
    QCOMPARE(idAt(0), QStringLiteral("small")); // the only locked one

    auto* filter = f.find<QLineEdit>("sessionFilter");
    filter->setText(QStringLiteral("CAROL")); // the holder, any case
    QCOMPARE(sorted.rowCount(), 1);
    QCOMPARE(idAt(0), QStringLiteral("small"));
    filter->setText(QStringLiteral("m"));
    QCOMPARE(sorted.rowCount(), 2);       // small, medium: ids only, not counts
    filter->setText(QStringLiteral("1")); // a count, not an id: nothing
    QCOMPARE(sorted.rowCount(), 0);
    filter->clear();
    QCOMPARE(sorted.rowCount(), 3);
}

void SessionsTest::entityWithoutSessions_saysWhyItIsEmpty() {
    testing::SessionsTestEnv env;
    SessionsPanel panel(*env.client);
    QSignalSpy available(&panel, &SessionsPanel::sessionsAvailable);
    panel.show();
    panel.setEntity(QStringLiteral("test:orders"));
    QTRY_COMPARE(available.count(), 1);
    QCOMPARE(available.last().first().toBool(), true);
    auto* empty = in<QLabel>(&panel, "sessionsEmpty");
    QTRY_VERIFY(empty->isVisible());
    QVERIFY(empty->text().contains(QStringLiteral("No sessions yet")));

    panel.setEntity(QStringLiteral("test:plain"));
    QTRY_COMPARE(available.count(), 2);
    QCOMPARE(available.last().first().toBool(), false);
    QVERIFY2(empty->text().contains(QStringLiteral("does not require sessions")),
             qPrintable(empty->text()));
    QVERIFY(!in<QLineEdit>(&panel, "sessionFilter")->isEnabled());

    panel.setEntity(QStringLiteral("test:gone"));
    QTRY_VERIFY(empty->text().contains(QStringLiteral("MessagingEntityNotFound")));
}

void SessionsTest::stateText_S4_readsAndRefusesEachFormat_data() {
    QTest::addColumn<int>("format");
    QTest::addColumn<QString>("typed");
    QTest::addColumn<bool>("ok");
    QTest::addColumn<QByteArray>("bytes");
    const int text = int(StateFormat::Text), json = int(StateFormat::Json),
              hex = int(StateFormat::Hex);
    QTest::newRow("text") << text << QStringLiteral("step 3 · ok") << true
                          << QStringLiteral("step 3 · ok").toUtf8();
    QTest::newRow("json") << json << QStringLiteral("{\"step\": 3}") << true
                          << QByteArray("{\"step\": 3}");
    QTest::newRow("json refused") << json << QStringLiteral("{\"step\": ") << false << QByteArray();
    QTest::newRow("hex spaced") << hex << QStringLiteral("00 ff 7A\n10") << true
                                << QByteArray("\x00\xff\x7a\x10", 4);
    QTest::newRow("hex 0x") << hex << QStringLiteral("0x01, 0x02") << true
                            << QByteArray("\x01\x02", 2);
    QTest::newRow("hex odd") << hex << QStringLiteral("abc") << false << QByteArray();
    QTest::newRow("hex bad digit") << hex << QStringLiteral("zz") << false << QByteArray();
    QTest::newRow("hex x inside") << hex << QStringLiteral("a0xb") << false << QByteArray();
}

void SessionsTest::stateText_S4_readsAndRefusesEachFormat() {
    QFETCH(int, format);
    QFETCH(QString, typed);
    QFETCH(bool, ok);
    QFETCH(QByteArray, bytes);
    const auto read = stateFromText(typed, StateFormat(format));
    QCOMPARE(read.ok(), ok);
    if (!ok) {
        QCOMPARE(read.error().code, ErrorCode::InvalidArgument);
        QVERIFY(!read.error().description.isEmpty());
        return;
    }
    QCOMPARE(*read, bytes);
    // What is shown reads back as the same bytes.
    const StateText shown = stateToText(bytes, StateFormat(format));
    QVERIFY(shown.ok);
    const QByteArray back = *stateFromText(shown.text, StateFormat(format));
    if (StateFormat(format) == StateFormat::Json) // indented when shown: the same document
        QCOMPARE(QJsonDocument::fromJson(back), QJsonDocument::fromJson(bytes));
    else
        QCOMPARE(back, bytes);
}

void SessionsTest::statePane_showsTheStateAsTextJsonOrHex() {
    testing::SessionsTestEnv env;
    env.send(QStringLiteral("A"), QStringLiteral("a-1"));
    const AcceptedSession held = env.accept(QStringLiteral("A"), QStringLiteral("alice"));
    QVERIFY(env.call([ref = SessionRef::of(held)](Broker& b) {
                   return b.setSessionState(ref, QByteArray("{\"step\":3}"));
               })
                .ok());
    PanelFixture f(env);
    QTRY_COMPARE(f.panel.model()->rowCount(), 1);
    QCOMPARE(cell(*f.panel.model(), "A", Model::StateColumn), QStringLiteral("10 bytes"));
    f.panel.selectSession(QStringLiteral("A"));
    auto* view = f.find<QPlainTextEdit>("sessionStateView");
    auto* format = f.find<QComboBox>("sessionStateFormat");
    // JSON opens as JSON, indented.
    QTRY_VERIFY(view->toPlainText().contains(QStringLiteral("\"step\": 3")));
    QCOMPARE(format->currentData().toInt(), int(StateFormat::Json));
    format->setCurrentIndex(format->findData(int(StateFormat::Hex)));
    QVERIFY(view->toPlainText().startsWith(QStringLiteral("7b 22 73")));
    format->setCurrentIndex(format->findData(int(StateFormat::Text)));
    QCOMPARE(view->toPlainText(), QStringLiteral("{\"step\":3}"));
}

void SessionsTest::stateEditor_S4_confirmsBeforeWriting() {
    testing::SessionsTestEnv env;
    env.send(QStringLiteral("A"), QStringLiteral("a-1"));
    PanelFixture f(env);
    QTRY_COMPARE(f.panel.model()->rowCount(), 1);
    SessionStateDialog* dialog = f.openEditor(QStringLiteral("A"));
    in<QPlainTextEdit>(dialog, "stateEdit")->setPlainText(QStringLiteral("shipped 1 of 3"));
    QTest::mouseClick(in<QPushButton>(dialog, "stateApply"), Qt::LeftButton);
    // Asked, not written.
    auto* question = in<QLabel>(dialog, "stateConfirmText");
    QVERIFY(question->isVisible());
    QVERIFY2(question->text().contains(QStringLiteral("session A")) &&
                 question->text().contains(QStringLiteral("14 bytes")),
             qPrintable(question->text()));
    QVERIFY(!env.session(QStringLiteral("A")).hasState);
    // Back, then again and Confirm.
    QTest::mouseClick(in<QPushButton>(dialog, "stateBack"), Qt::LeftButton);
    QVERIFY(!question->isVisible());
    QTest::mouseClick(in<QPushButton>(dialog, "stateApply"), Qt::LeftButton);
    QPointer<SessionStateDialog> guard(dialog);
    QTest::mouseClick(in<QPushButton>(dialog, "stateConfirm"), Qt::LeftButton);
    QTRY_VERIFY(guard.isNull()); // closed once written
    const SessionInfo written = env.session(QStringLiteral("A"));
    QVERIFY(written.hasState);
    QCOMPARE(written.state, QByteArray("shipped 1 of 3"));
    // The explorer gave the session's lock back at once.
    QVERIFY(written.lockedBy.isEmpty());
    QTRY_COMPARE(f.find<QPlainTextEdit>("sessionStateView")->toPlainText(),
                 QStringLiteral("shipped 1 of 3"));
    QTRY_COMPARE(cell(*f.panel.model(), "A", Model::StateColumn), QStringLiteral("14 bytes"));

    // Removing the state is a write too, confirmed the same way.
    dialog = f.openEditor(QStringLiteral("A"));
    in<QCheckBox>(dialog, "stateRemove")->setChecked(true);
    QTest::mouseClick(in<QPushButton>(dialog, "stateApply"), Qt::LeftButton);
    QVERIFY(in<QLabel>(dialog, "stateConfirmText")->text().contains(QStringLiteral("no state")));
    QTest::mouseClick(in<QPushButton>(dialog, "stateConfirm"), Qt::LeftButton);
    QTRY_VERIFY(!env.session(QStringLiteral("A")).hasState);
    QVERIFY(f.errors.isEmpty());
}

void SessionsTest::stateEditor_badInputChangesNothing() {
    testing::SessionsTestEnv env;
    env.send(QStringLiteral("A"), QStringLiteral("a-1"));
    PanelFixture f(env);
    QTRY_COMPARE(f.panel.model()->rowCount(), 1);
    SessionStateDialog* dialog = f.openEditor(QStringLiteral("A"));
    dialog->setFormat(StateFormat::Hex);
    in<QPlainTextEdit>(dialog, "stateEdit")->setPlainText(QStringLiteral("01 2"));
    QTest::mouseClick(in<QPushButton>(dialog, "stateApply"), Qt::LeftButton);
    auto* error = in<QLabel>(dialog, "stateError");
    QVERIFY(error->isVisible());
    QVERIFY2(error->text().contains(QStringLiteral("odd number")), qPrintable(error->text()));
    QVERIFY(!in<QLabel>(dialog, "stateConfirmText")->isVisible()); // nothing to confirm
    // Bad hex cannot be shown as text either: the format stays, the refusal says why.
    dialog->setFormat(StateFormat::Text);
    QCOMPARE(dialog->format(), StateFormat::Hex);
    in<QPlainTextEdit>(dialog, "stateEdit")->clear();
    dialog->setFormat(StateFormat::Json);
    QCOMPARE(dialog->format(), StateFormat::Json);
    in<QPlainTextEdit>(dialog, "stateEdit")->setPlainText(QStringLiteral("{oops"));
    QTest::mouseClick(in<QPushButton>(dialog, "stateApply"), Qt::LeftButton);
    QVERIFY(error->text().contains(QStringLiteral("not JSON")));
    dialog->reject();
    QVERIFY(!env.session(QStringLiteral("A")).hasState);
    QVERIFY(env.session(QStringLiteral("A")).lockedBy.isEmpty());
}

void SessionsTest::stateEditor_S4_aSessionAnotherReceiverHoldsIsRefusedInWords() {
    testing::SessionsTestEnv env;
    env.send(QStringLiteral("A"), QStringLiteral("a-1"));
    env.accept(QStringLiteral("A"), QStringLiteral("alice"));
    PanelFixture f(env);
    QTRY_COMPARE(cell(*f.panel.model(), "A", Model::HolderColumn), QStringLiteral("alice"));
    SessionStateDialog* dialog = f.openEditor(QStringLiteral("A"));
    in<QPlainTextEdit>(dialog, "stateEdit")->setPlainText(QStringLiteral("x"));
    QTest::mouseClick(in<QPushButton>(dialog, "stateApply"), Qt::LeftButton);
    QTest::mouseClick(in<QPushButton>(dialog, "stateConfirm"), Qt::LeftButton);
    auto* error = in<QLabel>(dialog, "stateError");
    QTRY_VERIFY(error->isVisible());
    QVERIFY2(error->text().contains(QStringLiteral("held by alice")), qPrintable(error->text()));
    QVERIFY(error->text().contains(QStringLiteral("SessionCannotBeLocked")));
    QCOMPARE(f.errors.size(), 1);
    const SessionInfo after = env.session(QStringLiteral("A"));
    QVERIFY(!after.hasState);
    QCOMPARE(after.lockedBy, QStringLiteral("alice"));
    dialog->reject();
}

void SessionsTest::messageFilter_S1_sessionIdPairMatchesThatSessionOnly() {
    MessageView a;
    a.messageId = QStringLiteral("order-1");
    a.sessionId = QStringLiteral("customer-a");
    MessageView b = a;
    b.sessionId = QStringLiteral("customer-ab");
    const MessageMatcher matcher(QStringLiteral("SessionId=customer-a"),
                                 MessageMatcher::Bodies::Skip);
    QVERIFY(matcher.matches(a));
    QVERIFY(!matcher.matches(b));
    QVERIFY(MessageMatcher(QStringLiteral("sessionid=customer-ab"), MessageMatcher::Bodies::Skip)
                .matches(b));
}

QTEST_MAIN(SessionsTest)
#include "tst_ui_sessions.moc"
