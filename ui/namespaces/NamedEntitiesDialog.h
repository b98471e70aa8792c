#pragma once
// Names the entities to browse on a namespace whose key cannot list it: a Listen- or Send-only
// key, or a signature made for one entity (the administration API answers 401 without the Manage
// right, yet the key peeks, receives or sends on what it covers). One entity per line, read by
// remote::parseNamedEntities; a line that does not read is named under the text and OK waits.
//
// Test handles: "namedEntitiesDialog", "namedEntitiesText" (QPlainTextEdit),
// "namedEntitiesProblem" (QLabel).

#include "namespaces/SavedNamespace.h"

#include <QDialog>

class QDialogButtonBox;
class QLabel;
class QPlainTextEdit;

namespace hourglass::ui {

class NamedEntitiesDialog : public QDialog {
    Q_OBJECT
public:
    explicit NamedEntitiesDialog(const SavedNamespace& saved, QWidget* parent = nullptr);

    // The lines as read back in one form ("topic " before a topic), once they read.
    QString text() const { return m_text; }

private:
    void check();

    QPlainTextEdit* m_edit;
    QLabel* m_problem;
    QDialogButtonBox* m_buttons;
    QString m_text;
};

} // namespace hourglass::ui
