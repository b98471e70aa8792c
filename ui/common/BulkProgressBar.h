#pragma once
// A slim strip that follows one BulkJob: its title, "done of total", a progress bar and a Cancel
// button. Hidden when no job runs; when a job ends it says how it ended (done, cancelled, or the
// error) until the next job starts or the strip is closed.
//
// Object names for tests: "bulkTitle", "bulkProgress", "bulkCancel".

#include "common/BulkJob.h"

#include <QPointer>
#include <QWidget>

class QLabel;
class QProgressBar;
class QPushButton;
class QToolButton;

namespace hourglass::ui {

class BulkProgressBar : public QWidget {
    Q_OBJECT
public:
    explicit BulkProgressBar(QWidget* parent = nullptr);

    // Shows and follows `job` (which keeps its own lifetime; the bar forgets it when it goes).
    void track(BulkJob* job);
    BulkJob* job() const { return m_job; }
    QString text() const;

private:
    void showProgress(int done, int total);

    QPointer<BulkJob> m_job;
    QLabel* m_title;
    QProgressBar* m_bar;
    QPushButton* m_cancel;
    QToolButton* m_close;
};

} // namespace hourglass::ui
