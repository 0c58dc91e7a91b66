#pragma once
// A panel tabbed behind another cannot be seen, so rebuilding it when the
// values change costs the UI thread for nothing: with 70,000 weights
// arriving at once, the Constants, Inputs and Differences docks behind the
// Weights and Tensor tabs each re-sorted their rows in the same event-loop
// turn, and together pushed that turn past 100 ms. A panel asks through this
// instead: done now when the panel can be seen (or its window is not shown
// at all: a headless test, a window still being built), otherwise once, when
// the panel is next shown. `flush` brings a pending refresh forward for
// whoever reads the panel's content directly.
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
    bool pending_ = false;
};

}  // namespace irscope::widgets
