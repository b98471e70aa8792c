#include "TlsTrustPanel.h"

#include "common/ElidedLabel.h"
#include "common/FixedPitchFont.h"
#include "common/InlineError.h"

#include "hourglass/tls/LocalCertificates.h"

#include <QApplication>
#include <QClipboard>
#include <QGridLayout>
#include <QLabel>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

namespace hourglass::ui {

namespace {

// How long a Copy button says "Copied" after a click.
constexpr int kCopiedFeedbackMs = 1500;

// "tlsHint0": the hints are named by their place, their client is their caption.
QString hintName(qsizetype index) {
    return QStringLiteral("tlsHint%1").arg(index);
}

QLabel* noteLabel(const QString& text) {
    auto* label = new QLabel(text);
    label->setWordWrap(true);
    label->setForegroundRole(QPalette::PlaceholderText);
    return label;
}

} // namespace

TlsTrustPanel::TlsTrustPanel(QWidget* parent)
    : QGroupBox(tr("Applications on the TLS port"), parent)
    , m_grid(new QGridLayout)
    , m_values(new QWidget)
    , m_waiting(noteLabel(tr("How applications reach and trust the TLS port shows here once it "
                             "serves (OK starts it).")))
    , m_problem(makeInlineErrorLabel(QStringLiteral("tlsProblem"), this)) {
    setObjectName(QStringLiteral("tlsTrust"));
    m_waiting->setObjectName(QStringLiteral("tlsWaiting"));
    // Nothing wrong takes no room (the inline error label keeps a line by default).
    QSizePolicy problemPolicy = m_problem->sizePolicy();
    problemPolicy.setRetainSizeWhenHidden(false);
    m_problem->setSizePolicy(problemPolicy);
    m_problem->setMinimumHeight(0);
    m_grid->setContentsMargins(0, 0, 0, 0);
    m_grid->setColumnStretch(1, 1);
    m_values->setLayout(m_grid);

    m_connectionString = addRow(tr("Connection string:"), QStringLiteral("tlsConnectionString"),
                                tr("Copy the TLS connection string"));
    m_caFile = addRow(tr("Certificate authority:"), QStringLiteral("tlsCaFile"),
                      tr("Copy the certificate authority's file path"));
    m_fingerprint = addRow(tr("SHA-256:"), QStringLiteral("tlsFingerprint"),
                           tr("Copy the authority's SHA-256 fingerprint, to compare with what a "
                              "client shows"));
    m_fingerprint->setFont(fixedPitchFont(m_fingerprint->font()));
    // A blank line between what applications dial and how they trust it.
    m_grid->setRowMinimumHeight(m_grid->rowCount(), fontMetrics().lineSpacing() / 2);
    m_grid->addWidget(new QLabel(tr("Applications trust the authority with:")), m_grid->rowCount(),
                      0, 1, 3);
    // One row per client trustHints knows, captioned with its name (the path comes in show()).
    const QList<tls::TrustHint> clients = tls::trustHints(QString());
    for (qsizetype i = 0; i < clients.size(); ++i) {
        ElidedLabel* hint = addRow(tr("%1:").arg(clients.at(i).client), hintName(i),
                                   tr("Copy the line for %1").arg(clients.at(i).client));
        m_hints.append(hint);
    }
    auto* pythonPort = noteLabel(tr("The Python SDK dials 5671 whatever the string says."));
    pythonPort->setObjectName(QStringLiteral("tlsPythonPortNote"));
    m_grid->addWidget(pythonPort, m_grid->rowCount(), 0, 1, 3);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_problem);
    layout->addWidget(m_waiting);
    layout->addWidget(m_values);
}

ElidedLabel* TlsTrustPanel::addRow(const QString& caption, const QString& name,
                                   const QString& copyTip) {
    const int row = m_grid->rowCount();
    auto* value = new ElidedLabel(Qt::ElideMiddle);
    value->setObjectName(name);
    // The value takes the room the dialog has and never widens it: a long path is elided.
    value->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    auto* copy = new QToolButton;
    copy->setObjectName(QStringLiteral("copy") + name.at(0).toUpper() + name.mid(1));
    copy->setText(tr("Copy"));
    copy->setToolTip(copyTip);
    // As wide for "Copied" as for "Copy": the row does not jump when it says so.
    copy->setMinimumWidth(copy->fontMetrics().horizontalAdvance(tr("Copied")) +
                          2 * copy->fontMetrics().averageCharWidth() * 2);
    connect(copy, &QToolButton::clicked, this, [value, copy] {
        QApplication::clipboard()->setText(value->text());
        copy->setText(tr("Copied"));
        QTimer::singleShot(kCopiedFeedbackMs, copy, [copy] { copy->setText(tr("Copy")); });
    });
    m_grid->addWidget(new QLabel(caption), row, 0);
    m_grid->addWidget(value, row, 1);
    m_grid->addWidget(copy, row, 2);
    return value;
}

void TlsTrustPanel::show(const AmqpService::TlsTrust& trust, const QString& problem) {
    m_problem->setText(problem.isEmpty() ? QString() : tr("TLS not serving: %1").arg(problem));
    m_problem->setVisible(!problem.isEmpty());
    m_waiting->setVisible(!trust.serving && problem.isEmpty());
    m_values->setVisible(trust.serving);
    m_connectionString->setText(trust.connectionString);
    m_caFile->setText(trust.caFile);
    m_fingerprint->setText(trust.fingerprint);
    const QList<tls::TrustHint> hints = tls::trustHints(trust.caFile);
    for (qsizetype i = 0; i < m_hints.size() && i < hints.size(); ++i)
        m_hints.at(i)->setText(trust.serving ? hints.at(i).line : QString());
}

} // namespace hourglass::ui
