#pragma once
// The part of View > AMQP endpoint… that tells how applications reach the TLS port and trust
// it: its connection string, the local certificate authority's file and SHA-256 fingerprint,
// and one line per client (Node, Python's data plane and administration client, curl), each
// with a Copy button. Long values are elided in the middle, whole in their tooltip.

#include "AmqpService.h"

#include <QGroupBox>

class QGridLayout;
class QLabel;
class QToolButton;

namespace hourglass::ui {

class ElidedLabel;

class TlsTrustPanel : public QGroupBox {
    Q_OBJECT
public:
    explicit TlsTrustPanel(QWidget* parent = nullptr);
    // What the running endpoint serves; `problem`: why its TLS port is not serving (shown
    // instead of the values). Not serving and no problem: a line saying it starts with OK.
    void show(const AmqpService::TlsTrust& trust, const QString& problem);

private:
    // A row of the grid: a caption, the value (elided), and a Copy button putting it on the
    // clipboard; `name` names the value ("tlsCaFile") and its button ("copyTlsCaFile").
    ElidedLabel* addRow(const QString& caption, const QString& name, const QString& copyTip);

    QGridLayout* m_grid;
    QWidget* m_values; // the grid, hidden while there is nothing to show
    QLabel* m_waiting;
    QLabel* m_problem;
    ElidedLabel* m_connectionString;
    ElidedLabel* m_caFile;
    ElidedLabel* m_fingerprint;
    QList<ElidedLabel*> m_hints;
};

} // namespace hourglass::ui
