#include "core/exec/reference/quantization_compare.h"

#include "core/exec/engine/subclass_values.h"
#include "core/io/catalog/tensor_subclass.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <set>

#include <ATen/ATen.h>

#include "core/exec/engine/session.h"
#include "core/exec/numerics/error_metrics.h"
#include "core/io/tensor_map.h"
#include "core/ir/graph_index.h"

namespace irscope::exec {
namespace {

// SQNR of the first graph output.
double outputSqnr(const io::TensorMap& run, const io::TensorMap& reference) {
    const at::Tensor* a = run.find("output:0");
    const at::Tensor* r = reference.find("output:0");
    if (!a || !r || !a->sizes().equals(r->sizes())) return std::nan("");
    return errorMetrics(a->to(at::kDouble), r->to(at::kDouble)).sqnrDb;
}

const at::Tensor* floatWeight(const ir::GraphIndex& index, const io::TensorMap& weights,
                              const std::string& placeholder) {
    if (const at::Tensor* t = weights.find(placeholder)) return t;
    if (const std::string* original = index.originalName(placeholder)) return weights.find(*original);
    return nullptr;
}

// The float weight scaled by the batch norm PT2E folded into its conv, as
// fuse_conv_bn_weights does: w * (gamma * rsqrt(running_var + eps)) per output
// channel. Undefined when the norm's values are not there.
at::Tensor foldNorm(const ir::Graph& f, const ir::GraphIndex& fi, const io::TensorMap& weights, int64_t norm,
                    const at::Tensor& weight) {
    const auto& node = f.nodes[static_cast<size_t>(norm)];
    auto value = [&](size_t k) -> const at::Tensor* {
        return k < node.inputs.size() ? floatWeight(fi, weights, node.inputs[k].name) : nullptr;
    };
    // (input, weight, bias, running_mean, running_var) affine; (input, running_mean, running_var) without.
    const bool affine = node.inputs.size() >= 5;
    const at::Tensor* gamma = affine ? value(1) : nullptr;
    const at::Tensor* var = value(affine ? 4 : 2);
    if (!var || (affine && !gamma)) return {};
    const double eps =
        node.attrs.contains("eps") && node.attrs["eps"].is_number() ? node.attrs["eps"].get<double>() : 1e-5;
    at::Tensor scale = at::rsqrt(*var + eps);
    if (gamma) scale = *gamma * scale;
    std::vector<int64_t> shape(static_cast<size_t>(weight.dim()), 1);
    shape[0] = -1;
    return weight * scale.reshape(shape);
}

// The channel axis of a tensor-subclass weight: the one dim its blocks do
// not span (block_size [1, K] of an [N, K] weight: per row, axis 0); -1 when
// its blocks are not per channel.
int64_t subclassChannelAxis(const ir::GraphIndex& index, const io::TensorMap& weights, const std::string& placeholder) {
    const std::string* original = index.originalName(placeholder);
    const io::SubclassTensor* s = weights.subclass(original ? *original : placeholder);
    if (!s || s->layout->blockSize.size() != s->shape.size()) return -1;
    int64_t axis = -1;
    for (size_t d = 0; d < s->shape.size(); ++d) {
        const int64_t block = s->layout->blockSize[d];
        if (block == 1 && s->shape[d] > 1) {
            if (axis >= 0) return -1;
            axis = static_cast<int64_t>(d);
        } else if (block != s->shape[d]) {
            return -1;
        }
    }
    return axis;
}

WeightError measureWeight(const ir::Graph& q, const PairedWeight& w, const at::Tensor& readBack,
                          const at::Tensor& reference, int64_t subclassAxis) {
    WeightError e;
    e.weight = w.placeholder;
    e.referenceWeight = w.referencePlaceholder;
    const at::Tensor a = readBack.to(at::kDouble), r = reference.to(at::kDouble);
    e.sqnrDb = errorMetrics(a, r).sqnrDb;
    if (w.dequantize >= 0) {
        const auto& dq = q.nodes[static_cast<size_t>(w.dequantize)];
        if (dq.attrs.contains("axis") && dq.attrs["axis"].is_number_integer()) e.axis = dq.attrs["axis"].get<int64_t>();
    } else {
        e.axis = subclassAxis;
    }
    if (e.axis < 0 || e.axis >= a.dim()) {
        e.axis = -1;
        return e;
    }
    std::vector<double> mse;
    for (int64_t c = 0; c < a.size(e.axis); ++c) {
        const ErrorMetrics m = errorMetrics(a.select(e.axis, c), r.select(e.axis, c));
        e.channelSqnrDb.push_back(m.sqnrDb);
        mse.push_back(m.mse);
    }
    std::vector<double> sorted = mse;
    std::sort(sorted.begin(), sorted.end());
    const double median = sorted.empty() ? 0 : sorted[sorted.size() / 2];
    for (size_t c = 0; c < mse.size(); ++c)
        if (mse[c] > 10 * median && mse[c] > 0) e.outlierChannels.push_back(static_cast<int64_t>(c));
    return e;
}

}  // namespace

io::TensorMap runProgram(const ir::Graph& program, const io::TensorMap& weights, const io::TensorMap& inputs,
                         const char* which, std::string& problem, bool everyNode) {
    Session s(program, everyNode ? RetentionPolicy::KeepAll : RetentionPolicy::FreeAfterLastUse);
    s.setWeights(weights);
    s.setInputs(inputs);
    io::TensorMap all;
    if (const auto missing = s.preflight(); !missing.empty()) {
        problem = std::string("the ") + which + " program lacks " + formatMissingValue(missing.front());
        return all;
    }
    const RunResult r = s.runToEnd();
    if (r.error) {
        problem =
            std::string("the ") + which + " program failed at node '" + r.error->nodeName + "': " + r.error->message;
        return all;
    }
    if (everyNode) s.intermediates(all);
    io::TensorMap outs;
    s.outputs(outs);
    size_t k = 0;
    for (const auto& e : outs) all.insert("output:" + std::to_string(k++), e.tensor);
    return all;
}

ir::Graph keepInFloat(const ir::Graph& quantized, const ActivationQuantizer& activation) {
    ir::Graph g = quantized;
    const ir::TensorMeta source = g.nodes[static_cast<size_t>(activation.quantize)].inputs.at(0);
    std::set<std::string> readBack;
    for (int64_t d : activation.dequantize)
        for (const auto& o : g.nodes[static_cast<size_t>(d)].outputs) readBack.insert(o.name);
    auto rewire = [&](ir::TensorMeta& in) {
        if (!readBack.count(in.name)) return;
        const auto shape = in.shape;
        const auto dtype = in.dtype;
        in = source;
        in.shape = shape;
        in.dtype = dtype;
    };
    for (auto& node : g.nodes)
        for (auto& in : node.inputs) rewire(in);
    for (auto& out : g.graphOutputs) rewire(out);
    return g;
}

QuantizationComparison compareQuantized(const ir::Graph& q, const io::TensorMap& qWeights, const ir::Graph& f,
                                        const io::TensorMap& fWeights, const io::TensorMap& inputs,
                                        const QuantizationCompareOptions& options) {
    QuantizationComparison out;
    out.pairing = pairPrograms(q, f);
    const io::TensorMap fRun = runProgram(f, fWeights, inputs, "float", out.problem);
    if (!out.problem.empty()) return out;
    const io::TensorMap qRun = runProgram(q, qWeights, inputs, "quantized", out.problem);
    if (!out.problem.empty()) return out;
    const ir::GraphIndex fi(f), qi(q);

    for (const auto& p : out.pairing.outputs) {
        const at::Tensor* a = qRun.find(p.tensor);
        const at::Tensor* r = fRun.find(p.referenceTensor);
        if (!r) r = inputs.find(p.referenceTensor);  // a graph input
        if (!a || !r || !a->defined() || !r->defined() || !a->sizes().equals(r->sizes()) ||
            !at::isFloatingType(a->scalar_type()) || !at::isFloatingType(r->scalar_type()))
            continue;
        const ErrorMetrics m = errorMetrics(a->to(at::kDouble), r->to(at::kDouble));
        PairedError e;
        e.node = p.node;
        e.nodeName = q.nodes[static_cast<size_t>(p.node)].name;
        e.output = p.tensor;
        e.referenceNode = p.referenceNode;
        e.referenceTensor = p.referenceTensor;
        e.sqnrDb = m.sqnrDb;
        e.mse = m.mse;
        e.maxAbs = m.maxAbs;
        e.cosine = m.cosine;
        out.nodes.push_back(std::move(e));
    }
    out.outputSqnrDb = outputSqnr(qRun, fRun);

    // Tensor-subclass weights as their value (a copy of the map only when one lacks it).
    std::optional<io::TensorMap> withValues;
    if (lacksSubclassValues(qWeights)) withValues = withSubclassValues(qWeights);
    const io::TensorMap& rebuilt = withValues ? *withValues : qWeights;
    for (const auto& w : out.pairing.weights) {
        const at::Tensor* readBack = nullptr;
        if (w.dequantize >= 0) {
            const auto& dq = q.nodes[static_cast<size_t>(w.dequantize)];
            readBack = dq.outputs.empty() ? nullptr : qRun.find(dq.outputs[0].name);
        } else {
            readBack = floatWeight(qi, rebuilt, w.placeholder);
        }
        const at::Tensor* reference = floatWeight(fi, fWeights, w.referencePlaceholder);
        if (!readBack || !reference || !readBack->sizes().equals(reference->sizes())) continue;
        const at::Tensor folded = w.foldedNorm >= 0 ? foldNorm(f, fi, fWeights, w.foldedNorm, *reference) : *reference;
        if (!folded.defined()) continue;
        out.weights.push_back(measureWeight(q, w, *readBack, folded, subclassChannelAxis(qi, qWeights, w.placeholder)));
    }

    if (options.sensitivity) {
        for (const auto& a : out.pairing.activations) {
            if (a.dequantize.empty()) continue;
            std::string problem;
            // Only its output counts: the rerun keeps nothing else.
            const io::TensorMap run =
                runProgram(keepInFloat(q, a), qWeights, inputs, "quantized", problem, /*everyNode=*/false);
            if (!problem.empty()) continue;
            out.sensitivity.push_back({q.nodes[static_cast<size_t>(a.quantize)].name, a.input, outputSqnr(run, fRun)});
        }
        std::stable_sort(out.sensitivity.begin(), out.sensitivity.end(),
                         [](const Sensitivity& x, const Sensitivity& y) { return x.outputSqnrDb > y.outputSqnrDb; });
    }
    return out;
}

}  // namespace irscope::exec
