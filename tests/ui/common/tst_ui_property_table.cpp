// The application property editor shared by the send and settle dialogs: types by Service Bus's
// names, a type column wide enough for the longest of them (it was cut to "st"),
// and rows parsed as the type chosen.
#include "common/PropertyTableEditor.h"
#include "hourglass/PropertyTypes.h"

#include <QComboBox>
#include <QFontMetrics>
#include <QHeaderView>
#include <QTableWidget>
#include <QTest>
#include <QToolButton>

using namespace hourglass;
using namespace hourglass::ui;

class TestUiPropertyTable : public QObject {
    Q_OBJECT
private slots:
    void typeColumnFitsTheLongestTypeName() {
        PropertyTableEditor editor;
        editor.resize(420, 200);
        editor.show();
        QVERIFY(QTest::qWaitForWindowExposed(&editor));
        // As the user does it: "+" on the table already shown (the column was left as wide as
        // its header, "Type", and the names cut to "st").
        QTest::mouseClick(editor.findChild<QToolButton*>(QStringLiteral("addProperty")),
                          Qt::LeftButton);
        QCoreApplication::processEvents();
        auto* chooser = editor.findChild<QComboBox*>(QStringLiteral("propertyType0"));
        QVERIFY(chooser);
        const int typeColumn = 1;
        const int width = editor.table()->columnWidth(typeColumn);
        QString longest;
        const QFontMetrics metrics(chooser->font());
        for (int i = 0; i < chooser->count(); ++i) {
            const QString name = chooser->itemText(i);
            if (metrics.horizontalAdvance(name) > metrics.horizontalAdvance(longest))
                longest = name;
        }
        QVERIFY2(width >= metrics.horizontalAdvance(longest),
                 qPrintable(QStringLiteral("column %1 px, '%2' needs %3 px")
                                .arg(width)
                                .arg(longest)
                                .arg(metrics.horizontalAdvance(longest))));
        // The chooser in the cell gets all the room it asks for (its text plus the arrow).
        QVERIFY2(width >= chooser->sizeHint().width(),
                 qPrintable(QStringLiteral("column %1 px, chooser wants %2 px")
                                .arg(width)
                                .arg(chooser->sizeHint().width())));
        QVERIFY(chooser->width() >= chooser->sizeHint().width());
    }

    void typesAreServiceBusNames() {
        PropertyTableEditor editor;
        editor.addRow();
        auto* chooser = editor.findChild<QComboBox*>(QStringLiteral("propertyType0"));
        QVERIFY(chooser);
        for (const char* name :
             {"String", "Int32", "Int64", "Double", "Boolean", "DateTime", "Guid", "Binary"})
            QVERIFY2(chooser->findText(QLatin1String(name)) >= 0, name);
        QCOMPARE(chooser->findText(QStringLiteral("int")), -1);
    }

    // Each row is parsed as its type and keeps it: an Int32 row gives an int, not a qlonglong.
    void rowsKeepTheirTypes() {
        PropertyTableEditor editor;
        const QVariantMap properties{{QStringLiteral("a"), 250},
                                     {QStringLiteral("b"), qlonglong(250)},
                                     {QStringLiteral("c"), QVariant::fromValue(uchar(7))},
                                     {QStringLiteral("d"), QByteArray("\x01\x02", 2)}};
        editor.setProperties(properties);
        const auto back = editor.properties();
        QVERIFY(back.ok());
        QCOMPARE(*back, properties);
        QCOMPARE(back->value(QStringLiteral("a")).typeId(), QMetaType::Int);
        QCOMPARE(back->value(QStringLiteral("c")).typeId(), QMetaType::UChar);
        editor.addRow(QStringLiteral("e"), PropertyType::Int32, QStringLiteral("3000000000"));
        const auto refused = editor.properties();
        QVERIFY(!refused.ok());
        QVERIFY2(refused.error().description.contains(QStringLiteral("32-bit")),
                 qPrintable(refused.error().description));
    }
};

QTEST_MAIN(TestUiPropertyTable)
#include "tst_ui_property_table.moc"
