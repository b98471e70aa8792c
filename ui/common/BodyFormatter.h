#pragma once
// The texts of a message body in the detail panel: as UTF-8 text, pretty-printed JSON or XML, or a
// hex dump. Pure functions of the bytes (no widgets), so that tests pin each layout down.

#include <QByteArray>
#include <QString>

namespace hourglass::ui {

enum class BodyView { Text = 0, Json = 1, Xml = 2, Hex = 3 };

// The result of formatting: the text to show, or (ok == false) why the body is not of that kind.
struct FormattedBody {
    bool ok = true;
    QString text;
};

// UTF-8 text; each invalid byte becomes U+FFFD so that nothing odd reaches the clipboard.
FormattedBody formatText(const QByteArray& body);
// Indented JSON (compact past 64 levels of nesting: indentation grows with depth), or the
// parser's error with its offset.
FormattedBody formatJson(const QByteArray& body);
// Indented XML (4 spaces; unindented past 64 levels), or the reader's error with its line and
// column.
FormattedBody formatXml(const QByteArray& body);
// "00000000  48 65 ... 6c  |Hello...|": an 8-digit hex offset, 16 bytes in hex (a gap after the
// eighth), then the printable ASCII column with '.' for the rest. One line per 16 bytes.
FormattedBody formatHex(const QByteArray& body);
FormattedBody formatBody(const QByteArray& body, BodyView view);

// Whether the bytes are well-formed UTF-8.
bool isValidUtf8(const QByteArray& body);
// The view a body opens in: JSON for a JSON content type or a body that starts with { or [;
// XML for an XML content type or a body that starts with <; hex for anything not UTF-8; else
// text.
BodyView bestView(const QByteArray& body, const QString& contentType);

} // namespace hourglass::ui
