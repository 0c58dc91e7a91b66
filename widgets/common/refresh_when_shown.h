#pragma once
// A panel tabbed behind another cannot be seen, so rebuilding it when the
// values change costs the UI thread for nothing: with 70,000 weights
// arriving at once, the Constants, Inputs and Differences docks behind the
// Weights and Tensor tabs each re-sorted their rows in the same event-loop
// turn, and together pushed that turn past 100 ms. A panel asks through this
// instead: when the panel can be seen, once, in the event loop's next turn
// (not inside the turn that brought the values, which the graph and the other
// panels share: each visible panel's refresh is a turn of its own); when it
// cannot, once, when it is next shown; at once while its window is not shown
// at all (a headless test, a window still being built). `flush` brings a
// pending refresh forward for whoever reads the panel's content directly.
#include <functional>

#include <QObject>

class QWidget;

namespace irscope::widgets {

class RefreshWhenShown : public QObject {
public:
    RefreshWhenShown(QWidget* panel, std::function<void()> refresh);
    void request();
    void flush();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    QWidget* panel_;
    std::function<void()> refresh_;
    bool pending_ = false;  // a refresh is owed (posted, or waiting to be shown)
    bool posted_ = false;   // a call to flush() is queued
};

}  // namespace irscope::widgets
