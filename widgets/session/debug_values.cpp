#include "widgets/session/debug_values.h"

#include <algorithm>
#include <atomic>
#include <memory>

#include <QFileInfo>

#include "core/exec/values/state_dict_match.h"
#include "widgets/common/qt_text.h"
#include "widgets/session/debug_controller.h"
#include "widgets/session/task_queue.h"

namespace irscope::widgets {

using Continuation = DebugController::Continuation;

DebugValues::DebugValues(DebugController& controller) : QObject(&controller), c_(controller) {}

bool DebugValues::castWeights() const { return c_.debugger() && c_.debugger()->values().castWeights(); }

void DebugValues::documentChanged() {
    const bool wasLoading = !queuedLoads_.empty();
    queuedLoads_.clear();
    if (wasLoading) emit valuesLoadChanged();
    weightRows_ = std::make_shared<const std::vector<exec::WeightRow>>();
    inputRows_.clear();
    missing_.clear();
}

void DebugValues::takeRows(std::shared_ptr<const std::vector<exec::WeightRow>> weights,
                           std::vector<exec::InputRow> inputs, std::vector<exec::MissingRow> missing) {
    weightRows_ = std::move(weights);
    inputRows_ = std::move(inputs);
    missing_ = std::move(missing);
}

// The core's getters lock what they read: safe while the run lane works.
QString DebugValues::path(exec::ValueFile file) const {
    return c_.debugger() ? q(c_.debugger()->values().path(file)) : QString();
}

QStringList DebugValues::enteredConstants() const {
    QStringList names;
    if (c_.debugger())
        for (const auto& n : c_.debugger()->values().enteredConstants()) names << q(n);
    return names;
}

int64_t DebugValues::seed() const { return c_.debugger() ? c_.debugger()->values().randomSeed() : 0; }

void DebugValues::loadRenamedReference(const QString& path, std::vector<std::pair<std::string, std::string>> renames) {
    loadWith([p = path.toStdString(), renames = std::move(renames)](exec::Debugger& d) {
        d.values().loadRenamedReference(p, renames);
    });
}

// A file read on the run lane; its error (naming the file) goes to errorOccurred.
void DebugValues::loadWith(std::function<void(exec::Debugger&)> read) {
    c_.post({}, [this, read = std::move(read)](exec::Debugger& d) -> Continuation {
        QString error;
        try {
            read(d);
        } catch (const std::exception& e) {
            error = QString::fromStdString(e.what());
        }
        auto s = std::make_shared<DebugController::Snapshot>(c_.snapshot(d, true));
        return [this, s, error] {
            if (error.isEmpty()) c_.clearFailure();
            c_.apply(std::move(*s));
            if (!error.isEmpty()) c_.reportError(error);
        };
    });
}

void DebugValues::setCastWeights(bool on) {
    c_.post({}, [this, on](exec::Debugger& d) -> Continuation {
        const auto cast = static_cast<qint64>(d.values().setCastWeights(on));
        auto s = std::make_shared<DebugController::Snapshot>(c_.snapshot(d, true));
        return [this, s, on, cast] {
            c_.apply(std::move(*s));
            emit castWeightsChanged(on, cast);
        };
    });
}

void DebugValues::enterConstant(const QString& name, const QString& text, const QString& dtype) {
    c_.post({}, [this, name, text, dtype](exec::Debugger& d) -> Continuation {
        std::string warning;
        try {
            warning = d.values().enterConstant(name.toStdString(), text.toStdString(), dtype.toStdString());
        } catch (const std::exception& e) {
            const QString msg = name + QStringLiteral(": ") + QString::fromStdString(e.what());
            return [this, msg] { emit constantEntered(false, msg); };
        }
        auto s = std::make_shared<DebugController::Snapshot>(c_.snapshot(d, true));
        const QString w = QString::fromStdString(warning);
        return [this, s, name, text, dtype, w] {
            c_.clearFailure();
            c_.apply(std::move(*s));
            emit constantEntered(true,
                                 w.isEmpty() ? tr("%1 = %2 (%3)").arg(name, text, dtype) : tr("Warning: %1").arg(w));
        };
    });
}

void DebugValues::clearConstant(const QString& name) {
    c_.postChange([n = name.toStdString()](exec::Debugger& d) { d.values().clearEnteredConstant(n); });
}

void DebugValues::saveConstants(const QString& path, std::function<void(const QString&)> done) {
    const QStringList typed = enteredConstants();
    c_.writeFile([p = path.toStdString()](const exec::Debugger& d) { d.values().saveConstants(p); },
                 [this, typed, done = std::move(done)](const QString& error) {
                     if (error.isEmpty()) savedConstants_ = typed;
                     if (done) done(error);
                 });
}

void DebugValues::setInputSource(const QString& input, exec::InputSource source) {
    c_.postChange([in = input.toStdString(), source](exec::Debugger& d) { d.values().setInputSource(in, source); });
}

void DebugValues::setAllInputSources(exec::InputSource source) {
    c_.postChange([source](exec::Debugger& d) { d.values().setAllInputSources(source); });
}

void DebugValues::setSeed(qint64 seed) {
    c_.postChange([seed](exec::Debugger& d) { d.values().setRandomSeed(seed); }, QStringLiteral("seed"));
}

void DebugValues::load(exec::ValueFile file, const QString& path) {
    if (!c_.debugger()) return;
    const QString tag = QStringLiteral("values-load-%1").arg(++loadSerial_);
    auto cancelled = std::make_shared<std::atomic<bool>>(false);
    queuedLoads_.push_back({tag, cancelled, {file, path, 0}});
    emit valuesLoadChanged();
    // Its own tag, so that no later load replaces it; Cancel sets `cancelled`
    // rather than dropping the job, so that its answer (nothing changed, or
    // the values it had already bound) still reaches the UI.
    c_.postWithProgress(tag, [this, file, tag, cancelled, p = path.toStdString()](exec::Debugger& debugger,
                                                                                  const TaskQueue::Context& ctx) {
        exec::Debugger* d = &debugger;
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
            d->values().load(file, p, progress);
        } catch (const io::ReadCancelled&) {
            return Continuation([this, tag] { finishValuesLoad(tag); });  // nothing changed
        } catch (const std::exception& e) {
            error = QString::fromStdString(e.what());
        }
        auto s = std::make_shared<DebugController::Snapshot>(c_.snapshot(*d, true));
        return Continuation([this, s, error, tag, file] {
            if (error.isEmpty()) c_.clearFailure();
            c_.apply(std::move(*s));
            finishValuesLoad(tag);
            if (!error.isEmpty()) {
                c_.reportError(error);
                emit valuesLoadFailed(file);
                return;
            }
            emit valuesLoaded(file);
            if (file != exec::ValueFile::Weights) return;
            const QString name = QFileInfo(this->path(exec::ValueFile::Weights)).fileName();
            if (auto note = exec::differentModelNote(exec::stateDictMatch(*weightRows_), name.toStdString()))
                c_.reportError(q(*note));
        });
    });
}

void DebugValues::finishValuesLoad(const QString& tag) {
    std::erase_if(queuedLoads_, [&tag](const QueuedLoad& q) { return q.tag == tag; });
    emit valuesLoadChanged();
}

void DebugValues::cancelValuesLoad() {
    if (queuedLoads_.empty()) return;
    // Each stops at its next progress report (within 512 tensors), or before
    // it starts; one already binding what it read finishes and says so.
    for (const auto& q : queuedLoads_) *q.cancelled = true;
    queuedLoads_.clear();
    emit valuesLoadChanged();
}

}  // namespace irscope::widgets
