#include "core/exec/executor.h"
#include "core/io/tensor_dtype.h"

#include <algorithm>
#include <cstring>
#include <unordered_set>

#include <ATen/ATen.h>
#include <c10/util/Exception.h>

#include "core/exec/attr_convert.h"
#include "core/exec/exec_error.h"
#include "core/exec/value_precedence.h"
#include "core/ir/tensor_meta.h"

// Out of line and in the cold text section: the code that words messages
// and handles the rare cases, kept away from the run loop's.
#define IRSCOPE_COLD [[gnu::cold, gnu::noinline]]

namespace irscope::exec {
namespace {

std::string shapeText(c10::IntArrayRef s) { return ir::shapeToList(s.vec()); }

std::string dtypeText(c10::ScalarType t) { return io::scalarTypeName(t); }

}  // namespace

std::string torchIrMissingMessage(const std::string& name, const std::string& node) {
    return "Weight/input '" + name + "' not found in registry for node '" + node + "'.";
}

const char* nodeStateName(NodeState s) {
    switch (s) {
    case NodeState::Pending: return "pending";
    case NodeState::Done: return "done";
    case NodeState::Failed: return "failed";
    }
    return "?";
}

const char* stopReasonName(StopReason r) {
    switch (r) {
    case StopReason::Finished: return "finished";
    case StopReason::Stepped: return "stepped";
    case StopReason::ReachedTarget: return "reached target";
    case StopReason::Breakpoint: return "breakpoint";
    case StopReason::Watchpoint: return "watchpoint";
    case StopReason::Failed: return "failed";
    case StopReason::Cancelled: return "cancelled";
    case StopReason::MissingValue: return "missing value";
    }
    return "?";
}

std::string missingValueMessage(const MissingValue& m, const std::string& node) {
    if (!m.wrongDtype()) return torchIrMissingMessage(m.name, node);
    std::string s = "'";
    s += m.name;
    s += "' is ";
    s += m.haveDtype;
    s += " but the IR says ";
    s += m.irDtype;
    s += " (node '";
    s += node;
    s += "'); cast the weights to the IR's dtypes";
    return s;
}

std::string formatMissingValue(const MissingValue& m) {
    std::string s = m.name + " (" + m.kind;
    if (!m.originalName.empty() && m.originalName != m.name) s += " '" + m.originalName + "'";
    s += ")";
    if (m.wrongDtype()) {
        s += ": ";
        s += m.haveDtype;
        s += ", the IR says ";
        s += m.irDtype;
    }
    if (!m.nodes.empty()) {
        s += ", needed by: ";
        for (size_t i = 0; i < m.nodes.size(); ++i) s += (i ? ", " : "") + m.nodes[i];
    }
    return s;
}

at::Tensor constantToTensor(const std::string& name, const ir::ConstantValue& value) {
    if (!value.usable()) throw ExecError("", "", "constant '" + name + "' is unusable: " + value.problem);
    auto st = scalarTypeOfIrDtype(value.dtype);
    if (!st)
        throw ExecError("", "",
                        "constant '" + name + "' has dtype '" + value.dtype + "' that libtorch 1.13 cannot hold");
    at::Tensor t = at::empty(value.shape, at::TensorOptions().dtype(*st));
    if (static_cast<size_t>(t.nbytes()) != value.bytes.size())
        throw ExecError("", "",
                        "constant '" + name + "': " + std::to_string(value.bytes.size()) + " bytes for " +
                            std::to_string(t.nbytes()) + " expected");
    if (!value.bytes.empty()) std::memcpy(t.data_ptr(), value.bytes.data(), value.bytes.size());
    return t;
}

namespace {
int8_t planDtypeOf(const std::string& irDtype) {
    auto st = scalarTypeOfIrDtype(irDtype);
    return st ? static_cast<int8_t>(*st) : int8_t{-1};
}
}  // namespace

Executor::Executor(const ir::Graph& graph)
    : graph_(graph), index_(graph), plan_(buildExecutionPlan(graph, index_, &planDtypeOf)) {
    bound_.resize(graph_.nodes.size());
    fast_.resize(graph_.nodes.size());
    values_.resize(static_cast<size_t>(plan_.slotCount));
    registryDtype_.reserve(plan_.registryNames.size());
    for (const auto& name : plan_.registryNames) {
        const auto wi = index_.weightIndex(name);
        registryDtype_.push_back(wi ? planDtypeOf(graph_.weights[static_cast<size_t>(*wi)].dtype) : int8_t{-1});
    }
    resultCount_.assign(graph_.nodes.size(), -1);
    protected_.assign(static_cast<size_t>(plan_.slotCount), 0);
    uint32_t mostInputs = 0;
    for (const auto& step : plan_.steps) mostInputs = std::max(mostInputs, step.inputCount);
    inputScratch_.resize(mostInputs);
    refreshProtected();
    rebuildRegistry();
}

void Executor::setWeights(const io::TensorMap& m) {
    weights_ = m;
    rebuildRegistry();
}
void Executor::setConstants(const io::TensorMap& m) {
    constants_ = m;
    rebuildRegistry();
}
void Executor::setInputs(const io::TensorMap& m) {
    inputs_ = m;
    rebuildRegistry();
}
void Executor::setDtypeCheck(bool on) {
    checkDtypes_ = on;
    rebuildRegistry();
}

void Executor::rebuildRegistry() {
    registry_.clear();
    // 1. state_dict under its keys and, through weight_name_mapping, its placeholders.
    for (const auto& e : weights_) registry_[e.name] = e.tensor;
    for (const auto& [placeholder, original] : graph_.weightNameMapping)
        if (const at::Tensor* t = weights_.find(original)) registry_[placeholder] = *t;
    // 2. Effective constants (value_precedence.h): the IR's, overridden by the
    //    user's; under the original name and every placeholder mapped to it,
    //    whatever its prefix. They win over the state_dict.
    for (const auto& c : effectiveConstants(graph_, constants_).values) {
        registry_[c.name] = c.tensor;
        for (const auto& placeholder : index_.placeholdersOf(c.name)) registry_[placeholder] = c.tensor;
    }
    // 3. Graph inputs by name.
    for (size_t i = 0; i < graph_.graphInputs.size(); ++i) {
        const at::Tensor* t = inputs_.find(graph_.graphInputs[i].name);
        values_[i] = t ? *t : at::Tensor();
        if (t) registry_[graph_.graphInputs[i].name] = *t;
    }
    // The slots of the registry names the nodes read.
    for (size_t k = 0; k < plan_.registryNames.size(); ++k) {
        auto it = registry_.find(plan_.registryNames[k]);
        at::Tensor value = it == registry_.end() ? at::Tensor() : it->second;
        // A value in another dtype than the IR's stays out of its slot: the
        // node reading it stops as for a missing one (no check in the run loop).
        if (checkDtypes_ && value.defined() && registryDtype_[k] >= 0 &&
            static_cast<int8_t>(value.scalar_type()) != registryDtype_[k])
            value = at::Tensor();
        values_[static_cast<size_t>(plan_.registryBase) + k] = std::move(value);
    }
}

MissingValue Executor::describeMissing(const std::string& name) const {
    MissingValue m;
    m.name = name;
    if (const std::string* orig = index_.originalName(name)) m.originalName = *orig;
    switch (index_.kindOf(name)) {
    case ir::TensorKind::GraphInput: m.kind = "input"; break;
    case ir::TensorKind::Parameter: m.kind = "parameter"; break;
    case ir::TensorKind::Buffer: m.kind = "buffer"; break;
    case ir::TensorKind::Constant: m.kind = "constant"; break;
    case ir::TensorKind::OtherWeight: m.kind = "weight"; break;
    default: m.kind = "value"; break;
    }
    if (auto it = registry_.find(name); it != registry_.end() && it->second.defined()) {
        const auto wi = index_.weightIndex(name);
        const auto irType = wi ? scalarTypeOfIrDtype(graph_.weights[static_cast<size_t>(*wi)].dtype) : std::nullopt;
        if (irType && *irType != it->second.scalar_type()) {
            m.haveDtype = dtypeText(it->second.scalar_type());
            m.irDtype = dtypeText(*irType);
        }
    }
    return m;
}

std::vector<MissingValue> Executor::preflight() const {
    std::vector<MissingValue> out;
    std::unordered_map<std::string, size_t> at;
    auto add = [&](const std::string& name, const std::string& node) {
        auto it = at.find(name);
        if (it == at.end()) {
            it = at.emplace(name, out.size()).first;
            out.push_back(describeMissing(name));
        }
        auto& nodes = out[it->second].nodes;
        if (!node.empty() && (nodes.empty() || nodes.back() != node)) nodes.push_back(node);
    };
    for (size_t g = 0; g < graph_.graphInputs.size(); ++g)
        if (!values_[g].defined()) {
            add(graph_.graphInputs[g].name, "");
            for (const auto& use : index_.consumersOfGraphInput(static_cast<int64_t>(g)))
                add(graph_.graphInputs[g].name, graph_.nodes[use.node].name);
        }
    for (size_t i = 0; i < graph_.nodes.size(); ++i) {
        const auto& step = plan_.steps[i];
        for (uint32_t k = 0; k < step.inputCount; ++k) {
            const int32_t slot = plan_.inputSlots[step.inputBegin + k];
            if (plan_.isRegistry(slot) && !values_[static_cast<size_t>(slot)].defined())
                add(plan_.registryNames[static_cast<size_t>(slot - plan_.registryBase)], graph_.nodes[i].name);
        }
    }
    return out;
}

// The values go with the array that held them: a fresh array first, then
// the old one freed after its tensors. Freeing that large block next to the
// tensors' small ones makes glibc merge them into one free region, and the
// next run allocates from it in order; resetting the slots in place left
// tens of thousands of small free chunks in the bins, and keeping every
// intermediate of a 30,000-node chain ran 1.7x slower after a reset.
void Executor::reset() {
    {
        std::vector<at::Tensor> fresh(values_.size());
        std::copy(values_.begin(), values_.begin() + plan_.nodeOutputBase, fresh.begin());
        fresh.swap(values_);
    }  // the old values go here, then their array
    std::fill(resultCount_.begin(), resultCount_.end(), -1);
}

const at::Tensor& Executor::resolve(int64_t node, uint32_t input) const {
    const int32_t slot = plan_.inputSlots[plan_.steps[static_cast<size_t>(node)].inputBegin + input];
    const at::Tensor& t = values_[static_cast<size_t>(slot)];
    if (!t.defined()) throwUnavailable(node, input);
    return t;
}

// Words why an input has no value; off the hot path.
IRSCOPE_COLD void Executor::throwUnavailable(int64_t node, uint32_t input) const {
    const ir::OpNode& n = graph_.nodes[static_cast<size_t>(node)];
    const int32_t slot = plan_.inputSlots[plan_.steps[static_cast<size_t>(node)].inputBegin + input];
    const std::string& name = n.inputs[input].name;
    if (!plan_.isNodeOutput(slot)) {
        MissingValue m = describeMissing(name);
        m.nodes.push_back(n.name);
        throw MissingInputError(n.name, n.opType, std::move(m));
    }
    const int32_t p = plan_.producer[static_cast<size_t>(slot)];
    const int64_t k = slot - static_cast<int64_t>(plan_.steps[static_cast<size_t>(p)].outputBegin);
    const std::string& producer = graph_.nodes[static_cast<size_t>(p)].name;
    const int32_t returned = resultCount_[static_cast<size_t>(p)];
    if (returned < 0)
        throw ExecError(n.name, n.opType, "input '" + name + "' comes from node '" + producer + "', which has not run");
    throw ExecError(n.name, n.opType,
                    "input '" + name + "' (output " + std::to_string(k) + " of node '" + producer +
                        "') is not available" +
                        (k < returned ? " (freed by the retention policy)" : ": the op returned fewer outputs"));
}

c10::ArrayRef<at::Tensor> Executor::outputsOf(int64_t node) const {
    const auto& step = plan_.steps[static_cast<size_t>(node)];
    const int32_t returned = resultCount_[static_cast<size_t>(node)];
    if (returned <= 0) return {};
    return {values_.data() + step.outputBegin, std::min<size_t>(step.outputCount, static_cast<size_t>(returned))};
}

// The run loop's hot path: a node bound to a typed call reads its step, its
// FastCall and its argument slots, calls, and stores the result. Every other
// node (getitem, not bound yet, boxed, in-place, ignored attrs) takes
// runGeneral; everything that words a message is out of line (IRSCOPE_COLD),
// so that the loop's code stays small next to libtorch's (execution_plan.h).
bool Executor::runNode(int64_t i, std::vector<std::string>& diags) {
    const auto& step = plan_.steps[static_cast<size_t>(i)];
    if (!diags.empty()) diags.clear();
    if (const FastCall& fast = fast_[static_cast<size_t>(i)]; fast.fn) [[likely]] {
        const at::Tensor** in = inputScratch_.data();
        for (uint32_t k = 0; k < step.inputCount; ++k) {
            const at::Tensor& t = values_[static_cast<size_t>(plan_.inputSlots[step.inputBegin + k])];
            if (!t.defined()) [[unlikely]]
                throwUnavailable(i, k);
            in[k] = &t;
        }
        at::Tensor r;
        try {
            r = fast.fn(fast.handle, in, fast.slots, fast.ints);
        } catch (const c10::Error& e) {
            failNode(i, e.what_without_backtrace());
        } catch (const std::exception& e) {
            failNode(i, e.what());
        }
        resultCount_[static_cast<size_t>(i)] = 1;
        if (step.outputCount > 0) [[likely]] {
            values_[step.outputBegin] = std::move(r);
            for (uint32_t k = 1; k < step.outputCount; ++k) values_[step.outputBegin + k].reset();
        }
    } else {
        runGeneral(i, diags);
    }

    // Compare with the IR's TensorMeta: a mismatch means the graph and the op
    // disagree (e.g. attrs lost on the way).
    const auto returned = static_cast<uint32_t>(resultCount_[static_cast<size_t>(i)]);
    if (returned < step.listedOutputs) [[unlikely]]
        reportShortResult(i, diags);
    const uint32_t compared = std::min(returned, step.listedOutputs);
    for (uint32_t k = 0; k < compared; ++k) {
        const at::Tensor& t = values_[step.outputBegin + k];
        if (!t.defined()) continue;
        const auto& check = plan_.checks[step.outputBegin + k - static_cast<uint32_t>(plan_.nodeOutputBase)];
        bool agrees = check.dtype < 0 || t.scalar_type() == static_cast<c10::ScalarType>(check.dtype);
        if (check.rank >= 0) {
            const c10::IntArrayRef sizes = t.sizes();
            agrees = agrees && sizes.size() == static_cast<size_t>(check.rank);
            for (size_t d = 0; agrees && d < sizes.size(); ++d) agrees = sizes[d] == plan_.dims[check.dimsBegin + d];
        }
        if (!agrees) [[unlikely]]
            reportMismatch(i, k, diags);
    }
    bool stop = false;
    if (!inspectors_.empty()) [[unlikely]] {
        const std::span<at::Tensor> outs(values_.data() + step.outputBegin, compared);
        try {
            for (NodeInspector* inspector : inspectors_)
                if (inspector) stop = inspector->afterNode(i, outs) || stop;
        } catch (const ExecError&) {
            throw;  // names its node already (a reference run's failure)
        } catch (const c10::Error& e) {
            failNode(i, std::string("checking its results: ") + e.what_without_backtrace());
        } catch (const std::exception& e) {
            failNode(i, std::string("checking its results: ") + e.what());
        }
    }
    releaseAfter(i);
    return stop;
}

[[gnu::noinline]] void Executor::runGeneral(int64_t i, std::vector<std::string>& diags) {
    const auto& step = plan_.steps[static_cast<size_t>(i)];
    resultCount_[static_cast<size_t>(i)] = -1;
    if (step.getitemInput != ExecutionPlan::kNotGetitem) {
        runGetitem(i);
        return;
    }
    BoundOp* op = bound_[static_cast<size_t>(i)].get();
    if (!op) op = bind(i);
    const at::Tensor** in = inputScratch_.data();
    for (uint32_t k = 0; k < step.inputCount; ++k) {
        const at::Tensor& t = values_[static_cast<size_t>(plan_.inputSlots[step.inputBegin + k])];
        if (!t.defined()) throwUnavailable(i, k);
        in[k] = &t;
    }
    if (!op->writtenInputs.empty()) copyWrittenInputs(i, *op);
    try {
        if (op->unboxed) {
            at::Tensor r = op->unboxed(in, op->slots.data(), op->ints.data());
            resultCount_[static_cast<size_t>(i)] = 1;
            for (uint32_t k = 0; k < step.outputCount; ++k)
                values_[step.outputBegin + k] = k == 0 ? std::move(r) : at::Tensor();
        } else {
            callBoxed(i, *op);
        }
    } catch (const c10::Error& e) {
        failNode(i, e.what_without_backtrace());
    } catch (const ExecError&) {
        stack_.clear();
        copyScratch_.clear();
        throw;
    } catch (const std::exception& e) {
        failNode(i, e.what());
    }
    copyScratch_.clear();
    if (!op->ignoredAttrs.empty()) reportIgnoredAttrs(i, *op, diags);
}

// A node takes the hot path when its op is called unboxed and needs nothing
// else: no input to copy, no attr to report.
static FastCall fastCallOf(const BoundOp& op) {
    if (!op.unboxed || !op.writtenInputs.empty() || !op.ignoredAttrs.empty()) return {};
    return {op.unboxed.fn, op.unboxed.typedHandle, op.slots.data(), op.ints.data()};
}

void Executor::bindAll() {
    for (size_t i = 0; i < bound_.size(); ++i) {
        if (bound_[i] || plan_.steps[i].getitemInput != ExecutionPlan::kNotGetitem) continue;
        try {
            bound_[i] = std::make_unique<BoundOp>(bindNode(graph_.nodes[i]));
        } catch (const std::exception&) {  // reported when the node runs
        }
    }
    // The fast nodes' argument slots, copied into one array in node order:
    // read front to back by the run, they stream from memory instead of
    // costing a cache miss per node (each BoundOp's own are a separate block).
    size_t total = 0;
    for (const auto& op : bound_)
        if (op && fastCallOf(*op).fn) total += op->slots.size();
    fastSlots_.clear();
    fastSlots_.reserve(total);  // the pointers below stay valid
    for (size_t i = 0; i < bound_.size(); ++i) {
        if (!bound_[i]) continue;
        fast_[i] = fastCallOf(*bound_[i]);
        if (!fast_[i].fn) continue;
        fast_[i].slots = fastSlots_.data() + fastSlots_.size();
        fastSlots_.insert(fastSlots_.end(), bound_[i]->slots.begin(), bound_[i]->slots.end());
    }
}

IRSCOPE_COLD BoundOp* Executor::bind(int64_t i) {
    auto& bound = bound_[static_cast<size_t>(i)];
    bound = std::make_unique<BoundOp>(bindNode(graph_.nodes[static_cast<size_t>(i)]));
    fast_[static_cast<size_t>(i)] = fastCallOf(*bound);
    return bound.get();
}

IRSCOPE_COLD void Executor::runGetitem(int64_t i) {
    const auto& step = plan_.steps[static_cast<size_t>(i)];
    const ir::OpNode& node = graph_.nodes[static_cast<size_t>(i)];
    if (step.getitemInput == ExecutionPlan::kBadGetitem)
        throw ExecError(node.name, node.opType, "getitem without an integer 'index' attr");
    if (step.getitemInput == ExecutionPlan::kEmptyGetitem)
        throw ExecError(node.name, node.opType, "getitem without inputs");
    at::Tensor t = resolve(i, static_cast<uint32_t>(step.getitemInput));
    resultCount_[static_cast<size_t>(i)] = 1;
    for (uint32_t k = 0; k < step.outputCount; ++k) values_[step.outputBegin + k] = k == 0 ? t : at::Tensor();
}

// In-place ops write into their input: work on a copy unless nobody will
// ever see the original again (see executor.h).
IRSCOPE_COLD void Executor::copyWrittenInputs(int64_t i, const BoundOp& op) {
    const auto& step = plan_.steps[static_cast<size_t>(i)];
    copyScratch_.clear();
    copyScratch_.reserve(op.writtenInputs.size());  // the pointers below stay valid
    for (int32_t k : op.writtenInputs) {
        const int32_t slot = plan_.inputSlots[step.inputBegin + static_cast<uint32_t>(k)];
        const at::Tensor& t = *inputScratch_[static_cast<size_t>(k)];
        bool copy = true;
        // The same value passed twice (add_(x, x)) is read while written: copy.
        const auto first = plan_.inputSlots.begin() + step.inputBegin;
        const bool passedOnce = std::count(first, first + step.inputCount, slot) == 1;
        if (passedOnce && plan_.isNodeOutput(slot) && policy_ != RetentionPolicy::KeepAll &&
            !protected_[static_cast<size_t>(slot)] && plan_.lastUse[static_cast<size_t>(slot)] == i)
            // 1 handle (the slot) and 1 storage user: no live views or aliases.
            copy = !(t.use_count() == 1 && t.storage().use_count() == 1);
        if (copy) inputScratch_[static_cast<size_t>(k)] = &copyScratch_.emplace_back(t.clone());
    }
}

// The boxed path: a stack of IValues, results normalized to tensors.
void Executor::callBoxed(int64_t i, const BoundOp& op) {
    const auto& step = plan_.steps[static_cast<size_t>(i)];
    auto& results = resultScratch_;
    buildStack(op, inputScratch_.data(), stack_);
    callBound(op, stack_, results);
    stack_.clear();
    const size_t returned = results.size();
    for (uint32_t k = 0; k < step.outputCount; ++k)
        values_[step.outputBegin + k] = k < returned ? std::move(results[k]) : at::Tensor();
    results.clear();
    resultCount_[static_cast<size_t>(i)] = static_cast<int32_t>(std::min<size_t>(returned, INT32_MAX));
}

IRSCOPE_COLD void Executor::failNode(int64_t i, const std::string& why) {
    stack_.clear();
    copyScratch_.clear();
    resultScratch_.clear();
    const ir::OpNode& node = graph_.nodes[static_cast<size_t>(i)];
    throw ExecError(node.name, node.opType, why);
}

IRSCOPE_COLD void Executor::reportIgnoredAttrs(int64_t i, const BoundOp& op, std::vector<std::string>& diags) const {
    for (const auto& attr : op.ignoredAttrs)
        diags.push_back("attr '" + attr + "' is not an argument of " + graph_.nodes[static_cast<size_t>(i)].opType +
                        " in libtorch 1.13's schema and was not passed");
}

IRSCOPE_COLD void Executor::reportShortResult(int64_t i, std::vector<std::string>& diags) const {
    const auto& step = plan_.steps[static_cast<size_t>(i)];
    diags.push_back("the op returned " + std::to_string(resultCount_[static_cast<size_t>(i)]) +
                    " tensors, the IR lists " + std::to_string(step.listedOutputs) + " outputs");
}

IRSCOPE_COLD void Executor::reportMismatch(int64_t i, uint32_t k, std::vector<std::string>& diags) const {
    const auto& step = plan_.steps[static_cast<size_t>(i)];
    const at::Tensor& t = values_[step.outputBegin + k];
    const auto& check = plan_.checks[step.outputBegin + k - static_cast<uint32_t>(plan_.nodeOutputBase)];
    const auto& meta = graph_.nodes[static_cast<size_t>(i)].outputs[k];
    const c10::IntArrayRef expected(plan_.dims.data() + check.dimsBegin,
                                    static_cast<size_t>(std::max<int16_t>(check.rank, 0)));
    if (check.rank >= 0 && !t.sizes().equals(expected))
        diags.push_back("output '" + meta.name + "' has shape " + shapeText(t.sizes()) + ", the IR says " +
                        shapeText(expected));
    if (check.dtype >= 0 && t.scalar_type() != static_cast<c10::ScalarType>(check.dtype))
        diags.push_back("output '" + meta.name + "' has dtype " + dtypeText(t.scalar_type()) + ", the IR says " +
                        meta.dtype);
}

void Executor::releaseAfter(int64_t i) {
    if (policy_ == RetentionPolicy::KeepAll) return;
    const auto& step = plan_.steps[static_cast<size_t>(i)];
    for (uint32_t k = 0; k < step.releaseCount; ++k) {
        const auto slot = static_cast<size_t>(plan_.releaseSlots[step.releaseBegin + k]);
        if (!protected_[slot]) values_[slot].reset();
    }
}

void Executor::refreshProtected() {
    std::fill(protected_.begin(), protected_.end(), 0);
    auto mark = [&](const std::string& name) {
        if (auto p = index_.producerOfTensor(name))
            if (int32_t slot = plan_.outputSlot(p->first, p->second); slot >= 0)
                protected_[static_cast<size_t>(slot)] = 1;
    };
    for (const auto& o : graph_.graphOutputs) mark(o.name);
    for (const auto& n : pinned_) mark(n);
    for (const auto& n : selected_) mark(n);
}

void Executor::setPinned(const std::string& name, bool pinned) {
    if (pinned)
        pinned_.insert(name);
    else
        pinned_.erase(name);
    refreshProtected();
}

void Executor::setSelected(const std::vector<std::string>& names) {
    selected_ = std::set<std::string>(names.begin(), names.end());
    refreshProtected();
}

at::Tensor Executor::valueOf(const std::string& name) const {
    if (const int32_t slot = plan_.slotOfTensor(index_, name); slot >= 0 && !plan_.isRegistry(slot))
        return values_[static_cast<size_t>(slot)];
    if (index_.producerOfTensor(name)) return {};  // a node output past the slots: never a value
    auto it = registry_.find(name);
    return it == registry_.end() ? at::Tensor() : it->second;
}

bool Executor::graphOutputs(io::TensorMap& out, std::string* missing) const {
    for (const auto& o : graph_.graphOutputs) {
        at::Tensor t = valueOf(o.name);
        if (!t.defined()) {
            if (missing) *missing = o.name;
            return false;
        }
        out.insert(o.name, t);
    }
    return true;
}

size_t Executor::bytesHeld() const {
    std::unordered_set<const void*> seen;
    size_t total = 0;
    for (size_t k = static_cast<size_t>(plan_.nodeOutputBase); k < values_.size(); ++k) {
        const at::Tensor& t = values_[k];
        if (!t.defined() || !t.has_storage()) continue;
        const void* impl = t.storage().unsafeGetStorageImpl();
        if (seen.insert(impl).second) total += t.storage().nbytes();
    }
    return total;
}

}  // namespace irscope::exec
