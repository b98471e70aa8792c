// The charts keep the story in view and say what they show: the whole history stays (old samples
// thinned, never dropped), a window of the last minutes on request, a throughput axis that
// scales to small rates, lines on top of each other still visible, a long title elided with the
// whole text in its tooltip, and a saved picture large, titled with the entity and the time range,
// named after both and offered in the Pictures folder.

#include "DeadLetterTestEnv.h"
#include "demo/ChartImage.h"
#include "demo/CountsHistory.h"
#include "demo/EntityChartsPanel.h"

#include <QAction>
#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QImage>
#include <QLabel>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QtCharts/QChartView>
#include <QtCharts/QDateTimeAxis>
#include <QtCharts/QLineSeries>
#include <QtCharts/QValueAxis>

using namespace hourglass;
using namespace hourglass::ui;
using namespace hourglass::testing::deadletter;
using Kind = NamespaceTreeModel::NodeKind;
using hourglass::testing::kTestStart;

namespace {

QChart* chartOf(const EntityChartsPanel& panel, const char* name) {
    return child<QChartView>(panel, name)->chart();
}

Instant axisStart(const EntityChartsPanel& panel, const char* chart) {
    auto* x = qobject_cast<QDateTimeAxis*>(chartOf(panel, chart)->axes(Qt::Horizontal).value(0));
    return x->min().toMSecsSinceEpoch();
}

QValueAxis* valueAxis(const EntityChartsPanel& panel, const char* chart) {
    return qobject_cast<QValueAxis*>(chartOf(panel, chart)->axes(Qt::Vertical).value(0));
}

void advance(Env& env, Millis delta) {
    QVERIFY(env.call([delta](Broker& b) { return b.advanceClock(delta); }).ok());
}

} // namespace

class TestUiChartsStory : public QObject {
    Q_OBJECT
private slots:
    void historyKeepsItsStartPastItsCapacity() {
        CountsHistory history(QStringLiteral("test:orders"), 1000);
        EntityFlow flow;
        const int readings = CountsHistory::kCapacity * 3;
        for (int i = 0; i < readings; ++i) {
            flow.sent += i % 7; // an uneven rate
            history.record(kTestStart + i * 1000, {}, flow);
        }
        QVERIFY(history.samples().size() <= CountsHistory::kCapacity);
        QVERIFY(history.samples().size() > CountsHistory::kCapacity / 2);
        // The story's beginning is still there, and its end.
        QCOMPARE(history.samples().first().at, kTestStart);
        QCOMPARE(history.samples().last().at, kTestStart + (readings - 1) * 1000);
        // One rate ending at each sample but the first; over the whole history they add up to
        // every message sent (merged rates average over their joint interval).
        QCOMPARE(history.rates().size(), history.samples().size() - 1);
        double sent = 0;
        for (qsizetype i = 0; i < history.rates().size(); ++i) {
            const CountsHistory::Rate& rate = history.rates()[i];
            QCOMPARE(rate.at, history.samples()[i + 1].at);
            sent += rate.sent * double(rate.at - history.samples()[i].at) / 1000.0;
        }
        QCOMPARE(qRound64(sent), flow.sent);
    }

    void timeWindowShowsAllOrTheLastMinutes() {
        Env env;
        EntityChartsPanel panel(*env.client);
        panel.resize(900, 700);
        panel.show();
        panel.setEntity(QStringLiteral("test:orders"), Kind::Queue);
        QTRY_COMPARE(panel.history()->samples().size(), 1);
        for (int i = 1; i <= 10; ++i) {
            advance(env, minutes(1));
            QTRY_COMPARE(panel.history()->samples().size(), i + 1);
        }
        const Instant end = kTestStart + minutes(10);
        auto* window = child<QComboBox>(panel, "chartsTimeWindow");
        QCOMPARE(window->currentText(), QStringLiteral("All"));
        QCOMPARE(axisStart(panel, "countsChart"), kTestStart);
        QCOMPARE(axisStart(panel, "throughputChart"), kTestStart);

        window->setCurrentIndex(window->findText(QStringLiteral("Last 5 min")));
        QCOMPARE(panel.timeWindow(), minutes(5));
        QCOMPARE(axisStart(panel, "countsChart"), end - minutes(5));
        QCOMPARE(axisStart(panel, "throughputChart"), end - minutes(5));
        auto* active = qobject_cast<QLineSeries*>(chartOf(panel, "countsChart")->series().first());
        QCOMPARE(active->points().size(), 6); // 5:00 to 10:00
        window->setCurrentIndex(window->findText(QStringLiteral("All")));
        QCOMPARE(axisStart(panel, "countsChart"), kTestStart);
        QCOMPARE(active->points().size(), 11);
    }

    void throughputAxisScalesToSmallRates() {
        Env env;
        EntityChartsPanel panel(*env.client);
        panel.resize(900, 700);
        panel.show();
        panel.setEntity(QStringLiteral("test:orders"), Kind::Queue);
        QTRY_COMPARE(panel.history()->samples().size(), 1);
        // One message in five seconds: 0.2 a second.
        QVERIFY(
            env.call([](Broker& b) { return b.send(kQueue, Env::message(QStringLiteral("slow"))); })
                .ok());
        advance(env, seconds(5));
        QTRY_COMPARE(panel.history()->rates().size(), 1);
        QCOMPARE(panel.history()->rates().first().sent, 0.2);
        QValueAxis* y = valueAxis(panel, "throughputChart");
        QVERIFY2(y->max() >= 0.2 && y->max() <= 0.5, qPrintable(QString::number(y->max())));
        QCOMPARE(y->labelFormat(), QStringLiteral("%.2f"));
    }

    void overlappingLinesStayVisible() {
        Env env;
        EntityChartsPanel panel(*env.client);
        panel.show();
        for (const char* name : {"countsChart", "throughputChart"}) {
            const QList<QAbstractSeries*> series = chartOf(panel, name)->series();
            QVERIFY(series.size() >= 2);
            for (qsizetype i = 1; i < series.size(); ++i) {
                const QPen under = qobject_cast<QLineSeries*>(series[i - 1])->pen();
                const QPen over = qobject_cast<QLineSeries*>(series[i])->pen();
                // Drawn later, thinner: the line underneath shows along its edges.
                QVERIFY(under.widthF() > over.widthF());
                QVERIFY(under.style() != over.style());
            }
        }
    }

    void longTitleIsElidedWithItsTooltip() {
        Env env;
        EntityChartsPanel panel(*env.client);
        panel.resize(420, 500);
        panel.show();
        const QString path = QStringLiteral("test:t/Subscriptions/s1");
        panel.setEntity(path, Kind::Subscription);
        auto* title = child<QLabel>(panel, "chartsTitle");
        QTRY_VERIFY(title->text().contains(QChar(0x2026)));
        QVERIFY(title->toolTip().contains(path));
        QVERIFY(title->fontMetrics().horizontalAdvance(title->text()) <= title->width());
        panel.resize(1400, 500);
        QTRY_VERIFY(title->text().contains(path));
        QVERIFY(title->toolTip().isEmpty());
    }

    void savedPictureNamesEntityAndRange() {
        // A home of its own, with a Pictures folder the dialog should start in.
        QTemporaryDir home;
        const QByteArray oldHome = qgetenv("HOME");
        qputenv("HOME", home.path().toUtf8());
        const QString pictures = QStandardPaths::writableLocation(QStandardPaths::PicturesLocation);
        QVERIFY(pictures.startsWith(home.path()));
        QVERIFY(QDir().mkpath(pictures));

        Env env;
        EntityChartsPanel panel(*env.client);
        panel.resize(800, 600);
        panel.show();
        panel.setEntity(QStringLiteral("test:orders"), Kind::Queue);
        QTRY_COMPARE(panel.history()->samples().size(), 1);
        advance(env, minutes(3));
        QTRY_COMPARE(panel.history()->samples().size(), 2);

        const QString range = charts::rangeText(kTestStart, kTestStart + minutes(3));
        QCOMPARE(panel.imageTitle(QStringLiteral("countsChart")),
                 QStringLiteral("test:orders \u2014 Messages \u2014 %1 (engine time)").arg(range));
        const QString name =
            charts::imageFileBase(QStringLiteral("test:orders"), QStringLiteral("counts"),
                                  kTestStart, kTestStart + minutes(3)) +
            QStringLiteral(".png");
        QVERIFY(name.startsWith(QStringLiteral("test-orders-counts_")));
        QCOMPARE(panel.suggestedFileName(QStringLiteral("countsChart")), name);

        child<QChartView>(panel, "countsChart")->actions().first()->trigger();
        QFileDialog* dialog = nullptr;
        QTRY_VERIFY((dialog = panel.findChild<QFileDialog*>(QStringLiteral("saveChartsDialog"))));
        QCOMPARE(QDir(dialog->directory()).canonicalPath(), QDir(pictures).canonicalPath());
        QCOMPARE(QFileInfo(dialog->selectedFiles().value(0)).fileName(), name);
        const QString file = QDir(pictures).filePath(name);
        emit dialog->fileSelected(file);
        dialog->close();
        const QImage image(file);
        QVERIFY(!image.isNull());
        QVERIFY(image.width() >= charts::kMinImageWidth);
        // The title band above the chart: the chart itself drawn at the same scale below it.
        const double scale =
            double(image.width()) / child<QChartView>(panel, "countsChart")->width();
        QVERIFY(image.height() > child<QChartView>(panel, "countsChart")->height() * scale);
        qputenv("HOME", oldHome);
    }
};

QTEST_MAIN(TestUiChartsStory)
#include "tst_ui_charts_story.moc"
