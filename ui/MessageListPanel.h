#pragma once
// The explorer's message list for one path: a title naming the path and its count, the table of
// messages (windowed, MessageListModel) with live countdowns (CountdownDelegate, driven by one
// CountdownTicker), and an empty state when the path holds nothing. Rows stay in sequence order:
// a windowed model has no whole list to sort.
//
// Object names for tests: "messageListTitle", "messageList", "messageListEmpty".

#include <QWidget>

class QLabel;
class QStackedWidget;
class QTableView;

namespace hourglass::ui {

class BrokerClient;
class CountdownTicker;
class MessageListModel;

class MessageListPanel : public QWidget {
    Q_OBJECT
public:
    explicit MessageListPanel(BrokerClient& client, QWidget* parent = nullptr);

    // Shows the messages of a path ("ns:queue", ".../$deadletterqueue"); empty shows nothing.
    void setPath(const QString& qualifiedPath);
    QString path() const;

    MessageListModel* model() const { return m_model; }
    QTableView* view() const { return m_view; }
    CountdownTicker* ticker() const { return m_ticker; }

signals:
    // The current row changed to a loaded message of the path.
    void messageSelected(const QString& qualifiedPath, qint64 sequenceNumber);

private:
    void updateHeader();
    void applyColumnWidths();

    MessageListModel* m_model;
    QLabel* m_title;
    QStackedWidget* m_stack;
    QTableView* m_view;
    QLabel* m_empty;
    CountdownTicker* m_ticker;
};

} // namespace hourglass::ui
