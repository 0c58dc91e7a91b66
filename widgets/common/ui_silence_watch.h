#pragma once
// UiSilenceWatch: the UI thread's longest silence, as a window manager would
// see it: a 5 ms timer on the UI thread and the longest gap between two of
// its ticks, from start() to stop(). The window reports it while the engine
// loads behind the first frame (IRSCOPE_TIMING); bench_ui_silence per phase.
#include <algorithm>

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

namespace irscope::widgets {

class UiSilenceWatch : public QObject {
public:
    explicit UiSilenceWatch(QObject* parent = nullptr) : QObject(parent) {
        timer_.setInterval(5);
        connect(&timer_, &QTimer::timeout, this, [this] { worst_ = std::max(worst_, since_.restart()); });
    }
    void start() {
        worst_ = 0;
        since_.start();
        timer_.start();
    }
    bool isActive() const { return timer_.isActive(); }
    // Milliseconds: the longest gap, counting the one still open.
    qint64 stop() {
        timer_.stop();
        return std::max(worst_, since_.elapsed());
    }

private:
    QTimer timer_;
    QElapsedTimer since_;
    qint64 worst_ = 0;
};

}  // namespace irscope::widgets
