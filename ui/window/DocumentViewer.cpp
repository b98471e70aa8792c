#include "window/DocumentViewer.h"

#include <QAbstractTextDocumentLayout>
#include <QDesktopServices>
#include <QDialogButtonBox>
#include <QEvent>
#include <QFile>
#include <QRegularExpression>
#include <QScreen>
#include <QScrollBar>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextCursor>
#include <QTextDocument>
#include <QTextFrame>
#include <QTextTable>
#include <QVBoxLayout>

#include <algorithm>

namespace hourglass::ui {

namespace {

const QString kResourceFolder = QStringLiteral(":/docs/");
// Wide enough for the documents' tables, tall enough for a page of text.
const QSize kPreferredSize(900, 760);

// A heading's anchor as GitHub makes it, which is how the documents link to their sections:
// "Topics: rules, filters and actions (R)" -> "topics-rules-filters-and-actions-r".
QString anchorOf(const QString& heading) {
    static const QRegularExpression dropped(QStringLiteral("[^a-z0-9 _-]"));
    QString anchor = heading.toLower();
    anchor.remove(dropped);
    anchor.replace(u' ', u'-');
    return anchor;
}

// Space around the text, between sections, and inside the tables, which Qt's Markdown reader
// leaves out: without it the text touches the frame and table cells touch their borders. Code
// blocks get a background of their own. Colours come from the palette, so that the dark theme
// reads as well as the light one.
void styleDocument(QTextDocument* document, const QPalette& palette) {
    document->setDocumentMargin(16);
    QTextCursor cursor(document);
    for (QTextBlock block = document->begin(); block.isValid(); block = block.next()) {
        QTextBlockFormat format = block.blockFormat();
        const int level = format.headingLevel();
        const bool code = format.hasProperty(QTextFormat::BlockCodeFence) ||
                          format.hasProperty(QTextFormat::BlockCodeLanguage);
        if (level == 0 && !code)
            continue;
        if (level > 0) {
            format.setTopMargin(level == 1 ? 0 : level == 2 ? 20 : 14);
            format.setBottomMargin(6);
        } else {
            format.setBackground(palette.color(QPalette::AlternateBase));
        }
        cursor.setPosition(block.position());
        cursor.setBlockFormat(format);
    }
    for (QTextFrame* frame : document->rootFrame()->childFrames()) {
        auto* table = qobject_cast<QTextTable*>(frame);
        if (!table)
            continue;
        QTextTableFormat format = table->format();
        format.setBorderCollapse(true);
        format.setBorder(1);
        format.setBorderStyle(QTextFrameFormat::BorderStyle_Solid);
        format.setBorderBrush(palette.color(QPalette::Mid));
        format.setCellSpacing(0);
        format.setCellPadding(4);
        format.setTopMargin(4);
        format.setBottomMargin(8);
        table->setFormat(format);
    }
}

} // namespace

DocumentViewer* DocumentViewer::open(const QString& document, QWidget* parent) {
    DocumentViewer* viewer = nullptr;
    if (parent) {
        const auto viewers =
            parent->findChildren<DocumentViewer*>(QString(), Qt::FindDirectChildrenOnly);
        const auto showing = std::find_if(viewers.begin(), viewers.end(), [&](DocumentViewer* v) {
            return v->document() == document;
        });
        if (showing != viewers.end())
            viewer = *showing;
    }
    if (!viewer) {
        viewer = new DocumentViewer(parent);
        viewer->setAttribute(Qt::WA_DeleteOnClose);
    }
    viewer->showDocument(document);
    viewer->show();
    viewer->raise();
    viewer->activateWindow();
    return viewer;
}

DocumentViewer::DocumentViewer(QWidget* parent)
    : QDialog(parent) {
    setObjectName(QStringLiteral("documentViewer"));
    setModal(false);
    m_text = new QTextBrowser;
    m_text->setObjectName(QStringLiteral("documentText"));
    // Links are followed here: relative ones between the bundled documents and to headings,
    // which QTextBrowser cannot place in Markdown (its headings have no anchors).
    m_text->setOpenLinks(false);
    connect(m_text, &QTextBrowser::anchorClicked, this, &DocumentViewer::followLink);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_text);
    layout->addWidget(buttons);
    fitToScreen();
}

bool DocumentViewer::showDocument(const QString& document, const QString& fragment) {
    QFile file(kResourceFolder + document);
    if (document.contains(u'/') || !file.open(QIODevice::ReadOnly))
        return false;
    if (document != m_document) {
        m_text->setMarkdown(QString::fromUtf8(file.readAll()));
        styleDocument(m_text->document(), palette());
        m_text->moveCursor(QTextCursor::Start); // the styling left the browser's cursor at the end
        m_document = document;
        setWindowTitle(heading());
    }
    if (fragment.isEmpty())
        m_text->verticalScrollBar()->setValue(0);
    else
        scrollToHeading(fragment);
    return true;
}

QString DocumentViewer::heading() const {
    for (QTextBlock block = m_text->document()->begin(); block.isValid(); block = block.next())
        if (block.blockFormat().headingLevel() == 1)
            return block.text();
    return m_document;
}

void DocumentViewer::changeEvent(QEvent* event) {
    QDialog::changeEvent(event);
    if (event->type() != QEvent::PaletteChange || !m_text)
        return;
    // The theme changed while it was open: the same place, in the new colours.
    const int scrolled = m_text->verticalScrollBar()->value();
    styleDocument(m_text->document(), palette());
    m_text->verticalScrollBar()->setValue(scrolled);
}

void DocumentViewer::followLink(const QUrl& link) {
    if (link.isRelative() && link.path().isEmpty()) {
        scrollToHeading(link.fragment());
        return;
    }
    if (link.isRelative()) {
        showDocument(link.path(), link.fragment());
        return;
    }
    const QString scheme = link.scheme();
    if (scheme == QLatin1String("http") || scheme == QLatin1String("https"))
        QDesktopServices::openUrl(link);
}

void DocumentViewer::scrollToHeading(const QString& fragment) {
    QTextDocument* document = m_text->document();
    for (QTextBlock block = document->begin(); block.isValid(); block = block.next()) {
        if (block.blockFormat().headingLevel() == 0 || anchorOf(block.text()) != fragment)
            continue;
        const qreal top = document->documentLayout()->blockBoundingRect(block).top();
        m_text->verticalScrollBar()->setValue(static_cast<int>(top));
        return;
    }
}

void DocumentViewer::fitToScreen() {
    QScreen* shown = parentWidget() ? parentWidget()->screen() : screen();
    QSize size = kPreferredSize;
    if (shown) {
        // Room for the window system's frame and title bar around it.
        const QSize room = shown->availableGeometry().size() - QSize(32, 64);
        size = size.boundedTo(room);
    }
    resize(size);
}

} // namespace hourglass::ui
