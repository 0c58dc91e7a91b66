// DebugController's value files: a state_dict, constants, inputs or a
// reference read on the run lane behind a progress bar with Cancel, like the
// IR itself. With ~70,000 weights the read takes seconds; until it ends the
// panels say "Loading weights… N%" (isLoadingValues) rather than count every
// weight as missing. Cancel stops the read: the values stay as they were.
#include "widgets/session/debug_controller.h"

#include <algorithm>
#include <atomic>
#include <memory>

#include <QFileInfo>

#include "core/exec/values/state_dict_match.h"
#include "widgets/common/qt_text.h"
#include "widgets/session/task_queue.h"

namespace irscope::widgets {

void DebugController::load(exec::ValueFile file, const QString& path) {
    if (!dbg_) return;
    const QString tag = QStringLiteral("values-load-%1").arg(++loadSerial_);
    auto cancelled = std::make_shared<std::atomic<bool>>(false);
    queuedLoads_.push_back({tag, cancelled, {file, path, 0}});
    emit valuesLoadChanged();
    std::shared_ptr<exec::Debugger> d = dbg_;  // see post(): the job holds the debugger
    // Its own tag, so that no later load replaces it; Cancel sets `cancelled`
    // rather than dropping the job, so that its answer (nothing changed, or
    // the values it had already bound) still reaches the UI.
    runLane_->post(tag, this, [this, d, file, tag, cancelled, p = path.toStdString()](const TaskQueue::Context& ctx) {
        int shown = 0;
        auto progress = [this, &ctx, &shown, &cancelled, tag](double fraction) {
            if (*cancelled || ctx.isDropped()) return false;
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
            if (*cancelled) throw io::ReadCancelled();  // cancelled while it waited its turn
            d->load(file, p, progress);
        } catch (const io::ReadCancelled&) {
            return Continuation([this, tag] { finishValuesLoad(tag); });  // nothing changed
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
                emit valuesLoadFailed(file);
                return;
            }
            emit valuesLoaded(file);
            if (file != exec::ValueFile::Weights) return;
            const QString name = QFileInfo(this->path(exec::ValueFile::Weights)).fileName();
            if (auto note = exec::differentModelNote(exec::stateDictMatch(*weightRows_), name.toStdString()))
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
    // Each stops at its next progress report (within 512 tensors), or before
    // it starts; one already binding what it read finishes and says so.
    for (const auto& q : queuedLoads_) *q.cancelled = true;
    queuedLoads_.clear();
    emit valuesLoadChanged();
}

}  // namespace irscope::widgets
