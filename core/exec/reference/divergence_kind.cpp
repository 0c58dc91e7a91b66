#include "core/exec/reference/divergence_kind.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include <ATen/ATen.h>

#include "core/exec/engine/attr_convert.h"
#include "core/exec/engine/session.h"
#include "core/exec/numerics/verify.h"
#include "core/exec/reference/reference_run.h"

namespace irscope::exec {
namespace {

bool opStarts(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

bool isComparisonOp(const std::string& op) {
    for (const char* p : {"aten.eq.", "aten.ne.", "aten.lt.", "aten.le.", "aten.gt.", "aten.ge."})
        if (opStarts(op, p)) return true;
    return false;
}
// Ops whose output `output` holds indices chosen by comparing values.
bool choosesIndices(const std::string& op, size_t output) {
    if (opStarts(op, "aten.argmax") || opStarts(op, "aten.argmin") || opStarts(op, "aten.argsort")) return true;
    for (const char* p :
         {"aten.topk", "aten.sort", "aten.max.dim", "aten.min.dim", "aten.kthvalue", "aten.median.dim", "aten.mode"})
        if (opStarts(op, p)) return output == 1;
    return false;
}
// Ops that round to an integer grid (floor_divide and round.decimals are not).
bool roundsToIntegers(const std::string& op) {
    for (const char* p :
         {"aten.floor.default", "aten.ceil.default", "aten.round.default", "aten.trunc.default", "aten.sign.default",
          "aten.floor_.default", "aten.ceil_.default", "aten.round_.default", "aten.trunc_.default"})
        if (op == p) return true;
    return false;
}
// Quantizing ops round x / scale to an integer grid: they decide at the halves.
bool quantizesValues(const std::string& op) {
    for (const char* p : {"torchao.quantize_affine", "quantized_decomposed.quantize_per_tensor",
                          "quantized_decomposed.quantize_per_channel", "quantized_decomposed.quantize_per_token"})
        if (opStarts(op, p)) return true;
    return false;
}
// torchao's quantize_affine: x / scale with each scale spread over its block,
// in float64; undefined when the block size does not tile x.
at::Tensor scaledForQuantize(const ir::OpNode& node, const std::vector<at::Tensor>& inputs) {
    const auto block = node.attrs.find("block_size");
    if (inputs.size() < 2 || !inputs[1].defined() || block == node.attrs.end() || !block->is_array() ||
        block->size() != static_cast<size_t>(inputs[0].dim()))
        return {};
    at::Tensor scale = inputs[1].to(at::kDouble);
    std::vector<int64_t> blocks;
    for (int64_t d = 0; d < inputs[0].dim(); ++d) {
        const auto& b = (*block)[static_cast<size_t>(d)];
        if (!b.is_number_integer() || b.get<int64_t>() <= 0 || inputs[0].size(d) % b.get<int64_t>() != 0) return {};
        blocks.push_back(inputs[0].size(d) / b.get<int64_t>());
    }
    int64_t count = 1;
    for (int64_t b : blocks) count *= b;
    if (scale.numel() != count) return {};
    scale = scale.reshape(blocks);
    for (int64_t d = 0; d < inputs[0].dim(); ++d)
        scale = scale.repeat_interleave(inputs[0].size(d) / blocks[static_cast<size_t>(d)], d);
    return inputs[0].to(at::kDouble) / scale;
}

// Ops that place values between boundaries: they decide, at thresholds of their own.
bool bucketsValues(const std::string& op) {
    return opStarts(op, "aten.bucketize") || opStarts(op, "aten.searchsorted");
}
bool isCast(const std::string& op) {
    return opStarts(op, "aten._to_copy") || opStarts(op, "aten.to.") || opStarts(op, "aten._to_dtype");
}
// A cast decides only from floats to integers or bools (truncation); an
// upcast of bfloat16 to float32 decides nothing.
bool castsFloatToInteger(const ir::OpNode& node, const std::vector<at::Tensor>& inputs, const at::Tensor& actual) {
    return isCast(node.opType) && !inputs.empty() && inputs[0].defined() && actual.defined() &&
           at::isFloatingType(inputs[0].scalar_type()) && !at::isFloatingType(actual.scalar_type()) &&
           !at::isComplexType(actual.scalar_type());
}

double largestMagnitude(const at::Tensor& t) { return t.numel() == 0 ? 0.0 : t.abs().max().item<double>(); }

std::string shortFigure(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3g", v);
    return buf;
}

// Where the two outputs disagree, as a bool mask of the output's shape.
at::Tensor flippedElements(const at::Tensor& actual, const at::Tensor& reference) {
    return actual.ne(reference.to(actual.scalar_type()));
}

// The largest distance from the threshold among the flipped elements.
double decisionMargin(const ir::OpNode& node, size_t output, const std::vector<at::Tensor>& inputs,
                      const at::Tensor& actual, const at::Tensor& reference) {
    const std::string& op = node.opType;
    if (inputs.empty() || !inputs[0].defined() || actual.sizes() != reference.sizes())
        return std::numeric_limits<double>::quiet_NaN();
    const at::Tensor flipped = flippedElements(actual, reference);
    if (!flipped.any().item<bool>()) return std::numeric_limits<double>::quiet_NaN();
    const at::Tensor x = inputs[0].to(at::kDouble);
    if (isComparisonOp(op)) {
        // The distance in the dtype the op compares in (a Python number
        // becomes the tensor's dtype: 0.3 is 0.3f against a float32 tensor).
        // A bool operand has no distance of its own: measured in float64.
        const bool floats = at::isFloatingType(inputs[0].scalar_type()) &&
                            (inputs.size() < 2 || !inputs[1].defined() || at::isFloatingType(inputs[1].scalar_type()));
        const at::Tensor a = floats ? inputs[0] : inputs[0].to(at::kDouble);
        at::Tensor distance;
        if (inputs.size() > 1 && inputs[1].defined())
            distance = at::sub(a, floats ? inputs[1] : inputs[1].to(at::kDouble));
        else if (auto it = node.attrs.find("other"); it != node.attrs.end() && it->is_number())
            distance = at::sub(a, c10::Scalar(it->get<double>()));
        else
            return std::numeric_limits<double>::quiet_NaN();
        return largestMagnitude(distance.to(at::kDouble).abs().expand(actual.sizes()).masked_select(flipped));
    }
    if (choosesIndices(op, output)) {
        int64_t dim = -1;
        if (auto it = node.attrs.find("dim"); it != node.attrs.end() && it->is_number_integer())
            dim = it->get<int64_t>();
        const bool flat = (opStarts(op, "aten.argmax") || opStarts(op, "aten.argmin")) &&
                          (node.attrs.find("dim") == node.attrs.end() || node.attrs["dim"].is_null());
        const at::Tensor values = flat ? x.reshape({-1}) : x;
        const int64_t d = flat ? 0 : dim;
        const bool keep = flat || actual.dim() == values.dim();
        const at::Tensor a = keep ? actual.reshape(flat ? at::IntArrayRef{-1} : actual.sizes()) : actual.unsqueeze(d);
        const at::Tensor r = keep ? reference.reshape(a.sizes()) : reference.unsqueeze(d);
        const at::Tensor gap = (values.gather(d, a.to(at::kLong)) - values.gather(d, r.to(at::kLong))).abs();
        const at::Tensor mask = keep ? flipped.reshape(gap.sizes()) : flipped.unsqueeze(d);
        return largestMagnitude(gap.masked_select(mask));
    }
    if (opStarts(op, "torchao.quantize_affine")) {
        const at::Tensor scaled = scaledForQuantize(node, inputs);
        if (!scaled.defined() || scaled.sizes() != actual.sizes()) return std::numeric_limits<double>::quiet_NaN();
        return largestMagnitude(((scaled - scaled.floor()) - 0.5).abs().masked_select(flipped));
    }
    if ((roundsToIntegers(op) || castsFloatToInteger(node, inputs, actual)) && x.sizes() == actual.sizes()) {
        // Distance to the nearest integer boundary (a half for round).
        const at::Tensor frac = x - x.floor();
        const at::Tensor distance = opStarts(op, "aten.round") ? (frac - 0.5).abs() : at::min(frac, 1.0 - frac);
        return largestMagnitude(distance.masked_select(flipped));
    }
    return std::numeric_limits<double>::quiet_NaN();
}

// A higher-order op computes inside its subgraphs, at any depth: a float16
// value there rounds its float32 result to float16's steps.
void widenBandBySubgraphs(const ir::OpNode& node, DtypeTolerance& band) {
    for (const auto& subgraph : node.subgraphs) {
        if (!subgraph.graph) continue;
        for (const auto& inner : subgraph.graph->nodes) {
            for (const auto& out : inner.outputs)
                if (const auto st = scalarTypeOfIrDtype(out.dtype);
                    st && at::isFloatingType(*st) && defaultTolerance(*st).rtol > band.rtol)
                    band = defaultTolerance(*st);
            widenBandBySubgraphs(inner, band);
        }
    }
}

}  // namespace

const char* divergenceKindName(DivergenceKind kind) {
    switch (kind) {
    case DivergenceKind::Decision: return "decision";
    case DivergenceKind::Noise: return "noise";
    case DivergenceKind::Value: return "value";
    }
    return "value";
}

bool isDecidingOp(const std::string& opType, size_t output) {
    return isComparisonOp(opType) || choosesIndices(opType, output) || roundsToIntegers(opType) ||
           bucketsValues(opType) || quantizesValues(opType);
}

DivergenceExplanation classifyDivergence(const ir::OpNode& node, size_t output, const std::vector<at::Tensor>& inputs,
                                         const std::vector<at::Tensor>& referenceInputs, const at::Tensor& actual,
                                         const at::Tensor& reference, const at::Tensor& fp64,
                                         const Tolerance& tolerance) {
    DivergenceExplanation e;
    // A decision: every input the reference has matches it (floats within
    // tolerance, the rest exactly), at least one float input carries a
    // difference, and the op is one that decides.
    bool inputsMatch = true, anyFloat = false;
    for (size_t k = 0; k < inputs.size() && k < referenceInputs.size(); ++k) {
        const at::Tensor& a = inputs[k];
        const at::Tensor& r = referenceInputs[k];
        if (!a.defined() || !r.defined()) continue;
        const Comparison c = compareTensors(node.inputs[k].name, a, r, tolerance);
        if (!c.problem.empty() || !c.matched) {
            inputsMatch = false;
            break;
        }
        if (at::isFloatingType(a.scalar_type())) {
            anyFloat = true;
            if (c.maxAbsDiff > e.inputDifference || e.carrier.empty()) {
                e.inputDifference = c.maxAbsDiff;
                e.carrier = node.inputs[k].name;
            }
        }
    }
    const bool decides = isDecidingOp(node.opType, output) || castsFloatToInteger(node, inputs, actual);
    if (decides && inputsMatch && anyFloat) {
        e.kind = DivergenceKind::Decision;
        e.margin = decisionMargin(node, output, inputs, actual, reference);
        e.words = "a flipped decision: '" + node.name + "' (" + node.opType +
                  ") decides, and its inputs match the reference within tolerance; the flipped elements were " +
                  (std::isnan(e.margin) ? std::string("near its threshold")
                   : e.margin == 0      ? std::string("exactly on its threshold or tie")
                                        : "at most " + shortFigure(e.margin) + " from its threshold or tie") +
                  ", where input '" + e.carrier + "' differs from the reference by up to " +
                  shortFigure(e.inputDifference);
        return e;
    }
    if (fp64.defined() && actual.defined() && reference.defined() && at::isFloatingType(actual.scalar_type()) &&
        actual.sizes() == fp64.sizes() && reference.sizes() == fp64.sizes()) {
        const at::Tensor truth = fp64.to(at::kDouble);
        e.irscopeVsFp64 = largestMagnitude(actual.to(at::kDouble) - truth);
        e.referenceVsFp64 = largestMagnitude(reference.to(at::kDouble) - truth);
        // Rounding is judged by the dtype, not by the tolerance the user
        // compares with: "no farther" up to two steps of the coarsest dtype
        // the op reads or writes, its subgraphs included (in bfloat16 one
        // step of the last bit is 0.4%, and which of two runs lands a step
        // nearer is chance; a float16 value cast up to float32 carries
        // float16's steps), and the reference
        // itself within a hundred such bands (a reference off by 1.0 is wrong,
        // not noisy).
        DtypeTolerance band = defaultTolerance(actual.scalar_type());
        for (const auto& in : inputs)
            if (in.defined() && at::isFloatingType(in.scalar_type()) &&
                defaultTolerance(in.scalar_type()).rtol > band.rtol)
                band = defaultTolerance(in.scalar_type());
        widenBandBySubgraphs(node, band);
        const double slack = 2 * (band.atol + band.rtol * largestMagnitude(truth));
        const bool noFarther = e.irscopeVsFp64 <= e.referenceVsFp64 + slack;
        if (noFarther && e.referenceVsFp64 <= 100 * (e.irscopeVsFp64 + slack)) {
            e.kind = DivergenceKind::Noise;
            e.words = "float noise: this run's value is no farther from a float64 run of the same program (max abs " +
                      shortFigure(e.irscopeVsFp64) + ") than the reference's is (" + shortFigure(e.referenceVsFp64) +
                      ", within the dtype's rounding): not a wrong op";
            return e;
        }
        if (noFarther) {
            e.kind = DivergenceKind::Value;
            e.words = "a wrong value in the reference: this run's '" + node.name +
                      "' is near a float64 run of the "
                      "same program (max abs " +
                      shortFigure(e.irscopeVsFp64) + "), the reference's is far from it (" +
                      shortFigure(e.referenceVsFp64) + ")";
            return e;
        }
    }
    e.kind = DivergenceKind::Value;
    e.words = "a wrong value: '" + node.name + "' (" + node.opType + ") computes another value than the reference" +
              (std::isnan(e.irscopeVsFp64) ? std::string()
                                           : ", farther from a float64 run (max abs " + shortFigure(e.irscopeVsFp64) +
                                                 ") than the reference (" + shortFigure(e.referenceVsFp64) + ")");
    return e;
}

DivergenceExplanation explainDivergence(const ir::Graph& graph, const io::TensorMap& weights,
                                        const io::TensorMap& constants, const io::TensorMap& inputs, int64_t node,
                                        size_t output, const ReferenceLookup& reference, const Tolerance& tolerance) {
    const ir::OpNode& op = graph.nodes.at(static_cast<size_t>(node));
    // A getitem of a tuple (sort's indices) is judged as the op that made the
    // tuple, on that op's inputs.
    const ir::OpNode* decider = &op;
    size_t deciderOutput = output;
    if (op.isGetitem() && !op.inputs.empty() && op.inputs.front().producerNode)
        for (const auto& n : graph.nodes)
            if (n.name == *op.inputs.front().producerNode) {
                decider = &n;
                const auto index = op.attrs.find("index");
                deciderOutput = index != op.attrs.end() && index->is_number_integer()
                                    ? static_cast<size_t>(index->get<int64_t>())
                                    : 0;
            }
    // This run's inputs and output of the node, again: the checked run freed them.
    Session run(graph, RetentionPolicy::FreeAfterLastUse);
    run.setWeights(weights);
    run.setConstants(constants);
    run.setInputs(inputs);
    for (const auto& in : decider->inputs) run.setPinned(in.name, true);
    const std::string outName = output < op.outputs.size() ? op.outputs[output].name : std::string();
    run.setPinned(outName, true);
    const RunResult stopped = run.runTo(node);
    if (stopped.reason == StopReason::Failed || stopped.reason == StopReason::MissingValue ||
        run.state(node) != NodeState::Done)
        throw std::runtime_error("the program did not run to '" + op.name + "' again" +
                                 (stopped.error ? ": " + stopped.error->message : std::string()));
    std::vector<at::Tensor> values, references;
    for (const auto& in : decider->inputs) {
        at::Tensor v;
        run.value(in.name, v);
        values.push_back(v);
        references.push_back(reference(in.name));
    }
    at::Tensor actual;
    run.value(outName, actual);
    const at::Tensor expected = reference(outName);
    DivergenceExplanation e =
        classifyDivergence(*decider, deciderOutput, values, references, actual, expected, at::Tensor(), tolerance);
    if (e.kind == DivergenceKind::Decision || !actual.defined() || !at::isFloatingType(actual.scalar_type())) return e;
    // A float64 run of the same program on the same inputs, up to the node;
    // it holds every floating weight in float64, so not for a model whose
    // weights would take more than 4 GiB that way.
    size_t widened = 0;
    for (const auto& w : weights)
        if (w.tensor.defined() && at::isFloatingType(w.tensor.scalar_type()))
            widened += static_cast<size_t>(w.tensor.numel()) * 8;
    if (widened > (size_t{4} << 30)) {
        e.words += " (not weighed against a float64 run: the weights would take " + std::to_string(widened >> 30) +
                   " GiB in float64)";
        return e;
    }
    at::Tensor truth;
    try {
        ReferenceRun fp64(graph, weights, constants, inputs, at::kDouble, RetentionPolicy::FreeAfterLastUse);
        truth = fp64.referenceOf(node, output, outName);
    } catch (const std::exception& failure) {
        // Some ops have no float64 form (PT2E's quantize takes float32 only):
        // the difference stays unweighed, and says why.
        e.words +=
            " (not weighed against a float64 run, which cannot run this program: " + std::string(failure.what()) + ")";
        return e;
    }
    return classifyDivergence(*decider, deciderOutput, values, references, actual, expected, truth, tolerance);
}

}  // namespace irscope::exec
