#pragma once
// Help > Service Bus rules, Scenario file format, AMQP endpoint: the project's own documents
// (resources/docs/, bundled under :/docs/) in a window of their own beside the explorer. Not
// modal, so a user can read the rules while working in the window. A viewer follows links between
// the documents and to their headings, and hands web links to the desktop's browser.
//
// Object names for tests: "documentViewer", "documentText".

#include <QDialog>
#include <QUrl>

class QTextBrowser;

namespace hourglass::ui {

class DocumentViewer : public QDialog {
    Q_OBJECT
public:
    // The bundled documents, by file name.
    static QString rulesDocument() { return QStringLiteral("service-bus-rules.md"); }
    static QString scenarioDocument() { return QStringLiteral("scenario-format.md"); }
    static QString amqpDocument() { return QStringLiteral("amqp-endpoint.md"); }

    // Shows `document` (a file name of :/docs/) in the parent's viewer that shows it already, or
    // in a new one, and brings it to the front.
    static DocumentViewer* open(const QString& document, QWidget* parent);

    explicit DocumentViewer(QWidget* parent = nullptr);

    // Loads a bundled document and goes to the heading a fragment names ("#sessions-s"), or to
    // the top. False (and nothing changed) when there is no such document.
    bool showDocument(const QString& document, const QString& fragment = QString());
    QString document() const { return m_document; }
    // The document's first heading, which is also the window's title.
    QString heading() const;

protected:
    void changeEvent(QEvent* event) override;

private:
    void followLink(const QUrl& link);
    void scrollToHeading(const QString& fragment);
    void fitToScreen();

    QTextBrowser* m_text = nullptr;
    QString m_document;
};

} // namespace hourglass::ui
