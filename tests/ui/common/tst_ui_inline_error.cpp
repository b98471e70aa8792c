// An inline error appears and clears in place: the widgets around it keep their geometry, so a
// form does not jump under the pointer while the user types.

#include "common/InlineError.h"

#include <QApplication>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTest>
#include <QVBoxLayout>

using namespace hourglass;
using namespace hourglass::ui;

class TestUiInlineError : public QObject {
    Q_OBJECT
private slots:
    void showingAndClearingKeepsSiblingsInPlace();
};

namespace {
// Lets the layouts act on the size changes posted by show(), hide() and setText().
void settleLayouts() {
    for (int i = 0; i < 3; ++i) {
        QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
        QCoreApplication::processEvents();
    }
}
} // namespace

void TestUiInlineError::showingAndClearingKeepsSiblingsInPlace() {
    // A field, its error line, then a button right under it (the stretch takes the rest), as
    // the entity dialogs lay them out.
    QWidget form;
    auto* layout = new QVBoxLayout(&form);
    auto* field = new QLineEdit(&form);
    QLabel* error = makeInlineErrorLabel(QStringLiteral("formError"), &form);
    auto* below = new QPushButton(QStringLiteral("Create"), &form);
    layout->addWidget(field);
    layout->addWidget(error);
    layout->addWidget(below);
    layout->addStretch(1);
    form.resize(480, 240);
    form.show();
    QVERIFY(QTest::qWaitForWindowExposed(&form));
    settleLayouts();
    const QRect before = below->geometry();
    QVERIFY(error->isHidden());

    showInlineError(error, makeError(ErrorCode::InvalidArgument,
                                     QStringLiteral("The entity path 'a b' contains ' '.")));
    settleLayouts();
    QVERIFY(error->isVisible());
    QCOMPARE(below->geometry(), before);

    error->hide(); // the problem was fixed
    settleLayouts();
    QCOMPARE(below->geometry(), before);
    QCOMPARE(field->geometry().bottom() < error->geometry().top(), true);
}

QTEST_MAIN(TestUiInlineError)
#include "tst_ui_inline_error.moc"
