#pragma once
// The message detail panel: every system property of one message, its application properties,
// and its body as text, pretty-printed JSON or XML, or hex, with buttons that copy the body and
// the properties. The message (with its body) is read off the GUI thread through the
// BrokerClient; a generation token drops replies that a newer showMessage() or clear() replaced.
// A message that is no longer there (completed, expired, moved: MessageNotFound) is the
// everyday case, said calmly in the empty state; other errors appear inline with the engine's
// code. When the engine reports that the shown message's path changed (a lock taken, a
// settlement), the panel reads the message again and keeps the body view the user chose.
// The property pane sits beside the body in a splitter ("detailSplitter"; the system and
// application tables share "detailPropertiesSplitter"); the size the user drags the pane (and
// the system table) to is kept through resizes, in QSettings ("messageDetail/<objectName>") and
// by the next panel.

#include "common/BodyFormatter.h"
#include "common/CurrentMessage.h"
#include "hourglass/ChangeFeed.h"
#include "hourglass/Message.h"
#include "hourglass/Status.h"

#include <QWidget>

#include <optional>

class QComboBox;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QStackedWidget;
class QTableWidget;

namespace hourglass::ui {

class BrokerClient;

class MessageDetailPanel : public QWidget {
    Q_OBJECT
public:
    explicit MessageDetailPanel(BrokerClient& client, QWidget* parent = nullptr);

    // Loads the message (system properties, application properties, body) and shows it.
    void showMessage(const QString& qualifiedPath, qint64 sequenceNumber);
    // Back to the empty state; a reply still under way is dropped.
    void clear();
    // Shows `message` unless it is the one shown already (no second read); none clears. The
    // workspace calls it with the selected row of the visible tab whenever that may change.
    void follow(const std::optional<MessageRef>& message);
    // The message shown or loading; none in the empty state.
    std::optional<MessageRef> shown() const;

    // The "Name: value" lines that copyProperties puts on the clipboard.
    QString propertiesText() const;

signals:
    // The message now shown (a new one, or the shown one read again after a change), with its
    // body: what the routing preview works on.
    void loaded(const hourglass::MessageView& message);
    // Nothing is shown any more (cleared, gone, or an error).
    void emptied();

private:
    // Whether a reply picks the body's best view (a new message) or keeps the current one.
    enum class ViewChoice { Best, Keep };
    void request(ViewChoice choice);
    void onChanged(const ChangeBatch& batch);
    void showLoaded(const MessageView& message, ViewChoice choice);
    void showError(const Error& error);
    void renderBody();

    BrokerClient& m_client;
    quint64 m_generation = 0; // GUI thread only; bumped by every request and by clear()
    QString m_path;           // the qualified path shown (or loading); empty when cleared
    qint64 m_sequenceNumber = 0;
    std::optional<MessageView> m_message;

    QStackedWidget* m_pages;
    QLabel* m_empty;
    QLabel* m_error;
    QTableWidget* m_system;
    QTableWidget* m_application;
    QComboBox* m_bodyView;
    QPlainTextEdit* m_body;
    QPushButton* m_copyBody;
    QPushButton* m_copyProperties;
    QLabel* m_bodyKind; // what the body was on the wire, when not a plain data section
};

} // namespace hourglass::ui
