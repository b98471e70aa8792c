#include "common/BulkProgressBar.h"

#include "common/BulkJob.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QToolButton>

namespace hourglass::ui {

BulkProgressBar::BulkProgressBar(QWidget* parent)
    : QWidget(parent)
    , m_title(new QLabel)
    , m_bar(new QProgressBar)
    , m_cancel(new QPushButton(tr("Cancel")))
    , m_close(new QToolButton) {
    setObjectName(QStringLiteral("bulkProgressBar"));
    m_title->setObjectName(QStringLiteral("bulkTitle"));
    m_bar->setObjectName(QStringLiteral("bulkProgress"));
    m_cancel->setObjectName(QStringLiteral("bulkCancel"));
    m_close->setObjectName(QStringLiteral("bulkClose"));
    m_close->setText(QStringLiteral("✕"));
    m_close->setAutoRaise(true);
    m_close->setToolTip(tr("Hide"));
    m_bar->setTextVisible(true);
    m_bar->setMaximumWidth(320);

    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(6, 2, 6, 2);
    layout->addWidget(m_title, 1);
    layout->addWidget(m_bar);
    layout->addWidget(m_cancel);
    layout->addWidget(m_close);
    connect(m_cancel, &QPushButton::clicked, this, [this] {
        if (m_job) {
            m_job->cancel();
            m_cancel->setEnabled(false);
            m_title->setText(tr("%1: cancelling after this step…").arg(m_job->title()));
        }
    });
    connect(m_close, &QToolButton::clicked, this, &QWidget::hide);
    hide();
}

void BulkProgressBar::track(BulkJob* job) {
    if (m_job)
        disconnect(m_job, nullptr, this, nullptr);
    m_job = job;
    if (!job) {
        hide();
        return;
    }
    m_cancel->setEnabled(true);
    m_cancel->show();
    m_close->hide();
    m_bar->show();
    showProgress(job->done(), job->total());
    connect(job, &BulkJob::progress, this, &BulkProgressBar::showProgress);
    connect(job, &BulkJob::finished, this, [this](int done, int total, bool cancelled) {
        const QLocale locale;
        const QString title = m_job ? m_job->title() : QString();
        m_title->setText(cancelled
                             ? tr("%1: cancelled after %2 of %3")
                                   .arg(title, locale.toString(done), locale.toString(total))
                             : tr("%1: done, %2 of %3")
                                   .arg(title, locale.toString(done), locale.toString(total)));
        m_cancel->hide();
        m_close->show();
    });
    connect(job, &BulkJob::failed, this, [this](const Error& error, int done, int total) {
        const QLocale locale;
        const QString title = m_job ? m_job->title() : QString();
        m_title->setText(tr("%1: stopped after %2 of %3 (%4)")
                             .arg(title, locale.toString(done), locale.toString(total),
                                  errorCodeName(error.code)));
        m_title->setToolTip(error.toString());
        m_cancel->hide();
        m_close->show();
    });
    show();
}

QString BulkProgressBar::text() const {
    return m_title->text();
}

void BulkProgressBar::showProgress(int done, int total) {
    const QLocale locale;
    m_bar->setRange(0, std::max(total, 1));
    m_bar->setValue(done);
    if (m_job)
        m_title->setText(
            tr("%1: %2 of %3").arg(m_job->title(), locale.toString(done), locale.toString(total)));
}

} // namespace hourglass::ui
