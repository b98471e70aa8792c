// The Sessions tab's layout: the table fits the tab's width at 1280x800
// without a horizontal scroll bar and keeps the session id readable at 900x600; the state
// editor's note reads in the palette's normal text colour, in the light and the dark theme; the
// Messages list has a Session column on an entity that requires sessions, and none elsewhere.

#include "SessionsTestEnv.h"
#include "common/Theme.h"
#include "messages/MessageListModel.h"
#include "messages/MessageListPanel.h"
#include "sessions/SessionListModel.h"
#include "sessions/SessionStateDialog.h"
#include "sessions/SessionsPanel.h"

#include <QApplication>
#include <QHeaderView>
#include <QLabel>
#include <QScrollBar>
#include <QSettings>
#include <QStandardPaths>
#include <QTableView>
#include <QTest>

using namespace hourglass;
using namespace hourglass::ui;
using Model = SessionListModel;

namespace {
// The Sessions tab's size in the window at 1280x800 and at 900x600 (the tree beside it).
constexpr QSize kTabAt1280x800(768, 640);
constexpr QSize kTabAt900x600(536, 440);
} // namespace

class SessionsLayoutTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("hourglass-tests"));
    }
    void table_fitsWithoutHorizontalScrollAt1280x800();
    void table_keepsTheSessionIdReadableAt900x600();
    void stateNote_readsInNormalTextColourInBothThemes();
    void messageList_S1_showsTheSessionColumnForSessionEntitiesOnly();
};

void SessionsLayoutTest::table_fitsWithoutHorizontalScrollAt1280x800() {
    testing::SessionsTestEnv env;
    env.send(QStringLiteral("customer-01"), QStringLiteral("a-1"));
    env.accept(QStringLiteral("customer-01"), QStringLiteral("worker-1"));
    SessionsPanel panel(*env.client);
    panel.resize(kTabAt1280x800);
    panel.show();
    panel.setEntity(QStringLiteral("test:orders"));
    auto* view = panel.findChild<QTableView*>(QStringLiteral("sessionList"));
    QTRY_COMPARE(panel.model()->rowCount(), 1);
    QTRY_VERIFY(view->isVisible());
    QHeaderView* header = view->horizontalHeader();
    // Every column, the last ("State set") too, inside the viewport: no scroll bar.
    QTRY_COMPARE(view->horizontalScrollBar()->maximum(), 0);
    QVERIFY(header->length() <= view->viewport()->width());
    // Each column at least as wide as its title, and the state's time shown whole.
    const QFontMetrics titles(header->font());
    for (int column = 0; column < Model::ColumnCount; ++column) {
        const QString title = panel.model()->headerData(column, Qt::Horizontal).toString();
        QVERIFY2(header->sectionSize(column) >= titles.horizontalAdvance(title), qPrintable(title));
    }
    QVERIFY(header->sectionSize(Model::StateSetColumn) >=
            view->fontMetrics().horizontalAdvance(QStringLiteral("2026-11-25 10:52:09")));
    // The counts are narrow: together no wider than the text columns' share.
    int counts = 0;
    for (int column :
         {Model::ActiveColumn, Model::DeferredColumn, Model::ScheduledColumn, Model::LockedColumn})
        counts += header->sectionSize(column);
    QVERIFY2(counts < view->viewport()->width() / 2, qPrintable(QString::number(counts)));
}

void SessionsLayoutTest::table_keepsTheSessionIdReadableAt900x600() {
    testing::SessionsTestEnv env;
    env.send(QStringLiteral("customer-01"), QStringLiteral("a-1"));
    SessionsPanel panel(*env.client);
    panel.resize(kTabAt900x600);
    panel.show();
    panel.setEntity(QStringLiteral("test:orders"));
    auto* view = panel.findChild<QTableView*>(QStringLiteral("sessionList"));
    QTRY_COMPARE(panel.model()->rowCount(), 1);
    QHeaderView* header = view->horizontalHeader();
    QVERIFY(header->sectionSize(Model::SessionIdColumn) >
            view->fontMetrics().horizontalAdvance(QStringLiteral("customer-01")));
    QVERIFY(header->sectionSize(Model::HolderColumn) >= header->minimumSectionSize());
}

void SessionsLayoutTest::stateNote_readsInNormalTextColourInBothThemes() {
    for (const ThemeChoice theme : {ThemeChoice::Light, ThemeChoice::Dark}) {
        applyTheme(theme);
        SessionStateDialog dialog(QStringLiteral("test:orders"), QStringLiteral("A"), std::nullopt,
                                  QStringLiteral("Only a session's holder may write its state."));
        dialog.show();
        auto* note = dialog.findChild<QLabel*>(QStringLiteral("stateNote"));
        QVERIFY(note);
        // Not greyed out as if disabled: the text colour of the window's own labels.
        QVERIFY(note->isEnabled());
        const QColor text = note->palette().color(note->foregroundRole());
        QCOMPARE(text, dialog.palette().color(QPalette::Active, QPalette::WindowText));
        const QColor window = dialog.palette().color(QPalette::Window);
        // Readable: far from the background in either theme.
        QVERIFY2(qAbs(text.lightness() - window.lightness()) > 120,
                 qPrintable(QStringLiteral("%1 on %2").arg(text.name(), window.name())));
    }
    applyTheme(ThemeChoice::Light);
}

void SessionsLayoutTest::messageList_S1_showsTheSessionColumnForSessionEntitiesOnly() {
    QSettings().remove(QStringLiteral("columns")); // the defaults, whatever a run before chose
    testing::SessionsTestEnv env;
    env.send(QStringLiteral("customer-01"), QStringLiteral("a-1"));
    MessageListPanel panel(*env.client);
    panel.resize(kTabAt1280x800);
    panel.show();
    panel.setPath(QStringLiteral("test:orders"));
    QHeaderView* header = panel.view()->horizontalHeader();
    const int session = MessageListModel::SessionIdColumn;
    QTRY_COMPARE(panel.model()->total(), 1);
    QTRY_VERIFY(!header->isSectionHidden(session));
    QCOMPARE(panel.model()->headerData(session, Qt::Horizontal).toString(),
             QStringLiteral("Session"));
    QTRY_COMPARE(panel.model()->index(0, session).data().toString(), QStringLiteral("customer-01"));
    QVERIFY(header->sectionSize(session) >
            panel.view()->fontMetrics().horizontalAdvance(QStringLiteral("customer-01")));
    // Beside what the list is for: the id and the time to live come first.
    QCOMPARE(header->visualIndex(session),
             header->visualIndex(MessageListModel::TimeToLiveColumn) + 1);

    // A plain queue: every SessionId is empty, the column is not there.
    panel.setPath(QStringLiteral("test:plain"));
    QTRY_VERIFY(panel.model()->isIndexLoaded());
    QTRY_VERIFY(header->isSectionHidden(session));
    panel.setPath(QStringLiteral("test:orders"));
    QTRY_VERIFY(!header->isSectionHidden(session));
}

QTEST_MAIN(SessionsLayoutTest)
#include "tst_ui_sessions_layout.moc"
