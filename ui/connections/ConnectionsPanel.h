#pragma once
// The Connections view (View > Connections): the applications connected to the window's AMQP
// endpoint, their links and the locks they hold, live; the operator can close a connection and
// watch its locks come back (L14). With nothing to list it says why in a sentence
// (ConnectionsEmptyState): what to point an application at, or that the endpoint is off or not
// serving.

#include "hourglass/Time.h"

#include <QWidget>

#include <functional>

class QPushButton;
class QStackedWidget;
class QTreeView;

namespace hourglass::ui {

class AmqpService;
class ConnectionsEmptyState;
class ConnectionsModel;

class ConnectionsPanel : public QWidget {
    Q_OBJECT
public:
    // `now` reads the broker's clock (for lock countdowns).
    ConnectionsPanel(AmqpService& service, std::function<Instant()> now, QWidget* parent = nullptr);

    ConnectionsModel* model() const { return m_model; }
    QTreeView* view() const { return m_view; }
    // Has the service read a snapshot now (it does twice a second), shown here and in the
    // status-bar item.
    void refresh();
    QSize sizeHint() const override;

signals:
    // The empty state's "AMQP endpoint settings…": the window opens its dialog.
    void settingsRequested();

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void showSnapshot();
    void closeSelected();
    void updateButtons();
    void fitNameColumn();

    AmqpService& m_service;
    ConnectionsModel* m_model;
    QStackedWidget* m_pages;
    QTreeView* m_view;
    ConnectionsEmptyState* m_empty;
    QPushButton* m_copy;
    QPushButton* m_close;
};

} // namespace hourglass::ui
