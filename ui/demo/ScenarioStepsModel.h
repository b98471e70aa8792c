#pragma once
// The scenario panel's step list: one row per step in At order, with its offset, what it does and
// how it went (passed / failed for checks, done for actions). The step that runs next is marked
// (CurrentRole, bold, highlighted) so the room sees where the story is.

#include <QAbstractTableModel>

namespace hourglass::ui {

class ScenarioSession;

class ScenarioStepsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { AtColumn, StepColumn, ResultColumn, ColumnCount };
    enum Role {
        CurrentRole = Qt::UserRole + 1, // bool: this step runs next
        StateRole,                      // int: ScenarioSession::StepState
    };

    explicit ScenarioStepsModel(ScenarioSession& session, QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    QVariant resultData(int row, int role) const;

    ScenarioSession& m_session;
};

} // namespace hourglass::ui
