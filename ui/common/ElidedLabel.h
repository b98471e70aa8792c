#pragma once
// A one-line label that shrinks below its text by eliding it (Qt::ElideMiddle keeps both ends of
// a path) and then shows the full text as its tooltip, unless it was given a tooltip of its own.
// text() stays the full text.

#include <QLabel>

namespace hourglass::ui {

class ElidedLabel : public QLabel {
    Q_OBJECT
public:
    explicit ElidedLabel(Qt::TextElideMode mode = Qt::ElideRight, QWidget* parent = nullptr);

    // The text as drawn at the label's current width.
    QString shownText() const;
    bool isElided() const { return shownText() != text(); }
    QSize minimumSizeHint() const override;

protected:
    bool event(QEvent* event) override;
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void updateToolTip();

    Qt::TextElideMode m_mode;
    bool m_toolTipIsText = false; // the tooltip is ours (the full text), not the caller's
};

} // namespace hourglass::ui
