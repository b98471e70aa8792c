#include "window/WelcomeStrip.h"

#include "tree/NamespaceTreeModel.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSettings>

namespace hourglass::ui {

namespace {
const QString kDismissedKey = QStringLiteral("welcome/dismissed");

bool holdsSample(QAbstractItemModel* tree) {
    for (int row = 0; row < tree->rowCount(); ++row) {
        const QModelIndex index = tree->index(row, 0);
        if (index.data(NamespaceTreeModel::PathRole).toString() ==
            QLatin1String(WelcomeStrip::kSampleNamespace))
            return true;
    }
    return false;
}
} // namespace

WelcomeStrip::WelcomeStrip(QWidget* parent)
    : QFrame(parent)
    , m_text(new QLabel(this)) {
    setObjectName(QStringLiteral("welcomeStrip"));
    setFrameShape(QFrame::StyledPanel);
    // The palette's highlight, faint: a note, not a warning, in the light and the dark theme.
    setAutoFillBackground(true);
    QPalette colours = palette();
    QColor tint = colours.color(QPalette::Highlight);
    tint.setAlpha(40);
    colours.setColor(QPalette::Window, tint);
    setPalette(colours);

    m_text->setObjectName(QStringLiteral("welcomeText"));
    m_text->setWordWrap(true);
    m_text->setTextFormat(Qt::RichText);
    m_text->setText(
        tr("<b>Welcome to Hourglass.</b> The <b>sample</b> namespace is yours to try: each bar "
           "is the time a message has left to live (or to keep its lock). Set the speed in "
           "the toolbar to <b>60×</b> to watch them run out; expired orders go to the <b>Dead "
           "letters</b> "
           "tab. Receive, settle and send from the tabs, or drag messages onto an entity in the "
           "tree to move them (Ctrl to copy)."));
    auto* dismiss = new QPushButton(tr("Got it"), this);
    dismiss->setObjectName(QStringLiteral("welcomeDismiss"));
    dismiss->setToolTip(tr("Hide this note for good"));
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(10, 6, 6, 6);
    layout->addWidget(m_text, 1);
    layout->addWidget(dismiss, 0, Qt::AlignVCenter);
    connect(dismiss, &QPushButton::clicked, this, &WelcomeStrip::dismiss);
    hide();
}

bool WelcomeStrip::dismissed() {
    return QSettings().value(kDismissedKey, false).toBool();
}

void WelcomeStrip::watch(QAbstractItemModel* tree) {
    if (m_tree)
        disconnect(m_tree, nullptr, this, nullptr);
    m_tree = tree;
    if (tree) {
        // The tree fills in (and loses rows) after the database opens.
        connect(tree, &QAbstractItemModel::rowsInserted, this, &WelcomeStrip::update);
        connect(tree, &QAbstractItemModel::rowsRemoved, this, &WelcomeStrip::update);
        connect(tree, &QAbstractItemModel::modelReset, this, &WelcomeStrip::update);
        connect(tree, &QAbstractItemModel::layoutChanged, this, &WelcomeStrip::update);
    }
    update();
}

void WelcomeStrip::update() {
    setVisible(m_tree && !dismissed() && holdsSample(m_tree));
}

void WelcomeStrip::dismiss() {
    QSettings().setValue(kDismissedKey, true);
    hide();
}

} // namespace hourglass::ui
