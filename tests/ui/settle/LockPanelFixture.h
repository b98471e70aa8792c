#pragma once
// For the Lock panel tests: a LockPanel on queue "q" of a LocksTestEnv, shown (so its countdown
// ticker runs), with its models under QAbstractItemModelTester and its errors collected, plus
// the few steps every test drives through the panel's own controls.

#include "LocksTestEnv.h"
#include "common/DurationText.h"
#include "messages/MessageViewModel.h"
#include "settle/HeldLocks.h"
#include "settle/LockPanel.h"
#include "settle/SettleDialog.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QComboBox>
#include <QItemSelectionModel>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QTableView>
#include <QTest>

namespace hourglass::testing {

// The panel on queue "q" with its models checked, shown (so the countdown ticker runs).
struct LockPanelFixture {
    LocksTestEnv& env;
    ui::LockPanel panel;
    QAbstractItemModelTester locksTester;
    QAbstractItemModelTester messagesTester;
    QList<Error> errors;

    explicit LockPanelFixture(LocksTestEnv& e)
        : env(e)
        , panel(*e.client)
        , locksTester(panel.locks(), QAbstractItemModelTester::FailureReportingMode::QtTest)
        , messagesTester(panel.locks()->messages(),
                         QAbstractItemModelTester::FailureReportingMode::QtTest) {
        QObject::connect(&panel, &ui::LockPanel::errorOccurred,
                         [this](const Error& error) { errors.append(error); });
        panel.show();
        panel.setEntity(QStringLiteral("test:q"), ui::LockPanel::NodeKind::Queue);
    }

    template <typename T> T* find(const char* name) {
        T* child = panel.findChild<T*>(QLatin1String(name));
        if (!child)
            qFatal("no child %s", name);
        return child;
    }
    ui::HeldLocks& locks() { return *panel.locks(); }
    QString status() { return find<QLabel>("lockStatus")->text(); }
    void trigger(const char* action) { find<QAction>(action)->trigger(); }

    // Receives `count` messages as `receiver` in the given mode through the panel's controls.
    void receive(int count, const QString& receiver, int mode = 0) {
        const int before = locks().rowCount();
        find<QComboBox>("lockReceiver")->setEditText(receiver);
        find<QComboBox>("lockMode")->setCurrentIndex(mode);
        find<QSpinBox>("lockCount")->setValue(count);
        trigger("lockReceive");
        QTRY_COMPARE(locks().rowCount(), before + count);
    }
    void select(const QList<qint64>& sequenceNumbers) {
        QTableView* view = panel.view();
        view->clearSelection();
        for (qint64 sequenceNumber : sequenceNumbers)
            view->selectionModel()->select(locks().index(locks().rowOf(sequenceNumber), 0),
                                           QItemSelectionModel::Select | QItemSelectionModel::Rows);
    }
    QString cell(qint64 sequenceNumber, int column) {
        return locks().index(locks().rowOf(sequenceNumber), column).data().toString();
    }
    ui::Countdown lockCountdown(qint64 sequenceNumber) {
        return locks()
            .index(locks().rowOf(sequenceNumber), ui::MessageListModel::LockColumn)
            .data(ui::MessageListModel::CountdownRole)
            .value<ui::Countdown>();
    }
    ui::SettleDialog* dialog() {
        // open() shows it at once; the wait only guards against a slow window system.
        ui::SettleDialog* found = nullptr;
        const bool shown = QTest::qWaitFor([&] {
            return (found = panel.findChild<ui::SettleDialog*>(QStringLiteral("settleDialog")));
        });
        if (!shown)
            qFatal("no settle dialog");
        return found;
    }
    void accept(ui::SettleDialog* d) {
        QTest::mouseClick(d->findChild<QPushButton*>(QStringLiteral("settleOk")), Qt::LeftButton);
    }
};

} // namespace hourglass::testing
