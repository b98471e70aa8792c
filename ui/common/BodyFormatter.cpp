#include "common/BodyFormatter.h"

#include <QJsonDocument>
#include <QJsonParseError>
#include <QStringDecoder>
#include <QXmlStreamReader>
#include <QXmlStreamWriter>

namespace hourglass::ui {

bool isValidUtf8(const QByteArray& body) {
    QStringDecoder decoder(QStringDecoder::Utf8, QStringDecoder::Flag::Stateless);
    // Decoding (the conversion to QString) is what sets the error flag.
    const QString decoded = decoder(body);
    Q_UNUSED(decoded);
    return !decoder.hasError();
}

FormattedBody formatText(const QByteArray& body) {
    // QString::fromUtf8 already substitutes U+FFFD for every invalid sequence.
    return {true, QString::fromUtf8(body)};
}

namespace {
// Indentation grows with depth, so an indented view of a deeply nested body is quadratic in its
// size (200,000 nested XML elements would indent to tens of gigabytes). Past this depth a body
// is shown whole but unindented.
constexpr int kIndentedDepth = 64;

// The deepest nesting of JSON arrays and objects in `body`, strings skipped. Linear, no
// recursion; only decides the layout (the parser still judges the text).
int jsonDepth(const QByteArray& body) {
    int depth = 0;
    int deepest = 0;
    bool inString = false;
    for (qsizetype i = 0; i < body.size(); ++i) {
        const char c = body[i];
        if (inString) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                inString = false;
        } else if (c == '"') {
            inString = true;
        } else if (c == '[' || c == '{') {
            deepest = qMax(deepest, ++depth);
        } else if (c == ']' || c == '}') {
            --depth;
        }
    }
    return deepest;
}

// The deepest element nesting of `body` (a first pass of the streaming reader).
int xmlDepth(const QByteArray& body) {
    QXmlStreamReader reader(body);
    int depth = 0;
    int deepest = 0;
    while (!reader.atEnd()) {
        reader.readNext();
        if (reader.isStartElement())
            deepest = qMax(deepest, ++depth);
        else if (reader.isEndElement())
            --depth;
    }
    return deepest;
}
} // namespace

FormattedBody formatJson(const QByteArray& body) {
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(body, &error);
    if (error.error != QJsonParseError::NoError)
        return {
            false,
            QStringLiteral("Not JSON: %1 at offset %2").arg(error.errorString()).arg(error.offset)};
    const auto layout =
        jsonDepth(body) > kIndentedDepth ? QJsonDocument::Compact : QJsonDocument::Indented;
    return {true, QString::fromUtf8(document.toJson(layout)).trimmed()};
}

FormattedBody formatXml(const QByteArray& body) {
    QXmlStreamReader reader(body);
    QString out;
    QXmlStreamWriter writer(&out);
    writer.setAutoFormatting(xmlDepth(body) <= kIndentedDepth);
    writer.setAutoFormattingIndent(4);
    bool sawElement = false;
    while (!reader.atEnd()) {
        reader.readNext();
        if (reader.isStartElement())
            sawElement = true;
        // Whitespace between elements would defeat the writer's own indentation.
        if (reader.isWhitespace())
            continue;
        // The reader reports a document start even without a declaration: add none.
        if (reader.isStartDocument() && reader.documentVersion().isEmpty())
            continue;
        if (reader.tokenType() != QXmlStreamReader::Invalid)
            writer.writeCurrentToken(reader);
    }
    if (reader.hasError())
        return {false, QStringLiteral("Not XML: %1 at line %2, column %3")
                           .arg(reader.errorString())
                           .arg(reader.lineNumber())
                           .arg(reader.columnNumber())};
    if (!sawElement)
        return {false, QStringLiteral("Not XML: no element")};
    return {true, out.trimmed()};
}

FormattedBody formatHex(const QByteArray& body) {
    QStringList lines;
    for (qsizetype offset = 0; offset < body.size(); offset += 16) {
        QString hex;
        QString ascii;
        for (int i = 0; i < 16; ++i) {
            if (i == 8)
                hex += QLatin1Char(' ');
            if (offset + i < body.size()) {
                const auto byte = static_cast<unsigned char>(body.at(offset + i));
                hex += QStringLiteral("%1 ").arg(byte, 2, 16, QLatin1Char('0'));
                ascii += (byte >= 0x20 && byte < 0x7f) ? QLatin1Char(static_cast<char>(byte))
                                                       : QLatin1Char('.');
            } else {
                hex += QStringLiteral("   ");
            }
        }
        lines << QStringLiteral("%1  %2 |%3|").arg(offset, 8, 16, QLatin1Char('0')).arg(hex, ascii);
    }
    return {true, lines.join(QLatin1Char('\n'))};
}

FormattedBody formatBody(const QByteArray& body, BodyView view) {
    switch (view) {
    case BodyView::Json:
        return formatJson(body);
    case BodyView::Xml:
        return formatXml(body);
    case BodyView::Hex:
        return formatHex(body);
    case BodyView::Text:
        break;
    }
    return formatText(body);
}

BodyView bestView(const QByteArray& body, const QString& contentType) {
    // A declared type wins even when the body disappoints it (the view then says why); a body
    // that merely looks like JSON or XML must also parse, so that "[warn] ..." stays text.
    const QString type = contentType.trimmed().toLower();
    const QByteArray start = body.trimmed().left(1);
    if (type.contains(QLatin1String("json")))
        return BodyView::Json;
    if (type.contains(QLatin1String("xml")))
        return BodyView::Xml;
    if ((start == "{" || start == "[") && formatJson(body).ok)
        return BodyView::Json;
    if (start == "<" && formatXml(body).ok)
        return BodyView::Xml;
    if (!isValidUtf8(body))
        return BodyView::Hex;
    return BodyView::Text;
}

} // namespace hourglass::ui
