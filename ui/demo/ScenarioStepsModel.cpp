#include "demo/ScenarioStepsModel.h"

#include "demo/ScenarioSession.h"
#include "demo/ScenarioStepText.h"

#include <QApplication>
#include <QBrush>
#include <QColor>
#include <QFont>
#include <QPalette>

namespace hourglass::ui {

namespace {
const QColor kPassed(0x2e, 0x9d, 0x4f);
const QColor kFailed(0xd9, 0x3b, 0x3b);
} // namespace

ScenarioStepsModel::ScenarioStepsModel(ScenarioSession& session, QObject* parent)
    : QAbstractTableModel(parent)
    , m_session(session) {
    connect(&m_session, &ScenarioSession::stepsChanged, this, [this](int first, int last) {
        if (first > last || last >= rowCount())
            return;
        emit dataChanged(index(first, 0), index(last, ColumnCount - 1));
    });
}

int ScenarioStepsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : m_session.stepCount();
}

int ScenarioStepsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ScenarioStepsModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const int row = index.row();
    const ScenarioStep& step = m_session.scenario().steps.at(row);
    const bool current = row == m_session.nextStep();
    switch (role) {
    case CurrentRole:
        return current;
    case StateRole:
        return int(m_session.outcome(row).state);
    case Qt::FontRole:
        if (current) {
            QFont font = QApplication::font();
            font.setBold(true);
            return font;
        }
        return {};
    case Qt::BackgroundRole:
        if (current) {
            // A tint of the selection colour: visible in light and dark themes alike.
            QColor tint = QApplication::palette().color(QPalette::Highlight);
            tint.setAlpha(70);
            return QBrush(tint);
        }
        return {};
    default:
        break;
    }
    switch (index.column()) {
    case AtColumn:
        if (role == Qt::DisplayRole)
            return scenarioClockText(step.at);
        if (role == Qt::TextAlignmentRole)
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case StepColumn:
        if (role == Qt::DisplayRole || role == Qt::ToolTipRole)
            return describeScenarioStep(step);
        return {};
    case ResultColumn:
        return resultData(row, role);
    default:
        return {};
    }
}

QVariant ScenarioStepsModel::resultData(int row, int role) const {
    using State = ScenarioSession::StepState;
    const ScenarioSession::StepOutcome& outcome = m_session.outcome(row);
    const bool current = row == m_session.nextStep();
    if (role == Qt::DisplayRole) {
        switch (outcome.state) {
        case State::Passed:
            return tr("✓ passed");
        case State::Failed:
            return tr("✗ failed");
        case State::Done:
            return tr("done");
        case State::Pending:
            return current ? tr("▶ next") : QString();
        }
    }
    if (role == Qt::ForegroundRole) {
        if (outcome.state == State::Passed)
            return QBrush(kPassed);
        if (outcome.state == State::Failed)
            return QBrush(kFailed);
        return {};
    }
    if (role == Qt::ToolTipRole && !outcome.failures.isEmpty())
        return outcome.failures.join(u'\n');
    return {};
}

QVariant ScenarioStepsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case AtColumn:
        return tr("At");
    case StepColumn:
        return tr("Step");
    case ResultColumn:
        return tr("Result");
    default:
        return {};
    }
}

} // namespace hourglass::ui
