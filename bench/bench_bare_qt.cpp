// The floor the window's first frame is measured against (bench/run_first_frame.sh):
// Qt's own start-up, a bare QMainWindow whose QGraphicsView draws 27 boxes
// joined top to bottom, timed as irscope times its first frame
// (IRSCOPE_TIMING=1: seconds from process start to the view's first paint).
// Links Qt alone: nothing of irscope loads.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>

#include <unistd.h>

#include <QApplication>
#include <QEvent>
#include <QGraphicsRectItem>
#include <QGraphicsScene>
#include <QGraphicsView>
#include <QMainWindow>
#include <QTimer>

namespace {

double processAgeSeconds() {
    // A launcher that says when it started this process (IRSCOPE_LAUNCHED_AT,
    // seconds since the epoch: bench/run_first_frame.sh) gives a finer start
    // than /proc's, which counts in 10 ms ticks.
    if (const char* at = std::getenv("IRSCOPE_LAUNCHED_AT")) {
        timespec now{};
        clock_gettime(CLOCK_REALTIME, &now);
        return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9 - std::strtod(at, nullptr);
    }
    double uptime = 0;
    unsigned long long start = 0;
    if (FILE* f = std::fopen("/proc/uptime", "r")) {
        if (std::fscanf(f, "%lf", &uptime) != 1) uptime = 0;
        std::fclose(f);
    }
    if (FILE* f = std::fopen("/proc/self/stat", "r")) {
        // Field 22 is the start time in clock ticks; the command name (field 2) may hold spaces.
        char buf[4096];
        const size_t n = std::fread(buf, 1, sizeof buf - 1, f);
        std::fclose(f);
        buf[n] = 0;
        if (const char* p = std::strrchr(buf, ')')) {
            int field = 2;
            for (const char* c = p + 1; *c && field < 22; ++c)
                if (*c == ' ' && ++field == 22) start = std::strtoull(c + 1, nullptr, 10);
        }
    }
    return uptime - static_cast<double>(start) / static_cast<double>(sysconf(_SC_CLK_TCK));
}

class FirstPaint : public QObject {
public:
    bool eventFilter(QObject* watched, QEvent* event) override {
        if (!done_ && event->type() == QEvent::Paint) {
            done_ = true;
            QTimer::singleShot(0, [] {
                std::fprintf(stderr, "bare Qt: first frame after %.3f s\n", processAgeSeconds());
                QApplication::exit(0);
            });
        }
        return QObject::eventFilter(watched, event);
    }

private:
    bool done_ = false;
};

}  // namespace

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QMainWindow window;
    auto* scene = new QGraphicsScene(&window);
    QGraphicsRectItem* above = nullptr;
    for (int i = 0; i < 27; ++i) {
        auto* box = scene->addRect(0, i * 60.0, 120, 30, QPen(Qt::darkGray), QBrush(QColor(220, 230, 245)));
        scene->addSimpleText(QStringLiteral("op_%1").arg(i))->setPos(10, i * 60.0 + 6);
        if (above) scene->addLine(60, above->rect().bottom(), 60, box->rect().top());
        above = box;
    }
    auto* view = new QGraphicsView(scene);
    window.setCentralWidget(view);
    window.resize(1400, 900);
    FirstPaint first;
    view->viewport()->installEventFilter(&first);
    window.show();
    return app.exec();
}
