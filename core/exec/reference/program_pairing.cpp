#include "core/exec/reference/program_pairing.h"

#include <algorithm>
#include <map>
#include <optional>
#include <unordered_map>

#include "core/ir/graph_index.h"
#include "core/ir/subclass_access.h"

namespace irscope::exec {
namespace {

bool startsWith(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

bool isWeight(ir::TensorKind kind) {
    return kind == ir::TensorKind::Parameter || kind == ir::TensorKind::Buffer || kind == ir::TensorKind::Constant ||
           kind == ir::TensorKind::OtherWeight;
}

// A module whose ops quantization replaced (torchao's quantize_ turns a
// Linear's linear into t, mm, mul, add_) still ends in its output: the last
// op of the module in the quantized program stands for the last op of the
// same module in the float program, where their outputs agree in shape and
// dtype and the node has no pair of its own.
void pairModuleOutputs(const ir::Graph& q, const ir::Graph& f, const std::vector<QuantRole>& roles,
                       ProgramPairing& out) {
    auto lastOps = [](const ir::Graph& g, const std::vector<QuantRole>* roleOf) {
        std::map<std::string, size_t> last;
        for (size_t n = 0; n < g.nodes.size(); ++n) {
            const ir::OpNode& node = g.nodes[n];
            const auto& module = node.recordedModule();
            if (!module || module->empty() || node.outputs.empty()) continue;
            if (roleOf && (*roleOf)[n] != QuantRole::Compute) continue;
            last[*module] = n;
        }
        return last;
    };
    const auto fLast = lastOps(f, nullptr);
    for (const auto& [module, n] : lastOps(q, &roles)) {
        const auto fn = fLast.find(module);
        if (fn == fLast.end()) continue;
        const auto i = static_cast<int64_t>(n);
        if (std::any_of(out.outputs.begin(), out.outputs.end(), [&](const PairedOutput& p) { return p.node == i; }))
            continue;
        const ir::TensorMeta& a = q.nodes[n].outputs[0];
        const ir::OpNode& floatNode = f.nodes[fn->second];
        const ir::TensorMeta& b = floatNode.outputs[0];
        if (a.dtype != b.dtype || !ir::shapesAgree(a.shape, b.shape)) continue;
        out.outputs.push_back({i, 0, a.name, b.name, floatNode.name});
        std::erase_if(out.unpaired, [&](const UnpairedNode& u) { return u.node == i; });
    }
    std::stable_sort(out.outputs.begin(), out.outputs.end(),
                     [](const PairedOutput& x, const PairedOutput& y) { return x.node < y.node; });
}

}  // namespace

QuantRole quantRole(const ir::OpNode& node) {
    const std::string& op = node.opType;
    if (startsWith(op, "quantized_decomposed.quantize_") || startsWith(op, "torchao.quantize_affine"))
        return QuantRole::Quantize;
    if (startsWith(op, "quantized_decomposed.dequantize_") || startsWith(op, "torchao.dequantize_affine"))
        return QuantRole::Dequantize;
    if (startsWith(op, "quantized_decomposed.choose_qparams") || startsWith(op, "torchao.choose_qparams"))
        return QuantRole::QParams;
    return QuantRole::Compute;
}

ProgramPairing pairPrograms(const ir::Graph& q, const ir::Graph& f) {
    const ir::GraphIndex qi(q), fi(f);
    ProgramPairing out;
    std::vector<QuantRole> roles(q.nodes.size());
    std::vector<int64_t> pairedNode(q.nodes.size(), -1);  // the float node of a paired compute node
    std::unordered_map<int64_t, size_t> activationOf;     // quantize node -> index in out.activations

    // The float tensor a tensor of the quantized program stands for ("": none).
    auto floatOf = [&](const std::string& tensor) -> std::string {
        if (qi.graphInputIndex(tensor)) return fi.graphInputIndex(tensor) ? tensor : std::string();
        const auto p = qi.producerOfTensor(tensor);
        if (!p) return {};
        const auto node = static_cast<size_t>(p->first);
        if (roles[node] == QuantRole::Compute && pairedNode[node] >= 0) {
            const auto& fn = f.nodes[static_cast<size_t>(pairedNode[node])];
            const auto k = static_cast<size_t>(p->second);
            return k < fn.outputs.size() ? fn.outputs[k].name : std::string();
        }
        return {};
    };
    // The float node a compute node was made from: by the provenance a .pt2
    // records (from_node), else by name.
    std::unordered_map<std::string, int64_t> floatByOrigin;
    const auto originOf = [](const ir::OpNode& node) -> const std::string& {
        static const std::string none;
        return node.exported ? node.exported->origin : none;
    };
    for (size_t k = 0; k < f.nodes.size(); ++k)
        if (!originOf(f.nodes[k]).empty()) floatByOrigin.emplace(originOf(f.nodes[k]), static_cast<int64_t>(k));
    auto floatTwin = [&](const ir::OpNode& node) -> std::optional<int64_t> {
        if (const std::string& origin = originOf(node); !origin.empty()) {
            if (const auto byName = fi.nodeIndex(origin)) return byName;
            if (auto it = floatByOrigin.find(origin); it != floatByOrigin.end()) return it->second;
        }
        return fi.nodeIndex(node.name);
    };
    // A batch norm the quantized program no longer has, alone after float node
    // `fn` (its only reader): the node's output in the quantized program is the
    // norm's (-1: none).
    auto absorbedNorm = [&](int64_t fn) -> int64_t {
        const auto& users = fi.consumersOf(fn, 0);
        if (users.size() != 1) return -1;
        const auto& norm = f.nodes[static_cast<size_t>(users.front().node)];
        const bool isNorm = norm.opType == "aten.batch_norm.default" ||
                            norm.opType == "aten._native_batch_norm_legit_no_training.default";
        if (!isNorm || qi.nodeIndex(norm.name) || norm.outputs.empty()) return -1;
        if (norm.opType == "aten.batch_norm.default") return users.front().node;
        for (const auto& u : fi.consumersOf(users.front().node, 0))  // its getitem 0
            if (f.nodes[static_cast<size_t>(u.node)].isGetitem()) return u.node;
        return -1;
    };
    auto floatNodeOf = [&](const std::string& tensor) -> std::string {
        const auto p = fi.producerOfTensor(tensor);
        return p ? f.nodes[static_cast<size_t>(p->first)].name : std::string();
    };

    for (size_t n = 0; n < q.nodes.size(); ++n) {
        const ir::OpNode& node = q.nodes[n];
        roles[n] = quantRole(node);
        const auto i = static_cast<int64_t>(n);
        // A tensor-subclass weight (torchao's quantize_): its parts are read
        // here; the weight itself, rebuilt, is compared with the float one.
        if (ir::isSubclassAccess(node)) {
            out.unpaired.push_back({i, "a part of a tensor-subclass weight (see the weights)"});
            const std::string& source = node.inputs.empty() ? std::string() : node.inputs[0].name;
            const bool seen = std::any_of(out.weights.begin(), out.weights.end(),
                                          [&](const PairedWeight& w) { return w.placeholder == source; });
            if (!seen && isWeight(qi.kindOf(source))) {
                const std::string* original = qi.originalName(source);
                std::string reference = fi.kindOf(source) == qi.kindOf(source) ? source : std::string();
                if (original && !fi.placeholdersOf(*original).empty()) reference = fi.placeholdersOf(*original)[0];
                if (!reference.empty()) out.weights.push_back({source, -1, reference});
            }
            continue;
        }
        // A getitem of choose_qparams' pair is a parameter too.
        if (node.isGetitem() && !node.inputs.empty())
            if (const auto p = qi.producerOfTensor(node.inputs[0].name);
                p && roles[static_cast<size_t>(p->first)] == QuantRole::QParams)
                roles[n] = QuantRole::QParams;
        switch (roles[n]) {
        case QuantRole::QParams:
            out.unpaired.push_back({i, "quantization parameters (choose_qparams): not a float tensor"});
            break;
        case QuantRole::Quantize: {
            out.unpaired.push_back({i, "quantize: an integer tensor; it is compared after its dequantize"});
            if (!node.inputs.empty() && !isWeight(qi.kindOf(node.inputs[0].name))) {
                activationOf[i] = out.activations.size();
                out.activations.push_back({i, node.inputs[0].name, {}});
            }
            break;
        }
        case QuantRole::Dequantize: {
            if (node.inputs.empty() || node.outputs.empty()) {
                out.unpaired.push_back({i, "dequantize without an input"});
                break;
            }
            const std::string& source = node.inputs[0].name;
            if (isWeight(qi.kindOf(source))) {
                // A weight read back: the float weight its consumer reads in the float program.
                PairedWeight w{source, i, {}};
                const auto& users = qi.consumersOf(i, 0);
                for (const auto& use : users) {
                    const auto c = static_cast<size_t>(use.node);
                    const auto fc = fi.nodeIndex(q.nodes[c].name);
                    if (!fc || f.nodes[*fc].opType != q.nodes[c].opType) continue;
                    const auto& fin = f.nodes[*fc].inputs;
                    if (static_cast<size_t>(use.input) < fin.size()) {
                        w.referencePlaceholder = fin[static_cast<size_t>(use.input)].name;
                        // The norm itself (a getitem of the legit form leads back to it).
                        if (int64_t norm = absorbedNorm(*fc); norm >= 0) {
                            if (f.nodes[static_cast<size_t>(norm)].isGetitem())
                                if (auto p = fi.producerOfTensor(f.nodes[static_cast<size_t>(norm)].inputs[0].name))
                                    norm = p->first;
                            w.foldedNorm = norm;
                        }
                        break;
                    }
                }
                out.weights.push_back(std::move(w));
                out.unpaired.push_back({i, "a weight read back to float (see the weights)"});
                break;
            }
            const auto p = qi.producerOfTensor(source);
            if (!p || roles[static_cast<size_t>(p->first)] != QuantRole::Quantize) {
                out.unpaired.push_back({i, "dequantize of '" + source + "', which no quantize node makes"});
                break;
            }
            const auto& quantize = q.nodes[static_cast<size_t>(p->first)];
            if (auto a = activationOf.find(p->first); a != activationOf.end())
                out.activations[a->second].dequantize.push_back(i);
            const std::string floatTensor = quantize.inputs.empty() ? std::string() : floatOf(quantize.inputs[0].name);
            if (floatTensor.empty()) {
                out.unpaired.push_back({i, "the tensor it quantizes has no pair in the float program"});
                break;
            }
            out.outputs.push_back({i, 0, node.outputs[0].name, floatTensor, floatNodeOf(floatTensor)});
            break;
        }
        case QuantRole::Compute: {
            const auto fn = floatTwin(node);
            if (!fn) {
                out.unpaired.push_back({i, "no node named '" + node.name + "' in the float program"});
                break;
            }
            const auto& fnode = f.nodes[static_cast<size_t>(*fn)];
            if (fnode.opType != node.opType) {
                out.unpaired.push_back(
                    {i, "the float program's '" + fnode.name + "' is " + fnode.opType + ", not " + node.opType});
                break;
            }
            pairedNode[n] = *fn;
            // A conv or linear that absorbed the batch norm after it (PT2E folds it
            // in) stands for the batch norm's output.
            if (const auto absorbed = absorbedNorm(*fn); absorbed >= 0 && !node.outputs.empty()) {
                const auto& norm = f.nodes[static_cast<size_t>(absorbed)];
                out.outputs.push_back({i, 0, node.outputs[0].name, norm.outputs[0].name, norm.name});
                break;
            }
            for (size_t k = 0; k < node.outputs.size() && k < fnode.outputs.size(); ++k)
                out.outputs.push_back({i, k, node.outputs[k].name, fnode.outputs[k].name, fnode.name});
            break;
        }
        }
    }
    pairModuleOutputs(q, f, roles, out);
    return out;
}

}  // namespace irscope::exec
