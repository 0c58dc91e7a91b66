// DebugController's value files: a state_dict, constants, inputs or a
// reference read on the run lane behind a progress bar with Cancel, like the
// IR itself. With ~70,000 weights the read takes seconds; until it ends the
// panels say "Loading weights… N%" (isLoadingValues) rather than count every
// weight as missing. Cancel drops the load: the values stay as they were.
#include "widgets/session/debug_controller.h"

#include <algorithm>

#include <QFileInfo>

#include "core/exec/state_dict_match.h"
#include "widgets/common/qt_text.h"
#include "widgets/session/task_queue.h"

namespace irscope::widgets {

void DebugController::load(exec::ValueFile file, const QString& path) {
    if (!dbg_) return;
    // A tag of its own: Cancel drops this load alone, and no later load replaces it.
    const QString tag = QStringLiteral("values-load-%1").arg(++loadSerial_);
    queuedLoads_.push_back({tag, {file, path, 0}});
    emit valuesLoadChanged();
    exec::Debugger* d = dbg_.get();
    runLane_->post(tag, this, [this, d, file, tag, p = path.toStdString()](const TaskQueue::Context& ctx) {
        int shown = 0;
        auto progress = [this, &ctx, &shown, tag](double fraction) {
            if (ctx.isDropped()) return false;
            const int percent = static_cast<int>(fraction * 100);
            if (percent > shown) {
                shown = percent;
                ctx.deliver([this, tag, percent] {
                    for (auto& q : queuedLoads_)
                        if (q.tag == tag) q.load.percent = percent;
                    emit valuesLoadChanged();
                });
            }
            return true;
        };
        QString error;
        try {
            d->load(file, p, progress);
        } catch (const io::ReadCancelled&) {
            return Continuation{};  // dropped: cancelValuesLoad() has updated the UI
        } catch (const std::exception& e) {
            error = QString::fromStdString(e.what());
        }
        auto s = std::make_shared<Snapshot>(snapshot(*d, true));
        return Continuation([this, s, error, tag, file] {
            if (error.isEmpty()) lastFailed_ = false;
            apply(std::move(*s));
            finishValuesLoad(tag);
            if (!error.isEmpty()) {
                emit errorOccurred(error);
                return;
            }
            emit valuesLoaded(file);
            if (file != exec::ValueFile::Weights) return;
            const QString name = QFileInfo(this->path(exec::ValueFile::Weights)).fileName();
            if (auto note = exec::differentModelNote(exec::stateDictMatch(weightRows_), name.toStdString()))
                emit errorOccurred(q(*note));
        });
    });
}

void DebugController::finishValuesLoad(const QString& tag) {
    std::erase_if(queuedLoads_, [&tag](const QueuedLoad& q) { return q.tag == tag; });
    emit valuesLoadChanged();
}

void DebugController::cancelValuesLoad() {
    if (queuedLoads_.empty()) return;
    for (const auto& q : queuedLoads_) runLane_->dropTag(q.tag);
    queuedLoads_.clear();
    emit valuesLoadChanged();
    // A load past its read (applying the values cannot stop) has changed
    // them, and its dropped continuation told nobody: refresh after it.
    postChange([](exec::Debugger&) {});
}

}  // namespace irscope::widgets
