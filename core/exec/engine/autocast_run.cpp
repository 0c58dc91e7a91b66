// Executor::runAutocast: a node of a reference run in another dtype
// (Executor::setAutocast, reference_run.h). The node's inputs are swapped for
// cast copies in the value slots for the duration of the call and put back
// after, so the fast path, the boxed path and the in-place bookkeeping all run
// unchanged, and no cast copy outlives its node.
#include "core/exec/engine/executor.h"

#include <exception>

#include <ATen/ATen.h>

#include "core/exec/engine/autocast_rules.h"
#include "core/exec/engine/exec_error.h"

namespace irscope::exec {
namespace {

bool reduced(at::ScalarType t) { return t == at::kHalf || t == at::kBFloat16; }

// A widest floating dtype among defined inputs: float64 > float32 > the rest.
int widthRank(at::ScalarType t) {
    switch (t) {
    case at::kDouble: return 3;
    case at::kFloat: return 2;
    default: return 1;
    }
}

}  // namespace

void Executor::runAutocast(int64_t i, std::vector<std::string>& diags) {
    const auto& step = plan_.steps[static_cast<size_t>(i)];
    if (step.getitemInput != ExecutionPlan::kNotGetitem || !graph_.nodes[static_cast<size_t>(i)].subgraphs.empty()) {
        runGeneral(i, diags);
        return;
    }
    // torch.export's checks of a tensor's dtype (and device, shape) hold for
    // the graph as exported; a reference in another dtype breaks them on
    // purpose, so they check nothing here (they return nothing either).
    if (graph_.nodes[static_cast<size_t>(i)].opType.rfind("aten._assert_tensor_metadata.", 0) == 0) {
        resultCount_[static_cast<size_t>(i)] = 0;
        return;
    }
    BoundOp* op = bound_[static_cast<size_t>(i)].get();
    if (!op) op = bind(i);
    const at::ScalarType dtype = autocast_->dtype;

    // float64 / float32: the weights and inputs were cast before the run;
    // what a node makes anew (zeros, arange, a .to(float32)) is cast right
    // after it, once, so views and in-place writes into it stay on the one
    // tensor every later node reads.
    if (autocast_->everyOp) {
        try {
            runGeneral(i, diags);
        } catch (const ExecError& e) {
            // An op defined for float32 only (PT2E's quantize_per_tensor and
            // its kin refuse float64): the wide run computes it as the
            // program does, on its inputs rounded to float32, and says so.
            if (dtype != at::kDouble) throw;
            const std::exception_ptr failure = std::current_exception();
            const std::string reason = e.reason();
            try {
                castInputs(i, *op, at::kFloat, false);
                if (castSaved_.empty()) throw std::runtime_error("no float64 input");
                runGeneral(i, diags);
            } catch (...) {
                restoreCastInputs();
                std::rethrow_exception(failure);
            }
            restoreCastInputs();
            fallbacks_[i] = reason;
        }
        for (uint32_t k = 0; k < step.outputCount; ++k) {
            at::Tensor& out = values_[step.outputBegin + k];
            if (out.defined() && at::isFloatingType(out.scalar_type()) && out.scalar_type() != dtype &&
                !aliasesAnInput(i, out)) {
                try {
                    out = out.to(dtype);
                } catch (const std::exception& e) {
                    failNode(i, std::string("casting its result to the reference's dtype: ") + e.what());
                }
            }
        }
        return;
    }

    // Where the inputs go for this op.
    std::optional<at::ScalarType> target;
    bool lowerPrecision = false;
    switch (autocastRuleOf(graph_.nodes[static_cast<size_t>(i)].opType)) {
    case AutocastRule::LowerPrecision:
        target = dtype;
        lowerPrecision = true;
        break;
    case AutocastRule::Float32:
        target = at::kFloat;
        lowerPrecision = true;  // autocast never casts float64, under any rule
        break;
    case AutocastRule::Promote: {
        int best = 0;
        for (uint32_t k = 0; k < step.inputCount; ++k) {
            const at::Tensor& v = values_[static_cast<size_t>(plan_.inputSlots[step.inputBegin + k])];
            if (v.defined() && at::isFloatingType(v.scalar_type()) && widthRank(v.scalar_type()) > best) {
                best = widthRank(v.scalar_type());
                target = v.scalar_type();
            }
        }
        break;
    }
    case AutocastRule::Keep: break;
    }

    // Every path below puts the node's inputs back, also when libtorch throws
    // something other than the node's failure (a cast out of memory).
    std::exception_ptr failure;
    bool anyReduced = false;
    try {
        if (target) {
            anyReduced = castInputs(i, *op, *target, lowerPrecision);
        } else {
            for (uint32_t k = 0; k < step.inputCount; ++k) {
                const at::Tensor& v = values_[static_cast<size_t>(plan_.inputSlots[step.inputBegin + k])];
                anyReduced = anyReduced || (v.defined() && reduced(v.scalar_type()));
            }
        }
        runGeneral(i, diags);
        restoreCastInputs();
        return;
    } catch (const ExecError&) {
        failure = std::current_exception();
    } catch (const std::exception& e) {
        restoreCastInputs();
        failNode(i, e.what());
    }
    if (!anyReduced) {
        restoreCastInputs();
        std::rethrow_exception(failure);
    }
    // No kernel for the reduced dtype in this libtorch, or a dtype clash
    // autocast's lists do not settle: the op computes in float32.
    runWidened(i, diags, failure, dtype);
}

}  // namespace irscope::exec
