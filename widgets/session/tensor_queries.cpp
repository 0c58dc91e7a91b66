#include "widgets/session/tensor_queries.h"

#include "core/exec/debugger/subgraph_frames.h"
#include "core/ir/execution_position.h"
#include "widgets/common/qt_text.h"
#include "widgets/session/debug_controller.h"
#include "widgets/session/graph_session.h"
#include "widgets/session/loaded_document.h"
#include "widgets/session/task_queue.h"

namespace irscope::widgets {

TensorQueries::TensorQueries(DebugController& controller) : QObject(&controller), c_(controller) {}

int64_t TensorQueries::producerOf(const QString& tensor) const {
    const LoadedDocument* doc = c_.session()->document();
    if (!doc || !doc->index || tensor.isEmpty()) return -1;
    auto p = doc->index->producerOfTensor(tensor.toStdString());
    return p ? p->first : -1;
}

bool TensorQueries::isQuerying() const { return c_.queryLane()->isBusy(); }

QString TensorQueries::tensorOf(const ItemRef& ref) const {
    const LoadedDocument* doc = c_.session()->document();
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
    case RefKind::SubgraphNode:  // "cond/true_graph_0/linear": the debugger's name for it
        if (const ir::Graph* sub = ir::subgraphAtPath(g, ref.subgraph);
            sub && ref.inner >= 0 && ref.inner < static_cast<int64_t>(sub->nodes.size()) &&
            !sub->nodes[static_cast<size_t>(ref.inner)].outputs.empty())
            return q(exec::SubgraphFrames::qualifiedName(ref.subgraph,
                                                         sub->nodes[static_cast<size_t>(ref.inner)].outputs[0].name));
        break;
    default: break;
    }
    return {};
}

bool TensorQueries::query(const QString& key, QObject* owner, QueryJob job) {
    if (!c_.debugger() || !job) return false;
    c_.queryLane()->post(
        key, owner, [d = c_.sharedDebugger(), job = std::move(job)](const TaskQueue::Context&) { return job(*d); });
    return true;
}

void TensorQueries::dropQueries(QObject* owner) { c_.queryLane()->dropOwner(owner); }

void TensorQueries::exportTensor(const QString& tensor, const QString& path, exec::ValueSide side,
                                 std::function<void(const QString&)> done) {
    c_.writeFile([t = tensor.toStdString(), p = path.toStdString(),
                  side](const exec::Debugger& d) { d.tensors().exportTensor(t, p, side); },
                 [this, done = std::move(done)](const QString& error) {
                     if (done)
                         done(error);
                     else if (!error.isEmpty())
                         c_.reportError(error);
                 });
}

void TensorQueries::setPinned(const QString& tensor, bool pinned) {
    if (!c_.debugger()) return;
    const std::string t = tensor.toStdString();
    c_.post({}, [t, pinned](exec::Debugger& d) -> Continuation {
        d.setPinned(t, pinned);
        return {};
    });
}

void TensorQueries::showTensor(const QString& tensor) {
    focusTensor_ = tensor;
    emit focusTensorChanged(tensor);
}

}  // namespace irscope::widgets
