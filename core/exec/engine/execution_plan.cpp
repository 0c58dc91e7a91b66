#include "core/exec/engine/execution_plan.h"

#include "core/ir/subclass_access.h"

#include <algorithm>
#include <deque>
#include <stdexcept>
#include <string>
#include <unordered_map>

namespace irscope::exec {
namespace {

// Where one node input comes from, before slots are laid out.
struct Source {
    enum class Kind { GraphInput, NodeOutput, Registry } kind = Kind::Registry;
    int64_t a = -1, b = 0;  // graph input index | producer node, output index
};

// How far past a producer's listed outputs an input may reach (the IR lists
// one output of an op that returns two, and a getitem reads the second; the
// validator flags it, torch_ir runs it). Farther is a broken file, not an
// op's result: the input is then looked up by name like one without a
// producer. The bound keeps a crafted file from making millions of slots.
constexpr int64_t kOutputsPastTheListed = 8;

Source sourceOf(const ir::Graph& graph, const ir::GraphIndex& index, int64_t node, const ir::TensorMeta& in) {
    Source s;
    bool byName = !in.producerNode || in.producerOutputIdx < 0;
    if (!byName) {
        if (auto p = index.nodeIndex(*in.producerNode); p && *p < node) {
            const auto listed = static_cast<int64_t>(graph.nodes[static_cast<size_t>(*p)].outputs.size());
            if (in.producerOutputIdx < listed + kOutputsPastTheListed) {
                s.kind = Source::Kind::NodeOutput;
                s.a = *p;
                s.b = in.producerOutputIdx;
                return s;
            }
            byName = true;
        } else if (auto g = index.graphInputIndex(*in.producerNode)) {
            s.kind = Source::Kind::GraphInput;
            s.a = *g;
            return s;
        } else {
            return s;  // the registry, by the input's name
        }
    }
    if (auto p = index.producerOfTensor(in.name); p && p->first < node) {
        s.kind = Source::Kind::NodeOutput;
        s.a = p->first;
        s.b = p->second;
    } else if (auto g = index.graphInputIndex(in.name)) {
        s.kind = Source::Kind::GraphInput;
        s.a = *g;
    }
    return s;
}

int32_t getitemInputOf(const ir::OpNode& node) {
    if (!node.isGetitem()) return ExecutionPlan::kNotGetitem;
    auto it = node.attrs.find("index");
    if (it == node.attrs.end() || !it->is_number_integer()) return ExecutionPlan::kBadGetitem;
    if (node.inputs.empty()) return ExecutionPlan::kEmptyGetitem;
    // Selects output `index` of the producer; the inputs list all its outputs.
    const auto idx = it->get<int64_t>();
    return idx >= 0 && idx < static_cast<int64_t>(node.inputs.size()) ? static_cast<int32_t>(idx) : 0;
}

}  // namespace

int32_t ExecutionPlan::outputSlot(int64_t node, int64_t k) const {
    if (node < 0 || node >= static_cast<int64_t>(steps.size())) return -1;
    const Step& s = steps[static_cast<size_t>(node)];
    return k >= 0 && k < s.outputCount ? static_cast<int32_t>(s.outputBegin + k) : -1;
}

int32_t ExecutionPlan::slotOfTensor(const ir::GraphIndex& index, std::string_view name) const {
    if (auto p = index.producerOfTensor(name)) return outputSlot(p->first, p->second);
    if (auto g = index.graphInputIndex(name)) return static_cast<int32_t>(*g);
    return -1;
}

ExecutionPlan buildExecutionPlan(const ir::Graph& graph, const ir::GraphIndex& index,
                                 int8_t (*dtypeOf)(const std::string& irDtype)) {
    ExecutionPlan plan;
    const auto& nodes = graph.nodes;
    const size_t n = nodes.size();

    // Every input's source, and each node's output count (the IR's outputs
    // and any index a consumer names past them).
    std::vector<Source> sources;
    // Every node keeps at least one result (the debugger's overlays look at
    // what a node returned even when the IR lists no output).
    std::vector<uint32_t> outputCount(n);
    for (size_t i = 0; i < n; ++i)
        outputCount[i] = std::max<uint32_t>(1, static_cast<uint32_t>(nodes[i].outputs.size()));
    std::unordered_map<std::string_view, int32_t> registryIndex;
    // A subclass accessor reads the stored part ("a.weight.qdata") in place
    // of its source and forwards it (ir/subclass_access.h).
    std::deque<std::string> partNames;
    std::vector<bool> readsPart(n, false);
    for (size_t i = 0; i < n; ++i) {
        std::optional<std::string> part;
        if (ir::isSubclassAccess(nodes[i])) part = ir::subclassPartName(graph, index, static_cast<int64_t>(i));
        for (size_t k = 0; k < nodes[i].inputs.size(); ++k) {
            const auto& in = nodes[i].inputs[k];
            Source s = sourceOf(graph, index, static_cast<int64_t>(i), in);
            std::string_view registryName = in.name;
            if (part && k == 0) {
                s = Source{};
                registryName = partNames.emplace_back(*part);
                readsPart[i] = true;
            }
            if (s.kind == Source::Kind::NodeOutput)
                outputCount[s.a] = std::max(outputCount[s.a], static_cast<uint32_t>(s.b + 1));
            else if (s.kind == Source::Kind::Registry) {
                auto [it, added] = registryIndex.emplace(registryName, static_cast<int32_t>(plan.registryNames.size()));
                if (added) plan.registryNames.emplace_back(registryName);
                s.a = it->second;
            }
            sources.push_back(s);
        }
    }

    plan.registryBase = static_cast<int32_t>(graph.graphInputs.size());
    plan.nodeOutputBase = plan.registryBase + static_cast<int32_t>(plan.registryNames.size());
    int64_t slots = plan.nodeOutputBase;
    plan.steps.resize(n);
    for (size_t i = 0; i < n; ++i) {
        plan.steps[i].outputBegin = static_cast<uint32_t>(slots);
        plan.steps[i].outputCount = outputCount[i];
        plan.steps[i].listedOutputs = static_cast<uint32_t>(nodes[i].outputs.size());
        slots += outputCount[i];
    }
    if (slots > INT32_MAX)
        throw std::length_error("the graph has too many values to run (" + std::to_string(slots) + ")");
    plan.slotCount = static_cast<int32_t>(slots);
    plan.lastUse.assign(static_cast<size_t>(slots), -1);
    plan.producer.assign(static_cast<size_t>(slots), -1);

    // Inputs as slots; last uses.
    plan.inputSlots.reserve(sources.size());
    size_t at = 0;
    for (size_t i = 0; i < n; ++i) {
        auto& step = plan.steps[i];
        step.inputBegin = static_cast<uint32_t>(plan.inputSlots.size());
        step.inputCount = static_cast<uint32_t>(nodes[i].inputs.size());
        step.getitemInput = readsPart[i] ? 0 : getitemInputOf(nodes[i]);
        for (size_t k = 0; k < nodes[i].inputs.size(); ++k, ++at) {
            const Source& s = sources[at];
            int32_t slot = 0;
            switch (s.kind) {
            case Source::Kind::GraphInput: slot = static_cast<int32_t>(s.a); break;
            case Source::Kind::Registry: slot = plan.registryBase + static_cast<int32_t>(s.a); break;
            case Source::Kind::NodeOutput: slot = plan.outputSlot(s.a, s.b); break;
            }
            plan.inputSlots.push_back(slot);
            plan.lastUse[static_cast<size_t>(slot)] = static_cast<int32_t>(i);
        }
        for (uint32_t k = 0; k < step.outputCount; ++k) plan.producer[step.outputBegin + k] = static_cast<int32_t>(i);
    }

    // What each node may free: node-output inputs it reads last (once each),
    // then its own outputs nobody reads.
    for (size_t i = 0; i < n; ++i) {
        auto& step = plan.steps[i];
        step.releaseBegin = static_cast<uint32_t>(plan.releaseSlots.size());
        for (uint32_t k = 0; k < step.inputCount; ++k) {
            const int32_t slot = plan.inputSlots[step.inputBegin + k];
            if (!plan.isNodeOutput(slot) || plan.lastUse[static_cast<size_t>(slot)] != static_cast<int32_t>(i))
                continue;
            auto first = plan.releaseSlots.begin() + step.releaseBegin;
            if (std::find(first, plan.releaseSlots.end(), slot) == plan.releaseSlots.end())
                plan.releaseSlots.push_back(slot);
        }
        for (uint32_t k = 0; k < step.outputCount; ++k)
            if (plan.lastUse[step.outputBegin + k] < 0)
                plan.releaseSlots.push_back(static_cast<int32_t>(step.outputBegin + k));
        step.releaseCount = static_cast<uint32_t>(plan.releaseSlots.size()) - step.releaseBegin;
    }

    // The IR's output metas.
    plan.checks.resize(static_cast<size_t>(slots - plan.nodeOutputBase));
    for (size_t i = 0; i < n; ++i)
        for (size_t k = 0; k < nodes[i].outputs.size(); ++k) {
            const auto& meta = nodes[i].outputs[k];
            auto& c = plan.checks[plan.steps[i].outputBegin + k - static_cast<size_t>(plan.nodeOutputBase)];
            c.dtype = dtypeOf(meta.dtype);
            // Checked only where every dim is a size (a symbol's is the run's).
            if (meta.shape.size() > 1024 || std::any_of(meta.shape.begin(), meta.shape.end(),
                                                        [](const ir::Dim& d) { return d.size().value_or(-1) < 0; }))
                continue;
            c.dimsBegin = static_cast<uint32_t>(plan.dims.size());
            c.rank = static_cast<int16_t>(meta.shape.size());
            for (const ir::Dim& d : meta.shape) plan.dims.push_back(*d.size());
        }
    return plan;
}

}  // namespace irscope::exec
