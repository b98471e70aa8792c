// Help > Service Bus rules, Scenario file format and AMQP endpoint open the bundled documents in a
// viewer beside the window (not modal): the document's first heading is the viewer's title and the
// first line it shows; links go to a heading of the same document or to another document; the
// same entry twice brings the same viewer to the front. With HOURGLASS_SCREENSHOTS=DIR set, each
// viewer is saved there as <document>-<theme>.png; HOURGLASS_THEME=dark runs it in the dark theme.

#include "common/Theme.h"
#include "window/DocumentViewer.h"
#include "window/MainWindow.h"

#include <QAbstractTextDocumentLayout>
#include <QAction>
#include <QApplication>
#include <QFile>
#include <QMenu>
#include <QMenuBar>
#include <QRegularExpression>
#include <QScrollBar>
#include <QStandardPaths>
#include <QTest>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextCursor>

using namespace hourglass::ui;

namespace {

// The first "# " line of a document in the source tree: what the viewer must show.
QString firstHeadingOf(const QString& document) {
    QFile file(QStringLiteral(HOURGLASS_DOCS_DIR "/") + document);
    if (!file.open(QIODevice::ReadOnly | QIODevice::Text))
        return QStringLiteral("(cannot read %1)").arg(document);
    while (!file.atEnd()) {
        const QString line = QString::fromUtf8(file.readLine()).trimmed();
        if (line.startsWith(QStringLiteral("# ")))
            return line.mid(2);
    }
    return QStringLiteral("(no heading in %1)").arg(document);
}

QAction* helpEntry(MainWindow& window, const QString& document) {
    return window.findChild<QAction*>(QStringLiteral("help:") + document);
}

QTextBrowser* textOf(QDialog* viewer) {
    return viewer ? viewer->findChild<QTextBrowser*>(QStringLiteral("documentText")) : nullptr;
}

// The text of the first block the browser's view shows at its top.
QString topLine(QTextBrowser* text) {
    const int top = text->verticalScrollBar()->value();
    QAbstractTextDocumentLayout* layout = text->document()->documentLayout();
    for (QTextBlock block = text->document()->begin(); block.isValid(); block = block.next())
        if (layout->blockBoundingRect(block).bottom() > top)
            return block.text();
    return QString();
}

} // namespace

class TestUiHelpDocuments : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("hourglass-tests"));
        applyTheme(themeChoiceFromName(qEnvironmentVariable("HOURGLASS_THEME", "light")));
    }

    void entryOpensItsDocument_data() {
        QTest::addColumn<QString>("document");
        QTest::addColumn<QString>("menuText");
        QTest::newRow("rules") << DocumentViewer::rulesDocument() << "Service Bus rules";
        QTest::newRow("scenarios") << DocumentViewer::scenarioDocument() << "Scenario file format";
        QTest::newRow("amqp") << DocumentViewer::amqpDocument() << "AMQP endpoint";
    }

    void entryOpensItsDocument() {
        QFETCH(QString, document);
        QFETCH(QString, menuText);
        MainWindow window;
        window.resize(1024, 700);
        window.show();
        QAction* entry = helpEntry(window, document);
        QVERIFY2(entry, qPrintable(document));
        QCOMPARE(entry->text().remove(u'&'), menuText);
        // It is an entry of the Help menu.
        QMenu* help = nullptr;
        for (QAction* menu : window.menuBar()->actions())
            if (menu->menu() && menu->text().remove(u'&') == QStringLiteral("Help"))
                help = menu->menu();
        QVERIFY(help);
        QVERIFY(help->actions().contains(entry));

        entry->trigger();
        auto* viewer = window.findChild<QDialog*>(QStringLiteral("documentViewer"));
        QVERIFY(viewer);
        QVERIFY(QTest::qWaitForWindowExposed(viewer));
        QVERIFY(!viewer->isModal());
        const QString heading = firstHeadingOf(document);
        QCOMPARE(viewer->windowTitle(), heading);
        QTextBrowser* text = textOf(viewer);
        QVERIFY(text);
        QCOMPARE(text->document()->firstBlock().text(), heading);
        QCOMPARE(text->document()->firstBlock().blockFormat().headingLevel(), 1);
        QCOMPARE(topLine(text), heading);
        // Room to read the documents' tables (800 pixels, or the screen's width), within the
        // screen.
        const QRect screen = window.screen()->availableGeometry();
        QVERIFY2(viewer->width() >= qMin(800, screen.width() - 32),
                 qPrintable(QString::number(viewer->width())));
        QVERIFY(viewer->frameGeometry().height() <= screen.height());
        QVERIFY(viewer->frameGeometry().width() <= screen.width());

        const QString shots = qEnvironmentVariable("HOURGLASS_SCREENSHOTS");
        if (!shots.isEmpty()) {
            const QString theme = qEnvironmentVariable("HOURGLASS_THEME", "light");
            QVERIFY(viewer->grab().save(
                QStringLiteral("%1/%2-%3.png").arg(shots, QString(document).remove(".md"), theme)));
        }

        // The same entry again brings the same viewer back, scrolled where it was.
        entry->trigger();
        QCOMPARE(window.findChildren<DocumentViewer*>().size(), 1);
    }

    void linksGoToHeadingsAndOtherDocuments() {
        MainWindow window;
        window.show();
        QAction* rules = helpEntry(window, DocumentViewer::rulesDocument());
        QVERIFY(rules);
        rules->trigger();
        auto* viewer = window.findChild<DocumentViewer*>(QStringLiteral("documentViewer"));
        QVERIFY(viewer);
        QVERIFY(QTest::qWaitForWindowExposed(viewer));
        QTextBrowser* text = textOf(viewer);
        QCOMPARE(text->verticalScrollBar()->value(), 0);

        // The table of groups links each one: "[Sessions](#sessions-s)".
        emit text->anchorClicked(QUrl(QStringLiteral("#sessions-s")));
        QTRY_VERIFY(text->verticalScrollBar()->value() > 0);
        QCOMPARE(topLine(text), QStringLiteral("Sessions (S)"));

        // "[AMQP endpoint](amqp-endpoint.md)" opens that document in the same viewer.
        emit text->anchorClicked(QUrl(QStringLiteral("amqp-endpoint.md")));
        QCOMPARE(viewer->windowTitle(), firstHeadingOf(DocumentViewer::amqpDocument()));
        QCOMPARE(text->verticalScrollBar()->value(), 0);
        QCOMPARE(viewer->document(), DocumentViewer::amqpDocument());
        // A document that is not bundled changes nothing.
        emit text->anchorClicked(QUrl(QStringLiteral("../../README.md")));
        QCOMPARE(viewer->document(), DocumentViewer::amqpDocument());
    }

    // Every link the documents hold leads somewhere: a heading of the same document comes into
    // view, or another bundled document opens.
    void everyLinkOfTheDocumentsWorks() {
        MainWindow window;
        window.show();
        static const QRegularExpression linkPattern(QStringLiteral("\\]\\(([^)]+)\\)"));
        int links = 0;
        for (const QString& document :
             {DocumentViewer::rulesDocument(), DocumentViewer::scenarioDocument(),
              DocumentViewer::amqpDocument()}) {
            QFile file(QStringLiteral(HOURGLASS_DOCS_DIR "/") + document);
            QVERIFY(file.open(QIODevice::ReadOnly));
            const QString source = QString::fromUtf8(file.readAll());
            for (auto it = linkPattern.globalMatch(source); it.hasNext();) {
                const QUrl link(it.next().captured(1));
                DocumentViewer* viewer = DocumentViewer::open(document, &window);
                QTextBrowser* text = textOf(viewer);
                text->verticalScrollBar()->setValue(0);
                emit text->anchorClicked(link);
                ++links;
                const QString what = document + QStringLiteral(": ") + link.toString();
                if (!link.path().isEmpty()) {
                    QVERIFY2(viewer->document() == link.path(), qPrintable(what));
                    continue;
                }
                // The heading the fragment names (as GitHub names a heading's anchor: lower
                // case, punctuation dropped, spaces as hyphens) is in view.
                const int top = text->verticalScrollBar()->value();
                const int bottom = top + text->viewport()->height();
                QAbstractTextDocumentLayout* layout = text->document()->documentLayout();
                bool shown = false;
                for (QTextBlock block = text->document()->begin(); block.isValid();
                     block = block.next()) {
                    const QRectF rect = layout->blockBoundingRect(block);
                    QString anchor = block.text().toLower();
                    anchor.remove(QRegularExpression(QStringLiteral("[^a-z0-9 -]")));
                    anchor.replace(u' ', u'-');
                    if (block.blockFormat().headingLevel() > 0 && anchor == link.fragment() &&
                        rect.top() >= top && rect.bottom() <= bottom && top > 0)
                        shown = true;
                }
                QVERIFY2(shown, qPrintable(what));
            }
        }
        QVERIFY(links >= 10);
    }
};

QTEST_MAIN(TestUiHelpDocuments)
#include "tst_ui_help_documents.moc"
