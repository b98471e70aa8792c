#include "demo/ScenarioRecording.h"

#include "common/BrokerClient.h"
#include "hourglass/OperationObserver.h"
#include "hourglass/scenario/ScenarioRecorder.h"

#include <QAction>
#include <QDateTime>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QSaveFile>
#include <QSignalBlocker>
#include <QStandardPaths>

namespace hourglass::ui {

namespace {

constexpr int kIndicatorRefreshMs = 500;

// "01:23", or "1:02:03" from an hour on.
QString elapsedText(Millis elapsed) {
    const qint64 totalSeconds = std::max<Millis>(0, elapsed) / 1000;
    const qint64 hours = totalSeconds / 3600;
    const qint64 minutes = totalSeconds / 60 % 60;
    const qint64 seconds = totalSeconds % 60;
    const QString minutesAndSeconds = QStringLiteral("%1:%2")
                                          .arg(minutes, 2, 10, QLatin1Char('0'))
                                          .arg(seconds, 2, 10, QLatin1Char('0'));
    return hours > 0 ? QString::number(hours) + u':' + minutesAndSeconds : minutesAndSeconds;
}

QString stepsText(int steps) {
    return steps == 1 ? QStringLiteral("1 step") : QStringLiteral("%1 steps").arg(steps);
}

// Ends a recording on the client's worker: no more steps, the clock up to now, the document.
QByteArray finishRecording(Broker& broker, ScenarioRecorder& recorder) {
    broker.setOperationObserver(nullptr);
    recorder.finish(broker);
    return recorder.toJson();
}

// Writes a scenario document whole or not at all; the file's name, or why it could not be.
Result<QString> writeDocument(const QString& fileName, const QByteArray& document) {
    QDir().mkpath(QFileInfo(fileName).absolutePath());
    QSaveFile file(fileName);
    if (!file.open(QIODevice::WriteOnly) || file.write(document) != document.size() ||
        !file.commit())
        return makeError(ErrorCode::GeneralError,
                         QObject::tr("Cannot write %1: %2").arg(fileName, file.errorString()));
    return fileName;
}

} // namespace

ScenarioRecording::ScenarioRecording(BrokerClient& client, QWidget* dialogParent)
    : QObject(dialogParent)
    , m_client(&client)
    , m_dialogParent(dialogParent)
    , m_recorder(std::make_shared<ScenarioRecorder>()) {
    m_record = new QAction(tr("Record"), this);
    m_record->setObjectName(QStringLiteral("scenarioRecord"));
    m_record->setCheckable(true);
    m_record->setShortcut(QKeySequence(QStringLiteral("Ctrl+Alt+R")));
    m_record->setToolTip(tr("Record what you do into a scenario file; stop to save it"));
    connect(m_record, &QAction::toggled, this, [this](bool on) { on ? start() : stop(); });

    m_addCheck = new QAction(tr("Add check for this entity"), this);
    m_addCheck->setObjectName(QStringLiteral("scenarioAddCheck"));
    m_addCheck->setToolTip(
        tr("Adds a step that checks this entity's counts as they are now when the file plays"));
    connect(m_addCheck, &QAction::triggered, this, &ScenarioRecording::addCheck);

    m_save = new QAction(tr("Save Recording…"), this);
    m_save->setObjectName(QStringLiteral("scenarioSaveRecording"));
    connect(m_save, &QAction::triggered, this, &ScenarioRecording::openSaveDialog);

    m_indicator = new QLabel();
    m_indicator->setObjectName(QStringLiteral("recordingIndicator"));
    m_indicator->setStyleSheet(
        QStringLiteral("QLabel { color: #d32f2f; font-weight: bold; padding: 0 6px; }"));
    m_indicator->setToolTip(tr("Recording a scenario: stop with Ctrl+Alt+R"));
    m_indicator->hide();
    m_indicatorTimer.setInterval(kIndicatorRefreshMs);
    connect(&m_indicatorTimer, &QTimer::timeout, this, &ScenarioRecording::updateIndicator);
    connect(&client, &BrokerClient::changed, this, [this] {
        if (isRecording())
            updateIndicator();
    });
    updateActions();
}

ScenarioRecording::~ScenarioRecording() {
    // Cancelled here, at once: the start job may still be running on one of the client's two
    // threads while the unset job below runs on the other, and a cancelled recorder neither
    // begins nor stays the observer (the start job checks after setting it), nor records
    // anything. A kept recording is finished by
    // keepUnsaved()'s job instead.
    if (!m_kept)
        m_recorder->cancel();
    if (m_state != State::Idle && !m_kept && m_client)
        m_client->call(
            nullptr,
            [](Broker& broker) {
                broker.setOperationObserver(nullptr);
                return true;
            },
            [](bool) {});
    // Not yet handed to a status bar: it is still ours.
    if (m_indicator && !m_indicator->parent())
        delete m_indicator;
}

QLabel* ScenarioRecording::indicator() const {
    return m_indicator;
}

int ScenarioRecording::stepCount() const {
    return m_recorder->stepCount();
}

void ScenarioRecording::setEntity(const QString& qualifiedPath, NamespaceTreeModel::NodeKind kind) {
    m_entity = qualifiedPath;
    m_kind = kind;
    updateActions();
}

void ScenarioRecording::start() {
    if (m_state != State::Idle || !m_client)
        return;
    setState(State::Starting);
    // The start (entities as they are, the clock) is read before the observer is set, in one
    // job, so that nothing is recorded twice. Known gap: an operation already running on the
    // client's other thread when the observer is set, and finishing after the start was read,
    // is in neither (an observer is looked up when an operation begins). Record starts from a
    // click, so another operation is rarely under way then.
    m_client->call(
        this,
        [recorder = m_recorder](Broker& broker) -> Result<void> {
            auto begun = recorder->begin(broker);
            if (!begun)
                return begun;
            broker.setOperationObserver(recorder);
            // Cancelled meanwhile: its owner's unset job may already have run, so this job
            // takes the observer off itself. Otherwise that unset job comes after this one.
            if (recorder->isCancelled())
                broker.setOperationObserver(nullptr);
            return begun;
        },
        [this](Result<void> begun) {
            if (!begun) {
                setState(State::Idle);
                emit errorOccurred(begun.error());
                return;
            }
            setState(State::Recording);
            emit statusMessage(tr("Recording: what you do now becomes a scenario step"));
        });
}

void ScenarioRecording::stop() {
    if (m_state != State::Recording || !m_client)
        return;
    setState(State::Stopping);
    m_client->call(
        this,
        [recorder = m_recorder](Broker& broker) { return finishRecording(broker, *recorder); },
        [this](QByteArray document) {
            m_document = std::move(document);
            m_unsaved = true;
            setState(State::Idle);
            emit statusMessage(tr("Recording stopped: %1").arg(stepsText(stepCount())));
            openSaveDialog();
        });
}

void ScenarioRecording::addCheck() {
    if (!isRecording() || m_entity.isEmpty() || !m_client)
        return;
    const QString path = m_entity;
    m_client->call(
        this,
        [recorder = m_recorder, path](Broker& broker) {
            return recorder->addExpectation(broker, path);
        },
        [this, path](Result<void> added) {
            if (!added) {
                emit errorOccurred(added.error());
                return;
            }
            updateIndicator();
            emit statusMessage(tr("Check added: the file will check %1 as it is now").arg(path));
        });
}

void ScenarioRecording::openSaveDialog() {
    if (m_document.isEmpty())
        return;
    const QString folder = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    auto* dialog = new QFileDialog(m_dialogParent, tr("Save recorded scenario"), folder,
                                   tr("Scenario files (*.json)"));
    dialog->setObjectName(QStringLiteral("scenarioSaveDialog"));
    dialog->setAcceptMode(QFileDialog::AcceptSave);
    dialog->setFileMode(QFileDialog::AnyFile);
    dialog->setDefaultSuffix(QStringLiteral("json"));
    dialog->setOption(QFileDialog::DontUseNativeDialog);
    dialog->selectFile(QStringLiteral("recorded-scenario.json"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QFileDialog::fileSelected, this, &ScenarioRecording::saveTo);
    dialog->open();
}

bool ScenarioRecording::saveTo(const QString& fileName) {
    if (m_document.isEmpty()) {
        emit errorOccurred(
            makeError(ErrorCode::InvalidArgument, tr("There is no recording to save yet.")));
        return false;
    }
    if (auto written = writeDocument(fileName, m_document); !written) {
        emit errorOccurred(written.error());
        return false;
    }
    m_unsaved = false;
    QString text = tr("Scenario saved to %1 (%2)")
                       .arg(QDir::toNativeSeparators(fileName), stepsText(stepCount()));
    if (const QString left = m_recorder->leftOutText(); !left.isEmpty())
        text += tr("; left out, no scenario step: %1").arg(left);
    emit statusMessage(text);
    return true;
}

QString ScenarioRecording::unsavedFolder() {
    // Next to the default database (~/.local/share/hourglass/hourglass.db).
    return QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation) +
           QStringLiteral("/hourglass/recordings");
}

bool ScenarioRecording::keepUnsaved(QObject* context, std::function<void(Result<QString>)> done) {
    if (!m_client || m_kept)
        return false;
    // A name of its own: QSaveFile would replace a file kept a moment before.
    const QString stem =
        unsavedFolder() + QStringLiteral("/recording-") +
        QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss-zzz"));
    QString fileName = stem + QStringLiteral(".json");
    for (int n = 2; QFileInfo::exists(fileName); ++n)
        fileName = stem + QStringLiteral("-%1.json").arg(n);
    if (m_state == State::Recording || m_state == State::Stopping) {
        // Finished where it is, on the client's worker: what was done up to now is the file.
        // (Stopping: the stop job may have finished it already; finishing again changes nothing.)
        m_kept = true;
        m_client->call(
            context,
            [recorder = m_recorder, fileName](Broker& broker) {
                return writeDocument(fileName, finishRecording(broker, *recorder));
            },
            std::move(done));
        return true;
    }
    if (m_state == State::Idle && m_unsaved && !m_document.isEmpty()) {
        m_kept = true;
        m_unsaved = false;
        m_client->call(
            context,
            [document = m_document, fileName](Broker&) {
                return writeDocument(fileName, document);
            },
            std::move(done));
        return true;
    }
    return false; // nothing, saved already, or still starting (nothing recorded yet)
}

void ScenarioRecording::setState(State state) {
    const bool wasRecording = isRecording();
    m_state = state;
    {
        // The action mirrors the state without starting or stopping anything again.
        const QSignalBlocker blocker(m_record);
        m_record->setChecked(state == State::Starting || state == State::Recording);
    }
    if (isRecording()) {
        m_indicatorTimer.start();
        updateIndicator();
        m_indicator->show();
    } else {
        m_indicatorTimer.stop();
        m_indicator->hide();
    }
    updateActions();
    if (wasRecording != isRecording())
        emit recordingChanged(isRecording());
}

void ScenarioRecording::updateActions() {
    // While a start or stop is on its way, a second click would race it.
    m_record->setEnabled(m_state == State::Idle || m_state == State::Recording);
    m_record->setText(isRecording() ? tr("Stop Recording") : tr("Record"));
    m_addCheck->setEnabled(isRecording() && !m_entity.isEmpty() &&
                           m_kind != NamespaceTreeModel::NodeKind::Namespace);
    m_save->setEnabled(m_state == State::Idle && !m_document.isEmpty());
}

void ScenarioRecording::updateIndicator() {
    if (!m_indicator || !m_client)
        return;
    const Millis elapsed = m_client->clock().now() - m_recorder->startedAt();
    m_indicator->setText(QStringLiteral("● REC %1 · %2")
                             .arg(elapsedText(elapsed), stepsText(m_recorder->stepCount())));
}

} // namespace hourglass::ui
