#pragma once
// For the message list tools tests: a queue of numbered orders on a real broker with a virtual
// clock, and the list panel with its filter bar found by object name.

#include "ClientCall.h"
#include "TestBroker.h"
#include "common/BrokerClient.h"
#include "common/BulkJob.h"
#include "common/BulkProgressBar.h"
#include "messages/MessageListActions.h"
#include "messages/MessageListModel.h"
#include "messages/MessageListPanel.h"
#include "messages/MessageMatcher.h"
#include "messages/MessageSearch.h"
#include "messages/MessageViewModel.h"

#include <QAction>
#include <QCheckBox>
#include <QDir>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

#include <functional>

namespace hourglass::listtools {

using namespace hourglass::ui;
using Column = MessageListModel::Column;

// One queue "q" holding `count` messages made by `make(i)`, sent before the client exists (in
// batches, for speed); afterwards every broker call goes through the client.
struct Env {
    QTemporaryDir dir;
    std::shared_ptr<VirtualClock> clock =
        std::make_shared<VirtualClock>(hourglass::testing::kTestStart);
    std::unique_ptr<BrokerClient> client;

    Env(int count, const std::function<OutgoingMessage(int)>& make) {
        BrokerOptions options;
        options.databasePath = dir.filePath(QStringLiteral("broker.db"));
        options.clock = clock;
        std::unique_ptr<Broker> broker = std::move(Broker::open(options)).value();
        if (!broker->createNamespace({QStringLiteral("test"), Tier::Standard}) ||
            !broker->createQueue(QStringLiteral("q"), EntityProperties::defaults(Tier::Standard)))
            qFatal("creating the queue failed");
        for (int first = 0; first < count; first += 1000) {
            QList<OutgoingMessage> batch;
            for (int i = first; i < std::min(count, first + 1000); ++i)
                batch.append(make(i));
            if (!broker->sendBatch(QStringLiteral("q"), batch))
                qFatal("sendBatch failed");
        }
        client = std::make_unique<BrokerClient>(std::move(broker));
    }

    template <typename Work> auto call(Work work) {
        return hourglass::testing::callAndWait(*client, std::move(work));
    }
    qint64 total() {
        return call([](Broker& b) { return b.sequenceIndex(QStringLiteral("q"), 1000); })->total;
    }
};

// Message i: subject "order-<i>", region eu for every third, a body naming a needle for every
// tenth.
inline OutgoingMessage orderMessage(int i) {
    OutgoingMessage m = hourglass::testing::TestBroker::message(QStringLiteral("id-%1").arg(i));
    m.subject = QStringLiteral("order-%1").arg(i);
    m.applicationProperties.insert(QStringLiteral("region"),
                                   i % 3 == 0 ? QStringLiteral("eu") : QStringLiteral("us"));
    m.applicationProperties.insert(QStringLiteral("n"), i);
    m.body = i % 10 == 0 ? QByteArray("{\"note\":\"Needle inside\"}") : QByteArray("{}");
    m.timeToLive = hours(1);
    return m;
}

struct Ui {
    MessageListPanel panel;
    QLineEdit* filter;
    QCheckBox* bodies;
    QLabel* status;
    QTableView* table;

    explicit Ui(BrokerClient& client)
        : panel(client) {
        panel.resize(1200, 500);
        panel.show();
        if (!QTest::qWaitForWindowExposed(&panel))
            qFatal("the panel was not exposed");
        filter = panel.findChild<QLineEdit*>(QStringLiteral("messageFilter"));
        bodies = panel.findChild<QCheckBox*>(QStringLiteral("searchBodies"));
        status = panel.findChild<QLabel*>(QStringLiteral("filterStatus"));
        table = panel.findChild<QTableView*>(QStringLiteral("messageList"));
        if (!filter || !bodies || !status || !table)
            qFatal("a filter bar widget is missing");
        panel.setPath(QStringLiteral("test:q"));
    }
    // Types a filter and presses Enter, as an operator does.
    void search(const QString& text) {
        filter->clear();
        QTest::keyClicks(filter, text);
        QTest::keyClick(filter, Qt::Key_Return);
    }
    bool searchDone() const { return panel.isFiltered() && !panel.search()->isRunning(); }
    QAction* action(const char* name) const {
        return panel.findChild<QAction*>(QLatin1String(name));
    }
    void selectRows(int first, int last) {
        QItemSelectionModel* selection = table->selectionModel();
        const QAbstractItemModel* model = table->model();
        selection->select(QItemSelection(model->index(first, 0), model->index(last, 0)),
                          QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    }
};

inline QString cell(const QAbstractItemModel* model, int row, int column,
                    int role = Qt::DisplayRole) {
    return model->index(row, column).data(role).toString();
}

} // namespace hourglass::listtools
