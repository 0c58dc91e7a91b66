// Executor::runHigherOrder: a higher-order op read from a .pt2 runs the
// subgraphs it owns (ir::OpNode::subgraphs), as PyTorch's own implementations
// of them do:
//   cond(pred, true_graph, false_graph, operands): the branch pred picks, now;
//   while_loop(cond_graph, body_graph, carried, additional): body while cond;
//   scan(combine_graph, init, xs, additional): carry through xs' first dim,
//       the per-step outputs stacked;
//   map_impl(body_graph, xs, args): body over xs' first dim, stacked;
//   wrap_with_autocast(device, dtype, enabled, cache, graph, operands): the
//       region under libtorch's own CPU autocast (PyTorch's rules, not ours);
//   wrap_with_set_grad_enabled(enabled, graph, operands): the region.
// Each subgraph runs in an Executor of its own, kept for the node (a loop
// reruns the same one), over the tensors its arguments group
// (OpNode::inputGroups). A failure inside names the subgraph and its node.
#include "core/exec/engine/executor.h"

#include <ATen/ATen.h>
#include <ATen/autocast_mode.h>
#include <c10/util/Exception.h>
#include <torch/version.h>

#include "core/exec/engine/attr_convert.h"
#include "core/exec/engine/exec_error.h"

namespace irscope::exec {
namespace {

using Tensors = std::vector<at::Tensor>;

// torch.autocast("cpu", dtype, enabled) for the region's lifetime, restored after.
class CpuAutocastRegion {
public:
    CpuAutocastRegion(bool enabled, at::ScalarType dtype) {
#if TORCH_VERSION_MAJOR >= 2
        wasEnabled_ = at::autocast::is_autocast_enabled(at::kCPU);
        wasDtype_ = at::autocast::get_autocast_dtype(at::kCPU);
        at::autocast::set_autocast_enabled(at::kCPU, enabled);
        at::autocast::set_autocast_dtype(at::kCPU, dtype);
#else
        wasEnabled_ = at::autocast::is_cpu_enabled();
        wasDtype_ = at::autocast::get_autocast_cpu_dtype();
        at::autocast::set_cpu_enabled(enabled);
        at::autocast::set_autocast_cpu_dtype(dtype);
#endif
        at::autocast::increment_nesting();
    }
    ~CpuAutocastRegion() {
        if (at::autocast::decrement_nesting() == 0) at::autocast::clear_cache();
#if TORCH_VERSION_MAJOR >= 2
        at::autocast::set_autocast_enabled(at::kCPU, wasEnabled_);
        at::autocast::set_autocast_dtype(at::kCPU, wasDtype_);
#else
        at::autocast::set_cpu_enabled(wasEnabled_);
        at::autocast::set_autocast_cpu_dtype(wasDtype_);
#endif
    }
    CpuAutocastRegion(const CpuAutocastRegion&) = delete;
    CpuAutocastRegion& operator=(const CpuAutocastRegion&) = delete;

private:
    bool wasEnabled_ = false;
    at::ScalarType wasDtype_ = at::kBFloat16;
};

Tensors concat(const Tensors& a, const Tensors& b) {
    Tensors out = a;
    out.insert(out.end(), b.begin(), b.end());
    return out;
}

// Element t of every tensor's first dim.
Tensors slicesAt(const Tensors& xs, int64_t t) {
    Tensors out;
    for (const auto& x : xs) out.push_back(x.select(0, t));
    return out;
}

int64_t scannedLength(const std::string& op, const Tensors& xs) {
    if (xs.empty()) throw std::runtime_error(op + " has no tensor to iterate over");
    const int64_t length = xs.front().dim() > 0 ? xs.front().size(0) : -1;
    for (const auto& x : xs)
        if (x.dim() == 0 || x.size(0) != length)
            throw std::runtime_error(op + ": the tensors it iterates over differ in their first dim");
    if (length == 0) throw std::runtime_error(op + " over an empty first dim has no outputs to stack");
    return length;
}

// Per-step outputs stacked along a new first dim.
Tensors stacked(const std::vector<Tensors>& steps) {
    Tensors out;
    if (steps.empty()) return out;
    for (size_t k = 0; k < steps.front().size(); ++k) {
        std::vector<at::Tensor> parts;
        for (const auto& s : steps) parts.push_back(s.at(k));
        out.push_back(at::stack(parts, 0));
    }
    return out;
}

bool truthOf(const std::string& what, const at::Tensor& t) {
    if (t.numel() != 1)
        throw std::runtime_error(what + " is not one value but a tensor of shape " + c10::str(t.sizes()));
    return t.item<bool>();
}

}  // namespace

void Executor::runHigherOrder(int64_t i) {
    const auto& node = graph_.nodes[static_cast<size_t>(i)];
    const auto& step = plan_.steps[static_cast<size_t>(i)];
    Tensors in;
    for (uint32_t k = 0; k < step.inputCount; ++k) {
        const at::Tensor& t = values_[static_cast<size_t>(plan_.inputSlots[step.inputBegin + k])];
        if (!t.defined()) throwUnavailable(i, k);
        in.push_back(t);
    }
    // The tensor arguments, as the node's inputs group them.
    std::vector<Tensors> groups;
    size_t next = 0;
    for (int32_t count : node.inputGroups) {
        if (count < 0 || next + static_cast<size_t>(count) > in.size()) {
            groups.clear();
            break;
        }
        groups.emplace_back(in.begin() + static_cast<std::ptrdiff_t>(next),
                            in.begin() + static_cast<std::ptrdiff_t>(next + static_cast<size_t>(count)));
        next += static_cast<size_t>(count);
    }
    if (next != in.size() || groups.size() != node.inputGroups.size())
        throw ExecError(node.name, node.opType,
                        "its " + std::to_string(in.size()) +
                            " inputs do not split into its tensor arguments as the program listed them");
    const auto need = [&](size_t subgraphs, size_t tensorArgs) {
        if (node.subgraphs.size() != subgraphs || groups.size() < tensorArgs)
            throw ExecError(node.name, node.opType,
                            "expected " + std::to_string(subgraphs) + " subgraphs and " + std::to_string(tensorArgs) +
                                " tensor arguments, the program has " + std::to_string(node.subgraphs.size()) +
                                " and " + std::to_string(groups.size()));
    };
    const auto all = [&](size_t from) {
        Tensors out;
        for (size_t g = from; g < groups.size(); ++g) out = concat(out, groups[g]);
        return out;
    };

    calls_.erase(i);  // this run's calls only
    unrecordedCalls_.erase(i);
    recordedBytes_.erase(i);
    Tensors out;
    try {
        const std::string& op = node.opType;
        if (op == "cond") {
            need(2, 2);
            const bool taken = truthOf("its predicate", groups[0].at(0));
            takenBranches_[i] = taken ? 0 : 1;
            out = runSubgraph(i, taken ? 0 : 1, groups[1]);
        } else if (op == "while_loop") {
            need(2, 2);
            Tensors carried = groups[0];
            int64_t iterations = 0;
            while (truthOf("its condition", runSubgraph(i, 0, concat(carried, groups[1])).at(0))) {
                Tensors stepped = runSubgraph(i, 1, concat(carried, groups[1]));
                if (stepped.size() != carried.size())
                    throw std::runtime_error("its body returns " + std::to_string(stepped.size()) + " values for " +
                                             std::to_string(carried.size()) + " carried");
                carried = std::move(stepped);
                ++iterations;
            }
            iterations_[i] = iterations;
            out = carried;
        } else if (op == "scan") {
            need(1, 3);
            const int64_t length = scannedLength(op, groups[1]);
            Tensors carry = groups[0];
            std::vector<Tensors> ys;
            for (int64_t t = 0; t < length; ++t) {
                Tensors r = runSubgraph(i, 0, concat(concat(carry, slicesAt(groups[1], t)), groups[2]));
                if (r.size() < carry.size()) throw std::runtime_error("its combine graph returns too few values");
                ys.emplace_back(r.begin() + static_cast<std::ptrdiff_t>(carry.size()), r.end());
                carry.assign(r.begin(), r.begin() + static_cast<std::ptrdiff_t>(carry.size()));
            }
            iterations_[i] = length;
            out = concat(carry, stacked(ys));
        } else if (op == "map_impl" || op == "map") {
            need(1, 2);
            const int64_t length = scannedLength(op, groups[0]);
            std::vector<Tensors> ys;
            for (int64_t t = 0; t < length; ++t)
                ys.push_back(runSubgraph(i, 0, concat(slicesAt(groups[0], t), all(1))));
            iterations_[i] = length;
            out = stacked(ys);
        } else if (op == "wrap_with_autocast") {
            need(1, 0);
            const auto& a = node.higherOrderArgs;
            const std::string device = a.size() > 0 && a[0].is_string() ? a[0].get<std::string>() : "";
            const auto dtype = a.size() > 1 && a[1].is_string() ? parseScalarType(a[1].get<std::string>())
                                                                : std::optional<at::ScalarType>();
            const bool enabled = a.size() > 2 && a[2].is_boolean() && a[2].get<bool>();
            if (device != "cpu")
                throw std::runtime_error("autocast for device '" + device + "': irscope runs on the CPU only");
            CpuAutocastRegion region(enabled, dtype.value_or(at::kBFloat16));
            out = runSubgraph(i, 0, all(0));
        } else if (op == "wrap_with_set_grad_enabled") {
            need(1, 0);
            out = runSubgraph(i, 0, all(0));  // a run computes no gradients either way
        } else {
            throw std::runtime_error("irscope does not run the higher-order op '" + op + "'");
        }
    } catch (const ExecError&) {
        throw;
    } catch (const c10::Error& e) {
        failNode(i, e.what_without_backtrace());
    } catch (const std::exception& e) {
        failNode(i, e.what());
    }
    for (uint32_t k = 0; k < step.outputCount; ++k)
        values_[step.outputBegin + k] = k < out.size() ? out[k] : at::Tensor();
    resultCount_[static_cast<size_t>(i)] = static_cast<int32_t>(out.size());
}

std::vector<at::Tensor> Executor::runSubgraph(int64_t node, size_t which, const std::vector<at::Tensor>& operands) {
    const auto& owner = graph_.nodes[static_cast<size_t>(node)];
    const auto& named = owner.subgraphs.at(which);
    const ir::Graph& sub = *named.graph;
    if (operands.size() != sub.graphInputs.size())
        throw ExecError(owner.name, owner.opType,
                        "its subgraph '" + named.name + "' takes " + std::to_string(sub.graphInputs.size()) +
                            " inputs, the node passes " + std::to_string(operands.size()));
    auto& nested = subgraphExecutors_[{node, which}];
    if (!nested) {
        nested = std::make_unique<Executor>(sub);
        nested->setAutocast(autocast_);
    }
    nested->setRecordCallValues(recordsCallValues());
    io::TensorMap inputs;
    for (size_t k = 0; k < operands.size(); ++k) inputs.insert(sub.graphInputs[k].name, operands[k]);
    nested->reset();
    nested->setInputs(inputs);
    std::vector<std::string> diagnostics;
    for (size_t j = 0; j < sub.nodes.size(); ++j) {
        try {
            nested->runNode(static_cast<int64_t>(j), diagnostics);
        } catch (const ExecError& e) {
            throw ExecError(owner.name, owner.opType, "in its subgraph '" + named.name + "', " + e.what());
        }
    }
    recordCall(node, which, *nested);
    std::vector<at::Tensor> out;
    for (const auto& o : sub.graphOutputs) {
        at::Tensor v = nested->valueOf(o.name);
        if (!v.defined())
            throw ExecError(owner.name, owner.opType,
                            "its subgraph '" + named.name + "' left its output '" + o.name + "' without a value");
        out.push_back(std::move(v));
    }
    return out;
}

// What the call did is kept whatever the retention (a few maps: `run`
// reports every call at every depth); its values only when asked. The
// nested executor's own record moves into the call: it is reset before its
// next call anyway.
void Executor::recordCall(int64_t node, size_t which, Executor& nested) {
    auto& calls = calls_[node];
    size_t& bytes = recordedBytes_[node];
    if (calls.size() >= kRecordedCalls || bytes >= kRecordedBytes) {
        ++unrecordedCalls_[node];
        return;
    }
    SubgraphCall call;
    call.subgraph = which;
    for (const auto& c : calls) call.iteration += c.subgraph == which;
    if (recordsCallValues()) {
        auto keep = [&](const std::string& name) {
            at::Tensor v = nested.valueOf(name);
            if (!v.defined()) return;
            bytes += static_cast<size_t>(v.numel()) * v.element_size();
            call.values.emplace(name, std::move(v));
        };
        const ir::Graph& sub = nested.graph();
        for (const auto& in : sub.graphInputs) keep(in.name);
        for (const auto& n : sub.nodes)
            for (const auto& o : n.outputs) keep(o.name);
        for (const auto& [inner, innerBytes] : nested.recordedBytes_) bytes += innerBytes;
    }
    call.inner = std::move(nested.calls_);
    call.branches = nested.takenBranches_;
    call.iterations = nested.iterations_;
    call.unrecorded = nested.unrecordedCalls_;
    nested.calls_.clear();
    calls.push_back(std::move(call));
}

const std::vector<Executor::SubgraphCall>* Executor::subgraphCalls(int64_t node) const {
    auto it = calls_.find(node);
    return it == calls_.end() ? nullptr : &it->second;
}

const std::vector<Executor::SubgraphCall>* Executor::subgraphCalls(const std::vector<CallStep>& outer,
                                                                   int64_t node) const {
    const std::map<int64_t, std::vector<SubgraphCall>>* level = &calls_;
    for (const CallStep& step : outer) {
        const auto it = level->find(step.node);
        if (it == level->end() || step.call >= it->second.size()) return nullptr;
        level = &it->second[step.call].inner;
    }
    const auto it = level->find(node);
    return it == level->end() ? nullptr : &it->second;
}

int64_t Executor::unrecordedCalls(int64_t node) const {
    auto it = unrecordedCalls_.find(node);
    return it == unrecordedCalls_.end() ? 0 : it->second;
}

}  // namespace irscope::exec
