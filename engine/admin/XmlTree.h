#pragma once
// A request body read into a small tree of elements, with limits, before anything looks at it:
// no DTD (so no entity of any kind), at most kMaxXmlDepth levels and kMaxXmlElements elements,
// text only in leaves. Elements are kept by local name: the SDKs write the same elements under
// different prefixes (the Python SDK's `ns0:`, the JavaScript SDK's default namespaces), so
// the description is read by name, as the service does. The `i:type` attribute
// (XMLSchema-instance) is kept as the local part of its value ("d6p1:int" -> "int").

#include <QByteArray>
#include <QList>
#include <QString>

#include <optional>
#include <utility>

namespace hourglass::admin {

inline constexpr int kMaxXmlDepth = 32;
inline constexpr int kMaxXmlElements = 4096;

struct XmlElement {
    QString name;     // local name
    QString typeName; // local part of the xsi:type attribute's value; empty without one
    QString text;     // the text of a leaf (elements with children keep none)
    QList<XmlElement> children;
    // The other attributes, by local name (a reply's <link rel="next" href="...">).
    QList<std::pair<QString, QString>> attributes;

    // The first child with this local name, or null.
    const XmlElement* child(const QString& localName) const;
    // The attribute with this local name; empty when it has none.
    QString attribute(const QString& localName) const;
};

struct XmlParse {
    std::optional<XmlElement> root;
    QString error; // why the body is not read, when root is empty
};

// `maxElements` bounds the tree: a request's description is small (kMaxXmlElements); a reply's
// feed page holds up to a thousand entries of a few dozen elements each.
XmlParse parseXml(const QByteArray& body, int maxElements = kMaxXmlElements);

} // namespace hourglass::admin
