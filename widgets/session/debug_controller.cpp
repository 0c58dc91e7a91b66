#include <algorithm>
#include "widgets/common/qt_text.h"
#include "widgets/session/debug_controller.h"

#include <limits>

#include <cmath>

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QPointer>
#include <QThread>
#include <QThreadPool>
#include <QTimer>

#include "widgets/session/graph_session.h"
#include "widgets/session/loaded_document.h"

namespace irscope::widgets {

namespace {

// t in [0, 1] -> light yellow .. orange .. red.
QColor mixStops(double t) {
    t = std::clamp(t, 0.0, 1.0);
    const QColor c0("#fff5c0"), c1("#ffa040"), c2("#e0302a");
    auto mix = [](const QColor& a, const QColor& b, double u) {
        return QColor::fromRgbF(a.redF() + (b.redF() - a.redF()) * u, a.greenF() + (b.greenF() - a.greenF()) * u,
                                a.blueF() + (b.blueF() - a.blueF()) * u);
    };
    return t < 0.5 ? mix(c0, c1, t * 2) : mix(c1, c2, (t - 0.5) * 2);
}

// Overlay value -> colour (white .. orange .. red); NaN: none.
QColor overlayColor(exec::OverlayKind kind, double v, double lo, double hi) {
    if (std::isnan(v)) return {};
    if (kind == exec::OverlayKind::NanInf) return v > 0 ? QColor("#ff6b6b") : QColor("#c9f2c9");
    double t = 0;
    if (kind == exec::OverlayKind::Difference && v == 0) return QColor("#c9f2c9");
    if (kind == exec::OverlayKind::Difference || kind == exec::OverlayKind::MaxAbs) {
        // Log scale over [lo, hi] (lo: the smallest positive value; 0 is the
        // lightest): values spread over orders of magnitude stay apart.
        if (v <= 0) return mixStops(0);
        if (std::isinf(v)) return mixStops(1);
        const double a = std::log10(std::max(v, 1e-30)), b0 = std::log10(std::max(lo, 1e-30)), b1 = std::log10(std::max(hi, 1e-30));
        t = b1 > b0 ? (a - b0) / (b1 - b0) : 1;
    } else {
        t = hi > lo ? (v - lo) / (hi - lo) : 0;
    }
    return mixStops(t);
}

QString badgeText(exec::OverlayKind kind, double v) {
    if (std::isnan(v)) return {};
    switch (kind) {
    case exec::OverlayKind::Time: return v < 1e-3 ? QString::number(v * 1e6, 'f', 0) + QStringLiteral(" µs")
                                                  : QString::number(v * 1e3, 'f', 2) + QStringLiteral(" ms");
    case exec::OverlayKind::MaxAbs: return QString::number(v, 'g', 3);
    // Only nodes that differ get a badge (green fill says "matches"): "0" on
    // every node of a busy graph is clutter.
    case exec::OverlayKind::Difference: return v != 0 ? QString::number(v, 'g', 3) : QString();
    case exec::OverlayKind::NanInf: return v > 0 ? QStringLiteral("NaN/Inf") : QString();
    default: return {};
    }
}

}  // namespace

DebugController::DebugController(GraphSession* session, QObject* parent)
    : QObject(parent), session_(session), pool_(new QThreadPool(this)), queryPool_(new QThreadPool(this)),
      tick_(new QTimer(this)) {
    pool_->setMaxThreadCount(1);
    pool_->setExpiryTimeout(-1);
    queryPool_->setMaxThreadCount(1);
    queryPool_->setExpiryTimeout(-1);
    tick_->setInterval(100);
    connect(tick_, &QTimer::timeout, this, &DebugController::onTick);
    connect(session_, &GraphSession::graphLoaded, this, &DebugController::onGraphLoaded);
    connect(session_, &GraphSession::selectionChanged, this, [this](const ItemRef& ref) {
        const QString t = tensorOf(ref);
        if (!t.isEmpty()) showTensor(t);
    });
    if (session_->hasDocument()) onGraphLoaded();
}

DebugController::~DebugController() {
    if (dbg_) dbg_->cancel();
    pool_->waitForDone();
    queryPool_->waitForDone();
}

int64_t DebugController::producerOf(const QString& tensor) const {
    const LoadedDocument* doc = session_->document();
    if (!doc || !doc->index || tensor.isEmpty()) return -1;
    auto p = doc->index->producerOfTensor(tensor.toStdString());
    return p ? p->first : -1;
}

int64_t DebugController::nodeCount() const { return dbg_ ? dbg_->nodeCount() : 0; }

QStringList DebugController::enteredConstants() const {
    QStringList l;
    for (const auto& [n, t, d] : entered_) l << n;
    return l;
}

QString DebugController::tensorOf(const ItemRef& ref) const {
    const LoadedDocument* doc = session_->document();
    if (!doc) return {};
    const auto& g = doc->graph;
    switch (ref.kind) {
    case RefKind::Node:
        if (ref.index >= 0 && ref.index < (int64_t)g.nodes.size() && !g.nodes[ref.index].outputs.empty())
            return q(g.nodes[ref.index].outputs[0].name);
        break;
    case RefKind::GraphInput:
        if (ref.index >= 0 && ref.index < (int64_t)g.graphInputs.size()) return q(g.graphInputs[ref.index].name);
        break;
    case RefKind::Output:
        if (ref.index >= 0 && ref.index < (int64_t)g.graphOutputs.size()) return q(g.graphOutputs[ref.index].name);
        break;
    case RefKind::Weight: return ref.name;
    default: break;
    }
    return {};
}

bool DebugController::waitIdle(int timeoutMs) {
    QDeadlineTimer deadline(timeoutMs);
    while (pendingJobs_ > 0 || running_ || pendingQueries_ > 0) {
        if (deadline.hasExpired()) return false;
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
        QThread::msleep(2);
    }
    QCoreApplication::processEvents();
    return true;
}

// ------------------------------------------------------------------ worker plumbing

void DebugController::post(const QString& key, std::function<Continuation(exec::Debugger&)> job) {
    if (!dbg_) return;
    const int gen = generation_;
    exec::Debugger* d = dbg_.get();
    if (!key.isEmpty()) {
        std::lock_guard lock(queueMutex_);
        const bool queued = latest_.count(key) != 0;
        latest_[key] = std::move(job);
        if (queued) return;   // the queued runnable will pick up the newest job
    }
    if (pendingJobs_++ == 0) emit busyChanged(true);
    auto shared = std::make_shared<std::function<Continuation(exec::Debugger&)>>(std::move(job));
    pool_->start([this, d, gen, key, shared] {
        std::function<Continuation(exec::Debugger&)> fn;
        if (!key.isEmpty()) {
            std::lock_guard lock(queueMutex_);
            auto it = latest_.find(key);
            if (it != latest_.end()) {
                fn = std::move(it->second);
                latest_.erase(it);
            }
        } else {
            fn = std::move(*shared);
        }
        Continuation cont;
        QString error;
        try {
            if (fn) cont = fn(*d);
        } catch (const std::exception& e) {
            error = QString::fromStdString(e.what());
        }
        QMetaObject::invokeMethod(this, [this, gen, cont, error] {
            if (--pendingJobs_ == 0) emit busyChanged(false);
            if (gen != generation_) return;
            if (!error.isEmpty()) emit errorOccurred(error);
            if (cont) cont();
        }, Qt::QueuedConnection);
    });
}

bool DebugController::query(const QString& key, QObject* owner, QueryJob job) {
    if (!dbg_ || !job) return false;
    struct Request {
        quint64 ticket = 0;
        QPointer<QObject> owner;
        QueryJob job;
    };
    const quint64 ticket = ++nextTicket_;
    const int gen = generation_;
    const exec::Debugger* d = dbg_.get();
    if (!key.isEmpty()) {
        latestQuery_[key] = ticket;
        std::lock_guard lock(queryMutex_);
        auto it = queuedQueries_.find(key);
        if (it != queuedQueries_.end()) {   // the queued runnable will take this one instead
            it->second = {ticket, std::make_pair(QPointer<QObject>(owner), std::move(job))};
            return true;
        }
        queuedQueries_[key] = {ticket, std::make_pair(QPointer<QObject>(owner), std::move(job))};
    }
    ++pendingQueries_;
    auto mine = std::make_shared<Request>(Request{ticket, QPointer<QObject>(owner), key.isEmpty() ? std::move(job) : QueryJob{}});
    queryPool_->start([this, d, gen, key, mine] {
        Request r;
        if (!key.isEmpty()) {
            std::lock_guard lock(queryMutex_);
            auto it = queuedQueries_.find(key);
            if (it != queuedQueries_.end()) {
                r.ticket = it->second.first;
                r.owner = std::move(it->second.second.first);
                r.job = std::move(it->second.second.second);
                queuedQueries_.erase(it);
            }
        } else {
            r = std::move(*mine);
        }
        Continuation cont;
        QString error;
        try {
            if (r.job) cont = r.job(*d);
        } catch (const std::exception& e) {
            error = QString::fromStdString(e.what());
        }
        QMetaObject::invokeMethod(this, [this, gen, key, ticket = r.ticket, owner = r.owner, cont, error] {
            --pendingQueries_;
            if (gen != generation_) return;
            if (!key.isEmpty()) {
                auto it = latestQuery_.find(key);
                if (it == latestQuery_.end() || it.value() != ticket) return;   // superseded: a newer one answers
                latestQuery_.erase(it);
            }
            if (!error.isEmpty()) emit errorOccurred(error);
            if (cont && owner) cont();
        }, Qt::QueuedConnection);
    });
    return true;
}

DebugController::Snapshot DebugController::snapshot(exec::Debugger& d, bool rows) const {
    Snapshot s;
    s.rows = rows;
    if (rows) {
        s.weightRows = d.weightRows();
        s.inputRows = d.inputRows();
        s.missing = d.missing();
    }
    s.nodeInfos = d.nodeInfos();
    s.cursor = d.cursor();
    s.bytes = d.bytesHeld();
    return s;
}

void DebugController::apply(Snapshot s) {
    if (s.rows) {
        weightRows_ = std::move(s.weightRows);
        inputRows_ = std::move(s.inputRows);
        missing_ = std::move(s.missing);
    }
    nodeInfos_ = std::move(s.nodeInfos);
    cursor_ = s.cursor;
    if (bytesHeld_ != s.bytes) {
        bytesHeld_ = s.bytes;
        emit bytesHeldChanged(static_cast<qint64>(bytesHeld_));
    }
    updateDecorations();
    if (s.rows) emit valuesChanged();
    emit nodeStatesChanged();
    if (overlayKind_ != exec::OverlayKind::None) setOverlay(overlayKind_);
}

// A closed module shows its ops' overlay aggregated: time summed, max |x| and
// difference maxed, NaN/Inf if any op has one. Summed times get their own
// scale (over the modules); the maxima share the ops' scale.
std::vector<std::pair<QColor, QString>> DebugController::moduleOverlays(double lo, double hi) const {
    const auto* tree = session_->moduleTree();
    if (!tree || overlayValues_.size() != tree->nodeModules().size()) return {};
    std::vector<double> agg(tree->size(), std::numeric_limits<double>::quiet_NaN());
    const bool sum = overlayKind_ == exec::OverlayKind::Time;
    for (size_t n = 0; n < overlayValues_.size(); ++n) {
        const double v = overlayValues_[n];
        if (std::isnan(v)) continue;
        for (auto m = tree->moduleOfNode(static_cast<int64_t>(n)); m != modules::kNoModule; m = tree->module(m).parent) {
            double& a = agg[static_cast<size_t>(m)];
            a = std::isnan(a) ? v : sum ? a + v : std::max(a, v);
        }
    }
    if (sum) {
        lo = INFINITY;
        hi = -INFINITY;
        for (size_t m = 1; m < agg.size(); ++m)
            if (!std::isnan(agg[m])) lo = std::min(lo, agg[m]), hi = std::max(hi, agg[m]);
    }
    std::vector<std::pair<QColor, QString>> out(agg.size());
    for (size_t m = 0; m < agg.size(); ++m)
        out[m] = {overlayColor(overlayKind_, agg[m], lo, hi), badgeText(overlayKind_, agg[m])};
    return out;
}

void DebugController::updateDecorations() {
    const LoadedDocument* doc = session_->document();
    if (!doc || !dbg_) return;
    const size_t n = doc->graph.nodes.size();
    std::vector<NodeDecoration> decs(n);
    double lo = INFINITY, hi = -INFINITY;
    const bool haveOverlay = overlayKind_ != exec::OverlayKind::None && overlayValues_.size() == n;
    // Log-scaled kinds: lo is the smallest positive value.
    const bool logScale = overlayKind_ == exec::OverlayKind::Difference || overlayKind_ == exec::OverlayKind::MaxAbs;
    if (haveOverlay)
        for (double v : overlayValues_)
            if (!std::isnan(v) && std::isfinite(v) && (!logScale || v > 0)) {
                lo = std::min(lo, v);
                hi = std::max(hi, v);
            }
    if (overlayKind_ == exec::OverlayKind::Difference) lo = std::max(1e-8, lo);
    const bool started = cursor_ > 0 || lastFailed_;
    for (size_t i = 0; i < n && i < nodeInfos_.size(); ++i) {
        const auto& info = nodeInfos_[i];
        auto& d = decs[i];
        switch (info.state) {
        case exec::NodeState::Done: d.state = NodeState::Done; break;
        case exec::NodeState::Failed: d.state = NodeState::Failed; break;
        default: d.state = info.current ? NodeState::Current : (started ? NodeState::Pending : NodeState::None); break;
        }
        d.breakpoint = info.breakpoint;
        d.missingValue = info.needsMissing;
        if (d.state == NodeState::Done) d.seconds = info.seconds;
        if (haveOverlay) {
            d.overlay = overlayColor(overlayKind_, overlayValues_[i], lo, hi);
            d.badge = badgeText(overlayKind_, overlayValues_[i]);
        }
    }
    // Placeholders without a value get the red mark too.
    QHash<QString, NodeDecoration> weightDecs;
    for (const auto& m : missing_) {
        if (m.value.kind == "input" || m.awaitsStateDict) continue;
        NodeDecoration d;
        d.missingValue = true;
        weightDecs.insert(q(m.value.name), d);
    }
    // Constants the IR lacks but the debugger now has: validation's findings about them are settled.
    QSet<QString> stillMissing, supplied;
    for (const auto& m : missing_) stillMissing.insert(q(m.value.name));
    for (const auto& [placeholder, original] : doc->graph.weightNameMapping) {
        // Validation complains only about lifted constants the IR has no value for.
        if (doc->index->kindOf(placeholder) != ir::TensorKind::Constant || doc->index->constant(original)) continue;
        if (!stillMissing.contains(q(placeholder))) supplied.insert(q(placeholder));
    }
    session_->setSuppliedPlaceholders(std::move(supplied));
    session_->setWeightDecorations(std::move(weightDecs));
    session_->setModuleOverlays(haveOverlay ? moduleOverlays(lo, hi) : std::vector<std::pair<QColor, QString>>{});
    session_->setNodeDecorations(std::move(decs));
    const int64_t cur = cursor_ < (int64_t)n ? cursor_ : -1;
    if (session_->currentNode() != cur) session_->setCurrentNode(cur);
}

void DebugController::onGraphLoaded() {
    if (dbg_) {
        dbg_->cancel();
        pool_->waitForDone();
        queryPool_->waitForDone();
    }
    ++generation_;
    {
        std::lock_guard lock(queueMutex_);
        latest_.clear();
    }
    {
        std::lock_guard lock(queryMutex_);
        queuedQueries_.clear();
    }
    latestQuery_.clear();
    running_ = false;
    tick_->stop();
    dbg_.reset();
    doc_ = session_->documentPtr();
    weightRows_.clear();
    inputRows_.clear();
    missing_.clear();
    nodeInfos_.clear();
    overlayValues_.clear();
    divergence_ = {};
    cursor_ = 0;
    lastStatus_.clear();
    lastFailed_ = false;
    focusTensor_.clear();
    if (!doc_) return;
    dbg_ = std::make_unique<exec::Debugger>(doc_->graph, retention_);
    emit debuggerReset();
    // Re-apply what the user had loaded (a reload of the same IR keeps its session).
    const auto paths = paths_;
    const auto entered = entered_;
    const auto sources = inputSources_;
    const int64_t seed = seed_;
    post({}, [seed](exec::Debugger& d) -> Continuation {
        if (seed) d.setRandomSeed(seed);
        return {};
    });
    for (const char* k : {"weights", "constants", "inputs", "expected", "intermediates"})
        if (paths.contains(QLatin1String(k))) postLoad(QLatin1String(k), paths.value(QLatin1String(k)));
    entered_.clear();
    for (const auto& [n, t, dt] : entered) enterConstant(n, t, dt);
    for (auto it = sources.begin(); it != sources.end(); ++it) setInputSource(it.key(), it.value());
    post({}, [this](exec::Debugger& d) -> Continuation {
        auto s = std::make_shared<Snapshot>(snapshot(d, true));
        return [this, s] { apply(std::move(*s)); };
    });
}

// ------------------------------------------------------------------ values

void DebugController::postLoad(const QString& kind, const QString& path) {
    paths_.insert(kind, path);
    post({}, [this, kind, path](exec::Debugger& d) -> Continuation {
        const std::string p = path.toStdString();
        try {
            if (kind == QLatin1String("weights")) d.loadWeights(p);
            else if (kind == QLatin1String("constants")) d.loadConstants(p);
            else if (kind == QLatin1String("inputs")) d.loadInputs(p);
            else if (kind == QLatin1String("expected")) d.loadExpected(p);
            else d.loadReferenceIntermediates(p);
        } catch (const std::exception& e) {
            const QString msg = QString::fromStdString(e.what());
            auto s = std::make_shared<Snapshot>(snapshot(d, true));
            return [this, kind, msg, s] {
                paths_.remove(kind);
                apply(std::move(*s));
                emit errorOccurred(msg);
            };
        }
        auto s = std::make_shared<Snapshot>(snapshot(d, true));
        return [this, s, kind] {
            if (kind == QLatin1String("inputs")) {
                inputSources_.clear();
            }
            lastFailed_ = false;
            apply(std::move(*s));
        };
    });
}

void DebugController::loadWeights(const QString& p) { postLoad(QStringLiteral("weights"), p); }
void DebugController::loadConstants(const QString& p) { postLoad(QStringLiteral("constants"), p); }
void DebugController::loadInputs(const QString& p) { postLoad(QStringLiteral("inputs"), p); }
void DebugController::loadExpected(const QString& p) { postLoad(QStringLiteral("expected"), p); }
void DebugController::loadReferenceIntermediates(const QString& p) { postLoad(QStringLiteral("intermediates"), p); }

void DebugController::enterConstant(const QString& name, const QString& text, const QString& dtype) {
    post({}, [this, name, text, dtype](exec::Debugger& d) -> Continuation {
        std::string warning;
        try {
            warning = d.enterConstant(name.toStdString(), text.toStdString(), dtype.toStdString());
        } catch (const std::exception& e) {
            const QString msg = name + QStringLiteral(": ") + QString::fromStdString(e.what());
            return [this, msg] { emit constantEntered(false, msg); };
        }
        auto s = std::make_shared<Snapshot>(snapshot(d, true));
        const QString w = QString::fromStdString(warning);
        return [this, s, name, text, dtype, w] {
            std::erase_if(entered_, [&](const auto& e) { return std::get<0>(e) == name; });
            entered_.emplace_back(name, text, dtype);
            lastFailed_ = false;
            apply(std::move(*s));
            emit constantEntered(true, w.isEmpty() ? tr("%1 = %2 (%3)").arg(name, text, dtype) : tr("Warning: %1").arg(w));
        };
    });
}

void DebugController::clearConstant(const QString& name) {
    std::erase_if(entered_, [&](const auto& e) { return std::get<0>(e) == name; });
    post({}, [this, name](exec::Debugger& d) -> Continuation {
        d.clearEnteredConstant(name.toStdString());
        auto s = std::make_shared<Snapshot>(snapshot(d, true));
        return [this, s] { apply(std::move(*s)); };
    });
}

QString DebugController::saveConstants(const QString& path) {
    if (!dbg_) return tr("no graph loaded");
    waitIdle();
    try {
        dbg_->saveConstants(path.toStdString());
    } catch (const std::exception& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

QString DebugController::exportTensor(const QString& tensor, const QString& path, exec::ValueSide side) {
    if (!dbg_) return tr("no graph loaded");
    try {
        dbg_->exportTensor(tensor.toStdString(), path.toStdString(), side);
    } catch (const std::exception& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

void DebugController::setInputSource(const QString& input, exec::InputSource source) {
    inputSources_.insert(input, source);
    post({}, [this, input, source](exec::Debugger& d) -> Continuation {
        d.setInputSource(input.toStdString(), source);
        auto s = std::make_shared<Snapshot>(snapshot(d, true));
        return [this, s] { apply(std::move(*s)); };
    });
}

void DebugController::setAllInputSources(exec::InputSource source) {
    if (const LoadedDocument* doc = session_->document())
        for (const auto& in : doc->graph.graphInputs) inputSources_.insert(q(in.name), source);
    post({}, [this, source](exec::Debugger& d) -> Continuation {
        d.setAllInputSources(source);
        auto s = std::make_shared<Snapshot>(snapshot(d, true));
        return [this, s] { apply(std::move(*s)); };
    });
}

void DebugController::setSeed(qint64 seed) {
    seed_ = seed;
    post(QStringLiteral("seed"), [this, seed](exec::Debugger& d) -> Continuation {
        d.setRandomSeed(seed);
        auto s = std::make_shared<Snapshot>(snapshot(d, true));
        return [this, s] { apply(std::move(*s)); };
    });
}

void DebugController::setRetention(exec::RetentionPolicy policy) {
    retention_ = policy;
    post({}, [this, policy](exec::Debugger& d) -> Continuation {
        d.setRetention(policy);
        return {};
    });
}

void DebugController::setTolerance(double rtol, double atol) {
    post({}, [rtol, atol](exec::Debugger& d) -> Continuation {
        d.setTolerance({rtol, atol});
        return {};
    });
}

// ------------------------------------------------------------------ running

void DebugController::postRun(std::function<exec::RunStatus(exec::Debugger&)> run) {
    if (!dbg_ || running_) return;
    running_ = true;
    elapsed_.start();
    tick_->start();
    emit runStateChanged(true);
    emit progress(dbg_->nodesDone(), dbg_->nodeCount(), 0);
    post({}, [this, run](exec::Debugger& d) -> Continuation {
        exec::RunStatus st = run(d);
        auto s = std::make_shared<Snapshot>(snapshot(d, false));
        return [this, s, st] {
            running_ = false;
            tick_->stop();
            lastFailed_ = st.failed;
            lastStatus_ = QString::fromStdString(st.message);
            apply(std::move(*s));
            emit progress(cursor_, nodeCount(), elapsed_.elapsed() / 1000.0);
            emit runStateChanged(false);
            emit stopped(lastStatus_, st.failed);
        };
    });
}

void DebugController::onTick() {
    if (!dbg_ || !running_) return;
    const int64_t c = dbg_->cursor();
    emit progress(dbg_->nodesDone(), dbg_->nodeCount(), elapsed_.elapsed() / 1000.0);
    // Cheap live states: everything before the cursor ran.
    if (c != cursor_ && c <= (int64_t)nodeInfos_.size()) {
        for (int64_t i = cursor_; i < c; ++i) {
            nodeInfos_[i].state = exec::NodeState::Done;
            nodeInfos_[i].current = false;
        }
        if (c < (int64_t)nodeInfos_.size()) nodeInfos_[c].current = true;
        cursor_ = c;
        updateDecorations();
        emit nodeStatesChanged();
    }
}

void DebugController::step() {
    postRun([](exec::Debugger& d) { return d.step(); });
}
void DebugController::stepOver() {
    const int64_t box = cursor_ < nodeCount() ? session_->closedModuleOf(cursor_) : -1;
    if (box > 0) runToNode(session_->moduleTree()->module(static_cast<modules::ModuleId>(box)).lastNode);
    else step();
}
void DebugController::stepInto() {
    if (cursor_ < nodeCount() && session_->closedModuleOf(cursor_) > 0) {
        session_->select(ItemRef::node(cursor_), true);   // opens the modules around it
        return;
    }
    step();
}
void DebugController::stepOut() {
    if (cursor_ >= nodeCount()) return;
    const int64_t m = session_->enclosingModuleOf(cursor_);
    if (m <= 0) continueRun();
    else runToNode(session_->moduleTree()->module(static_cast<modules::ModuleId>(m)).lastNode);
}
void DebugController::continueRun() {
    postRun([](exec::Debugger& d) { return d.runToEnd(); });
}
void DebugController::runToNode(qint64 node) {
    if (node < 0) return;
    postRun([node](exec::Debugger& d) {
        if (node < d.cursor()) d.reset();   // already ran: start over, as "run to cursor" does
        return d.runTo(node);
    });
}
void DebugController::runToSelected() {
    const ItemRef sel = session_->selection();
    if (sel.isNode()) runToNode(sel.index);
    else if (sel.kind == RefKind::Output && dbg_) continueRun();
}
void DebugController::reset() {
    if (!dbg_) return;
    if (running_) dbg_->cancel();
    post({}, [this](exec::Debugger& d) -> Continuation {
        d.reset();
        auto s = std::make_shared<Snapshot>(snapshot(d, false));
        return [this, s] {
            lastFailed_ = false;
            lastStatus_ = tr("reset: %1 nodes pending").arg(nodeCount());
            apply(std::move(*s));
            emit stopped(lastStatus_, false);
        };
    });
}
void DebugController::stop() {
    if (dbg_ && running_) dbg_->cancel();
}
void DebugController::toggleBreakpoint(qint64 node) {
    if (!dbg_ || node < 0 || node >= dbg_->nodeCount()) return;
    const bool on = !dbg_->hasBreakpoint(node);
    dbg_->setBreakpoint(node, on);   // thread-safe; waits at most for the node being run
    if (node < (int64_t)nodeInfos_.size()) nodeInfos_[node].breakpoint = on;
    updateDecorations();
    emit nodeStatesChanged();
}
void DebugController::toggleBreakpointAtSelection() {
    const ItemRef sel = session_->selection();
    if (sel.isNode()) toggleBreakpoint(sel.index);
}

void DebugController::setOverlay(exec::OverlayKind kind) {
    overlayKind_ = kind;
    if (kind == exec::OverlayKind::None) {
        overlayValues_.clear();
        updateDecorations();
        emit overlayChanged();
        return;
    }
    post(QStringLiteral("overlay"), [this, kind](exec::Debugger& d) -> Continuation {
        auto v = std::make_shared<std::vector<double>>(d.overlay(kind));
        return [this, kind, v] {
            if (kind != overlayKind_) return;
            overlayValues_ = std::move(*v);
            updateDecorations();
            emit overlayChanged();
        };
    });
}

void DebugController::findFirstDivergence() {
    post(QStringLiteral("divergence"), [this](exec::Debugger& d) -> Continuation {
        auto info = std::make_shared<exec::DivergenceInfo>(d.firstDivergence());
        return [this, info] {
            divergence_ = std::move(*info);
            emit divergenceChanged();
        };
    });
}

void DebugController::goToFirstDivergence() {
    post(QStringLiteral("divergence"), [this](exec::Debugger& d) -> Continuation {
        auto info = std::make_shared<exec::DivergenceInfo>(d.firstDivergence());
        return [this, info] {
            divergence_ = std::move(*info);
            emit divergenceChanged();
            if (divergence_.found) {
                session_->select(ItemRef::node(divergence_.node, q(divergence_.nodeName)), true);
                showTensor(q(divergence_.tensor));
            }
        };
    });
}

void DebugController::setPinned(const QString& tensor, bool pinned) {
    if (!dbg_) return;
    const std::string t = tensor.toStdString();
    post({}, [t, pinned](exec::Debugger& d) -> Continuation {
        d.setPinned(t, pinned);
        return {};
    });
}

void DebugController::showTensor(const QString& tensor) {
    focusTensor_ = tensor;
    emit focusTensorChanged(tensor);
}

}  // namespace irscope::widgets
