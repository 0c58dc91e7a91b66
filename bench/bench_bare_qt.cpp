// The floor the window's first frame is measured against (bench/run_first_frame.sh):
// Qt's own start-up, a bare QMainWindow whose QGraphicsView draws 27 boxes
// joined top to bottom, timed as irscope times its first frame
// (IRSCOPE_TIMING=1: seconds from process start to the view's first paint).
// Links Qt alone: nothing of irscope loads.
#include <cstdio>

#include <QApplication>
#include <QEvent>
#include <QGraphicsRectItem>
#include <QGraphicsScene>
#include <QGraphicsView>
#include <QMainWindow>
#include <QTimer>

#include "widgets/common/process_age.h"

namespace {

class FirstPaint : public QObject {
public:
    bool eventFilter(QObject* watched, QEvent* event) override {
        if (!done_ && event->type() == QEvent::Paint) {
            done_ = true;
            QTimer::singleShot(0, [] {
                std::fprintf(stderr, "bare Qt: first frame after %.3f s\n", irscope::widgets::processAgeSeconds());
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
