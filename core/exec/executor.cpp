#include "core/exec/executor.h"
#include "core/io/tensor_dtype.h"

#include <cstring>
#include <sstream>
#include <unordered_set>

#include <ATen/ATen.h>
#include <c10/util/Exception.h>

#include "core/exec/attr_convert.h"
#include "core/exec/exec_error.h"
#include "core/exec/value_precedence.h"

namespace irscope::exec {
namespace {

std::string shapeText(c10::IntArrayRef s) {
    std::ostringstream o;
    o << '[';
    for (size_t i = 0; i < s.size(); ++i) o << (i ? ", " : "") << s[i];
    o << ']';
    return o.str();
}

std::string dtypeText(c10::ScalarType t) { return io::scalarTypeName(t); }

std::string missingMessage(const std::string& name, const std::string& node) {
    return "Weight/input '" + name + "' not found in registry for node '" + node + "'.";
}

}  // namespace

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
    case StopReason::Failed: return "failed";
    case StopReason::Cancelled: return "cancelled";
    }
    return "?";
}

std::string formatMissingValue(const MissingValue& m) {
    std::string s = m.name + " (" + m.kind;
    if (!m.originalName.empty() && m.originalName != m.name) s += " '" + m.originalName + "'";
    s += ")";
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

Executor::Executor(const ir::Graph& graph) : graph_(graph), index_(graph) {
    const auto& nodes = graph_.nodes;
    const int64_t n = static_cast<int64_t>(nodes.size());
    sources_.resize(n);
    lastUse_.resize(n);
    expected_.resize(n);
    bound_.resize(n);
    protected_.resize(n);
    outputs_.resize(n);
    for (int64_t i = 0; i < n; ++i) {
        lastUse_[i].assign(nodes[i].outputs.size(), -1);
        protected_[i].assign(nodes[i].outputs.size(), 0);
        for (const auto& o : nodes[i].outputs) {
            Expected e;
            e.shapeKnown = std::none_of(o.shape.begin(), o.shape.end(), [](int64_t d) { return d < 0; });
            e.shape = o.shape;
            e.dtype = scalarTypeOfIrDtype(o.dtype);
            expected_[i].push_back(e);
        }
    }
    // Where each input comes from: producer_node/producer_output_idx when
    // present, else (older files) a node output of that name, else the registry.
    for (int64_t i = 0; i < n; ++i) {
        for (const auto& in : nodes[i].inputs) {
            Source s;
            s.name = in.name;
            if (in.producerNode) {
                if (auto p = index_.nodeIndex(*in.producerNode); p && *p < i) {
                    s.kind = Source::Kind::NodeOutput;
                    s.a = *p;
                    s.b = in.producerOutputIdx;
                } else if (auto g = index_.graphInputIndex(*in.producerNode)) {
                    s.kind = Source::Kind::GraphInput;
                    s.a = *g;
                } else {
                    s.name = *in.producerNode == in.name ? in.name : in.name;
                }
            } else if (auto p = index_.producerOfTensor(in.name); p && p->first < i) {
                s.kind = Source::Kind::NodeOutput;
                s.a = p->first;
                s.b = p->second;
            } else if (auto g = index_.graphInputIndex(in.name)) {
                s.kind = Source::Kind::GraphInput;
                s.a = *g;
            }
            if (s.kind == Source::Kind::NodeOutput && s.b >= 0 && s.b < static_cast<int64_t>(lastUse_[s.a].size()))
                lastUse_[s.a][s.b] = i;
            sources_[i].push_back(std::move(s));
        }
    }
    refreshProtected();
    graphInputValues_.resize(graph_.graphInputs.size());
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
        graphInputValues_[i] = t ? *t : at::Tensor();
        if (t) registry_[graph_.graphInputs[i].name] = *t;
    }
}

std::vector<MissingValue> Executor::preflight() const {
    std::vector<MissingValue> out;
    std::unordered_map<std::string, size_t> at;
    auto add = [&](const std::string& name, const std::string& node) {
        auto it = at.find(name);
        if (it == at.end()) {
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
            it = at.emplace(name, out.size()).first;
            out.push_back(std::move(m));
        }
        auto& nodes = out[it->second].nodes;
        if (!node.empty() && (nodes.empty() || nodes.back() != node)) nodes.push_back(node);
    };
    for (size_t g = 0; g < graph_.graphInputs.size(); ++g)
        if (!graphInputValues_[g].defined()) {
            add(graph_.graphInputs[g].name, "");
            for (const auto& use : index_.consumersOfGraphInput(static_cast<int64_t>(g)))
                add(graph_.graphInputs[g].name, graph_.nodes[use.node].name);
        }
    for (size_t i = 0; i < graph_.nodes.size(); ++i) {
        const auto& node = graph_.nodes[i];
        for (size_t k = 0; k < node.inputs.size(); ++k) {
            const Source& s = sources_[i][k];
            if (s.kind == Source::Kind::Registry && !registry_.count(s.name)) add(s.name, node.name);
        }
    }
    return out;
}

void Executor::reset() {
    for (auto& o : outputs_) o.clear();
}

at::Tensor Executor::resolve(int64_t node, size_t input) const {
    const Source& s = sources_[node][input];
    switch (s.kind) {
    case Source::Kind::GraphInput:
        if (graphInputValues_[s.a].defined()) return graphInputValues_[s.a];
        break;
    case Source::Kind::NodeOutput: {
        const auto& outs = outputs_[s.a];
        if (s.b >= 0 && s.b < static_cast<int64_t>(outs.size()) && outs[s.b].defined()) return outs[s.b];
        const auto& nodeName = graph_.nodes[node].name;
        const auto& producer = graph_.nodes[s.a].name;
        if (outs.empty())
            throw ExecError(nodeName, graph_.nodes[node].opType,
                            "input '" + s.name + "' comes from node '" + producer + "', which has not run");
        throw ExecError(nodeName, graph_.nodes[node].opType,
                        "input '" + s.name + "' (output " + std::to_string(s.b) + " of node '" + producer +
                            "') is not available" +
                            (s.b < static_cast<int64_t>(outs.size()) ? " (freed by the retention policy)"
                                                                     : ": the op returned fewer outputs"));
    }
    case Source::Kind::Registry: {
        auto it = registry_.find(s.name);
        if (it != registry_.end()) return it->second;
        break;
    }
    }
    throw ExecError(graph_.nodes[node].name, graph_.nodes[node].opType,
                    missingMessage(s.name, graph_.nodes[node].name));
}

bool Executor::kept(int64_t node, int64_t output) const {
    return policy_ == RetentionPolicy::KeepAll || protected_[node][output];
}

std::vector<std::string> Executor::runNode(int64_t i) {
    const ir::OpNode& node = graph_.nodes[i];
    auto& results = outputs_[i];
    results.clear();

    if (node.isGetitem()) {
        // Selects output `index` of the producer; inputs list all its outputs.
        int64_t idx = 0;
        if (auto it = node.attrs.find("index"); it != node.attrs.end() && it->is_number_integer())
            idx = it->get<int64_t>();
        else
            throw ExecError(node.name, node.opType, "getitem without an integer 'index' attr");
        size_t which = idx >= 0 && idx < static_cast<int64_t>(node.inputs.size()) ? static_cast<size_t>(idx) : 0;
        if (node.inputs.empty()) throw ExecError(node.name, node.opType, "getitem without inputs");
        results.push_back(resolve(i, which));
    } else {
        if (!bound_[i]) bound_[i] = std::make_unique<BoundOp>(bindNode(node));
        const BoundOp& op = *bound_[i];
        inputScratch_.resize(node.inputs.size());
        for (size_t k = 0; k < node.inputs.size(); ++k) inputScratch_[k] = resolve(i, k);
        // In-place ops write into their input: work on a copy unless nobody
        // will ever see the original again (see executor.h).
        for (int32_t k : op.writtenInputs) {
            const Source& s = sources_[i][k];
            bool copy = true;
            if (s.kind == Source::Kind::NodeOutput && !kept(s.a, s.b) && lastUse_[s.a][s.b] == i) {
                const at::Tensor& t = inputScratch_[k];
                // 2 handles: the producer's slot and ours; 1 storage user: no live views.
                copy = !(t.use_count() == 2 && t.storage().use_count() == 1);
            }
            if (copy) inputScratch_[k] = inputScratch_[k].clone();
        }
        try {
            buildStack(op, inputScratch_, stack_);
            callBound(op, stack_, results);
        } catch (const c10::Error& e) {
            results.clear();
            inputScratch_.clear();
            throw ExecError(node.name, node.opType, e.what_without_backtrace());
        } catch (const ExecError&) {
            results.clear();
            throw;
        } catch (const std::exception& e) {
            results.clear();
            inputScratch_.clear();
            throw ExecError(node.name, node.opType, e.what());
        }
        stack_.clear();
        for (auto& t : inputScratch_) t.reset();
    }

    // Compare with the IR's TensorMeta: a mismatch means the graph and the op
    // disagree (e.g. attrs lost on the way).
    std::vector<std::string> diags;
    if (bound_[i])  // getitem binds nothing
        for (const auto& attr : bound_[i]->ignoredAttrs)
            diags.push_back("attr '" + attr + "' is not an argument of " + node.opType +
                            " in libtorch 1.13's schema and was not passed");
    const auto& exp = expected_[i];
    if (results.size() < exp.size())
        diags.push_back("the op returned " + std::to_string(results.size()) + " tensors, the IR lists " +
                        std::to_string(exp.size()) + " outputs");
    for (size_t k = 0; k < exp.size() && k < results.size(); ++k) {
        const at::Tensor& t = results[k];
        if (!t.defined()) continue;
        const auto& e = exp[k];
        const auto& name = node.outputs[k].name;
        if (e.shapeKnown && !t.sizes().equals(e.shape))
            diags.push_back("output '" + name + "' has shape " + shapeText(t.sizes()) + ", the IR says " +
                            shapeText(e.shape));
        if (e.dtype && t.scalar_type() != *e.dtype)
            diags.push_back("output '" + name + "' has dtype " + dtypeText(t.scalar_type()) + ", the IR says " +
                            node.outputs[k].dtype);
    }
    releaseAfter(i);
    return diags;
}

void Executor::releaseAfter(int64_t i) {
    if (policy_ == RetentionPolicy::KeepAll) return;
    for (const Source& s : sources_[i])
        if (s.kind == Source::Kind::NodeOutput && lastUse_[s.a][s.b] == i && !protected_[s.a][s.b] &&
            s.b < static_cast<int64_t>(outputs_[s.a].size()))
            outputs_[s.a][s.b].reset();
    // Results nobody reads (not even a getitem) go at once.
    auto& outs = outputs_[i];
    for (size_t k = 0; k < outs.size() && k < lastUse_[i].size(); ++k)
        if (lastUse_[i][k] < 0 && !protected_[i][k]) outs[k].reset();
}

void Executor::refreshProtected() {
    for (auto& p : protected_) std::fill(p.begin(), p.end(), 0);
    auto mark = [&](const std::string& name) {
        if (auto p = index_.producerOfTensor(name))
            if (p->second < static_cast<int64_t>(protected_[p->first].size())) protected_[p->first][p->second] = 1;
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
    if (auto p = index_.producerOfTensor(name)) {
        const auto& outs = outputs_[p->first];
        if (p->second < static_cast<int64_t>(outs.size())) return outs[p->second];
        return {};
    }
    if (auto g = index_.graphInputIndex(name)) return graphInputValues_[*g];
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
    for (const auto& outs : outputs_)
        for (const auto& t : outs) {
            if (!t.defined() || !t.has_storage()) continue;
            const void* impl = t.storage().unsafeGetStorageImpl();
            if (seen.insert(impl).second) total += t.storage().nbytes();
        }
    return total;
}

}  // namespace irscope::exec
