#include "window/RemoteNamespaces.h"

#include "namespaces/ConnectDialog.h"
#include "namespaces/NamedEntitiesDialog.h"
#include "namespaces/RemoteOpener.h"
#include "namespaces/SavedNamespaces.h"
#include "window/RemoteNamespaceView.h"

#include <QMessageBox>
#include <QPointer>
#include <QPushButton>
#include <QVBoxLayout>

#include <utility>

namespace hourglass::ui {

RemoteNamespaces::RemoteNamespaces(QVBoxLayout& column, QWidget& window, QSettings* settings,
                                   QObject* parent)
    : QObject(parent)
    , m_column(column)
    , m_window(window)
    , m_saved(new SavedNamespaces(settings, QStringLiteral("hourglass"), this))
    , m_opener(new RemoteOpener(*m_saved, &window, this)) {
    connect(m_opener, &RemoteOpener::opened, this,
            [this](const QString& id, std::shared_ptr<Broker> broker) {
                if (RemoteNamespaceView* shown = view(id))
                    shown->attach(std::move(broker));
            });
    connect(m_opener, &RemoteOpener::failed, this, [this](const QString& id, const QString& why) {
        if (RemoteNamespaceView* shown = view(id)) {
            shown->header()->setState(NamespaceHeader::State::Failed, why);
            emit openFailed(shown->saved().name, why);
        }
    });
    connect(m_opener, &RemoteOpener::cancelled, this, [this](const QString& id) {
        if (RemoteNamespaceView* shown = view(id))
            shown->header()->setState(NamespaceHeader::State::Disconnected);
    });
    for (const SavedNamespace& saved : m_saved->list())
        addView(saved);
    // Saved from anywhere (the Connect dialog, an import): in the column at once.
    connect(m_saved, &SavedNamespaces::saved, this, [this](const QString& id) {
        if (view(id))
            return;
        if (const std::optional<SavedNamespace> found = m_saved->find(id))
            addView(*found);
    });
}

RemoteNamespaceView* RemoteNamespaces::view(const QString& id) const {
    for (RemoteNamespaceView* shown : m_views)
        if (shown->saved().id == id)
            return shown;
    return nullptr;
}

QDialog* RemoteNamespaces::openConnectDialog() {
    auto* dialog = new ConnectDialog(m_saved, &m_window);
    dialog->setObjectName(QStringLiteral("connectDialog"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        const std::optional<SavedNamespace> typed = dialog->current();
        const std::optional<SavedNamespace> kept = m_saved->find(dialog->savedId());
        if (!typed || !kept)
            return;
        RemoteNamespaceView* shown = view(kept->id);
        if (!shown)
            shown = addView(*kept);
        shown->header()->setState(NamespaceHeader::State::Connecting);
        // The key just typed opens it: no keychain round trip, and none at all without one.
        m_opener->openWithSecret(kept->withSecret(typed->secret()));
    });
    dialog->open();
    return dialog;
}

void RemoteNamespaces::connectTo(const QString& id) {
    RemoteNamespaceView* shown = view(id);
    if (!shown || shown->isConnected() || m_opener->isOpening(id))
        return;
    shown->header()->setState(NamespaceHeader::State::Connecting);
    m_opener->open(shown->saved());
}

void RemoteNamespaces::closeAll() {
    const QList<RemoteNamespaceView*> views = std::exchange(m_views, {});
    for (RemoteNamespaceView* shown : views) {
        m_opener->drop(shown->saved().id);
        delete shown; // closes its connection now: the window is closing
    }
}

RemoteNamespaceView* RemoteNamespaces::addView(const SavedNamespace& saved) {
    auto* shown = new RemoteNamespaceView(saved, &m_window);
    const QString id = saved.id;
    connect(shown->header(), &NamespaceHeader::connectRequested, this,
            [this, id] { connectTo(id); });
    connect(shown->header(), &NamespaceHeader::disconnectRequested, this, [this, shown] {
        // Connecting: the opening's answer is dropped and its broker let go.
        m_opener->drop(shown->saved().id);
        shown->detach();
        shown->header()->setState(NamespaceHeader::State::Disconnected);
    });
    connect(shown->header(), &NamespaceHeader::forgetRequested, this,
            [this, shown] { askToForget(shown); });
    connect(shown->header(), &NamespaceHeader::namedEntitiesRequested, this,
            [this, shown] { askForNames(shown); });
    // A connected namespace shares the column's height with the database's tree; one not
    // connected keeps only its header's.
    connect(shown, &RemoteNamespaceView::attached, this,
            [this, shown] { m_column.setStretchFactor(shown, 1); });
    connect(shown, &RemoteNamespaceView::detached, this,
            [this, shown] { m_column.setStretchFactor(shown, 0); });
    m_column.addWidget(shown, 0);
    m_views.append(shown);
    emit viewAdded(shown);
    return shown;
}

void RemoteNamespaces::askForNames(RemoteNamespaceView* shown) {
    auto* dialog = new NamedEntitiesDialog(shown->saved(), &m_window);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    QPointer<RemoteNamespaceView> guard(shown);
    connect(dialog, &QDialog::accepted, this, [this, dialog, guard] {
        if (!guard)
            return;
        const QString id = guard->saved().id;
        std::optional<SavedNamespace> kept = m_saved->find(id);
        if (!kept)
            return;
        kept->namedEntities = dialog->text();
        m_saved->updateSettings(*kept); // the key stays in the keychain
        guard->setNamedEntities(dialog->text());
        // The names are the broker's options: open it again with them.
        m_opener->drop(id);
        if (guard->isConnected())
            guard->detach();
        connectTo(id);
    });
    dialog->open();
}

void RemoteNamespaces::askToForget(RemoteNamespaceView* shown) {
    auto* box = new QMessageBox(
        QMessageBox::Question, tr("Forget namespace"),
        tr("Forget the namespace \"%1\" (%2)? Its saved connection and its key in the keychain "
           "are removed; nothing in the namespace changes.")
            .arg(shown->saved().name, shown->saved().connection.displayName()),
        QMessageBox::Cancel, &m_window);
    box->setObjectName(QStringLiteral("confirmForget"));
    QPushButton* forget = box->addButton(tr("Forget"), QMessageBox::AcceptRole);
    box->setDefaultButton(QMessageBox::Cancel);
    box->setAttribute(Qt::WA_DeleteOnClose);
    QPointer<RemoteNamespaceView> guard(shown);
    connect(box, &QMessageBox::finished, this, [this, box, forget, guard] {
        if (!guard || box->clickedButton() != forget)
            return;
        m_views.removeAll(guard.data());
        m_saved->remove(guard->saved().id);
        guard->detach(); // closes in the background; the window goes on
        delete guard.data();
    });
    box->open();
}

} // namespace hourglass::ui
