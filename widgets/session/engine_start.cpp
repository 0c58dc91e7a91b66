#include "widgets/session/engine_start.h"

#include <QCoreApplication>

#include "widgets/session/task_queue.h"

namespace irscope::widgets {

EngineStart& EngineStart::instance() {
    static EngineStart* one = new EngineStart(QCoreApplication::instance());
    return *one;
}

EngineStart::EngineStart(QObject* parent) : QObject(parent), lane_(new TaskQueue(QThread::InheritPriority, this)) {}

void EngineStart::setLoader(Loader load) {
    load_ = std::move(load);
    ready_ = !load_;
}

void EngineStart::start() {
    if (started_ || ready_) return;
    started_ = true;
    lane_->post({}, this, [this, load = load_](const TaskQueue::Context&) -> TaskQueue::Continuation {
        const std::string error = load();
        return [this, error] {
            if (!error.empty()) {
                failure_ = QString::fromStdString(error);
                emit failed(failure_);
                return;
            }
            ready_ = true;
            emit ready();
        };
    });
}

}  // namespace irscope::widgets
