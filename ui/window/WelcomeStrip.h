#pragma once
// The first-launch welcome: a short strip above the tree and the tabs while the sample namespace
// is in the open database, saying what a new user is looking at (the bars are the time each
// message has left, 60× in the toolbar makes them run out, where dead letters go, how messages
// move). Its "Got it" button dismisses it for good: the choice is remembered (QSettings
// "welcome/dismissed") and the strip never returns, whatever database is opened later.
//
// Object names for tests: "welcomeStrip", "welcomeText", "welcomeDismiss".

#include <QFrame>
#include <QPointer>

class QAbstractItemModel;
class QLabel;

namespace hourglass::ui {

class WelcomeStrip : public QFrame {
    Q_OBJECT
public:
    // The namespace the first start creates (app/SampleNamespace).
    static constexpr const char* kSampleNamespace = "sample";

    explicit WelcomeStrip(QWidget* parent = nullptr);

    // Follows this namespace tree (null: none): shown while it holds the sample namespace,
    // unless dismissed.
    void watch(QAbstractItemModel* tree);
    static bool dismissed();

private:
    void update();
    void dismiss();

    QPointer<QAbstractItemModel> m_tree;
    QLabel* m_text;
};

} // namespace hourglass::ui
