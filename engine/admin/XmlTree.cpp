#include "XmlTree.h"

#include <QXmlStreamReader>

namespace hourglass::admin {

namespace {
const QString kSchemaInstance = QStringLiteral("http://www.w3.org/2001/XMLSchema-instance");

QString localPart(QStringView qualified) {
    const qsizetype colon = qualified.lastIndexOf(u':');
    return (colon < 0 ? qualified : qualified.mid(colon + 1)).toString();
}

XmlParse failed(const QString& why) {
    return {std::nullopt, why};
}
} // namespace

const XmlElement* XmlElement::child(const QString& localName) const {
    for (const XmlElement& element : children)
        if (element.name == localName)
            return &element;
    return nullptr;
}

QString XmlElement::attribute(const QString& localName) const {
    for (const auto& [name, value] : attributes)
        if (name == localName)
            return value;
    return {};
}

XmlParse parseXml(const QByteArray& body, int maxElements) {
    QXmlStreamReader reader(body);
    // Elements being read, outermost first; a finished element moves into its parent.
    QList<XmlElement> open;
    std::optional<XmlElement> root;
    int elements = 0;
    while (!reader.atEnd()) {
        switch (reader.readNext()) {
        case QXmlStreamReader::DTD:
        case QXmlStreamReader::EntityReference:
            return failed(QStringLiteral("The body has a document type declaration or an entity "
                                         "reference; neither is accepted."));
        case QXmlStreamReader::StartElement: {
            if (root)
                return failed(QStringLiteral("The body has more than one root element."));
            if (open.size() >= kMaxXmlDepth)
                return failed(
                    QStringLiteral("The body nests deeper than %1 elements.").arg(kMaxXmlDepth));
            if (++elements > maxElements)
                return failed(
                    QStringLiteral("The body has more than %1 elements.").arg(maxElements));
            if (!open.isEmpty())
                open.last().text.clear(); // text between child elements is only layout
            XmlElement element;
            element.name = reader.name().toString();
            // Kept while its value is read: value() is a view into it.
            const QXmlStreamAttributes attributes = reader.attributes();
            for (const QXmlStreamAttribute& attribute : attributes) {
                if (attribute.namespaceUri() == kSchemaInstance &&
                    attribute.name() == QLatin1String("type"))
                    element.typeName = localPart(attribute.value());
                else
                    element.attributes.append(
                        {attribute.name().toString(), attribute.value().toString()});
            }
            open.append(std::move(element));
            break;
        }
        case QXmlStreamReader::Characters:
            if (!open.isEmpty() && open.last().children.isEmpty())
                open.last().text += reader.text();
            break;
        case QXmlStreamReader::EndElement: {
            XmlElement done = open.takeLast();
            if (!done.children.isEmpty())
                done.text.clear();
            if (open.isEmpty())
                root = std::move(done);
            else
                open.last().children.append(std::move(done));
            break;
        }
        default:
            break;
        }
    }
    if (reader.hasError())
        return failed(QStringLiteral("The body is not well-formed XML (line %1, column %2).")
                          .arg(reader.lineNumber())
                          .arg(reader.columnNumber()));
    if (!root)
        return failed(QStringLiteral("The body has no element."));
    return {std::move(root), {}};
}

} // namespace hourglass::admin
