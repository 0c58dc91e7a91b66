// Executor::runAutocast: a node of a reference run in another dtype
// (Executor::setAutocast, reference_run.h). The node's inputs are swapped for
// cast copies in the value slots for the duration of the call and put back
// after, so the fast path, the boxed path and the in-place bookkeeping all run
// unchanged, and no cast copy outlives its node.
#include "core/exec/executor.h"

#include <ATen/ATen.h>

#include "core/exec/exec_error.h"
#include "core/exec/reference/autocast_rules.h"

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

// libtorch's words only: the first line, without the advice irscope adds to a
// missing-kernel error (the note says what the reference did instead).
std::string reasonOf(const std::string& s) {
    std::string r = s.substr(0, s.find('\n'));
    const size_t advice = r.find(" (this libtorch");
    return advice == std::string::npos ? r : r.substr(0, advice);
}

}  // namespace

// Casts the node's floating, not-written inputs to `target` (with
// `lowerPrecision`, float64 stays: autocast casts only float32 down).
// True when any input is in a reduced dtype afterwards.
bool Executor::castInputs(int64_t i, const BoundOp& op, at::ScalarType target, bool lowerPrecision) {
    const auto& step = plan_.steps[static_cast<size_t>(i)];
    bool anyReduced = false;
    for (uint32_t k = 0; k < step.inputCount; ++k) {
        const int32_t slot = plan_.inputSlots[step.inputBegin + k];
        at::Tensor& v = values_[static_cast<size_t>(slot)];
        if (!v.defined() || !at::isFloatingType(v.scalar_type())) continue;
        const bool written = std::find(op.writtenInputs.begin(), op.writtenInputs.end(), static_cast<int32_t>(k)) !=
                             op.writtenInputs.end();
        if (!written && v.scalar_type() != target && !(lowerPrecision && v.scalar_type() == at::kDouble)) {
            castSaved_.emplace_back(slot, v);
            v = v.to(target);
        }
        anyReduced = anyReduced || reduced(v.scalar_type());
    }
    return anyReduced;
}

void Executor::restoreCastInputs() {
    for (auto it = castSaved_.rbegin(); it != castSaved_.rend(); ++it)
        values_[static_cast<size_t>(it->first)] = std::move(it->second);
    castSaved_.clear();
}

void Executor::runAutocast(int64_t i, std::vector<std::string>& diags) {
    const auto& step = plan_.steps[static_cast<size_t>(i)];
    if (step.getitemInput != ExecutionPlan::kNotGetitem) {
        runGeneral(i, diags);
        return;
    }
    BoundOp* op = bound_[static_cast<size_t>(i)].get();
    if (!op) op = bind(i);
    const at::ScalarType dtype = autocast_->dtype;

    // Where the inputs go for this op.
    std::optional<at::ScalarType> target;
    bool lowerPrecision = false;
    if (autocast_->everyOp) {
        target = dtype;
    } else {
        switch (autocastRuleOf(graph_.nodes[static_cast<size_t>(i)].opType)) {
        case AutocastRule::LowerPrecision:
            target = dtype;
            lowerPrecision = true;
            break;
        case AutocastRule::Float32: target = at::kFloat; break;
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
    }

    bool anyReduced = false;
    if (target) {
        anyReduced = castInputs(i, *op, *target, lowerPrecision);
    } else {
        for (uint32_t k = 0; k < step.inputCount; ++k) {
            const at::Tensor& v = values_[static_cast<size_t>(plan_.inputSlots[step.inputBegin + k])];
            anyReduced = anyReduced || (v.defined() && reduced(v.scalar_type()));
        }
    }
    try {
        runGeneral(i, diags);
        restoreCastInputs();
        return;
    } catch (const ExecError& e) {
        if (!anyReduced) {
            restoreCastInputs();
            throw;
        }
        // No kernel for the reduced dtype in this libtorch, or a dtype clash
        // autocast's lists do not settle: the op computes in float32, on its
        // inputs as the reduced kernel would have had them (already rounded),
        // and its results are rounded to the reduced dtype, as that kernel's
        // would be (they accumulate in float32 too).
        at::ScalarType reducedType = dtype;
        for (uint32_t k = 0; k < step.inputCount; ++k) {
            const at::Tensor& v = values_[static_cast<size_t>(plan_.inputSlots[step.inputBegin + k])];
            if (v.defined() && reduced(v.scalar_type())) {
                reducedType = v.scalar_type();
                break;
            }
        }
        const std::string reason = reasonOf(e.reason());
        try {
            castInputs(i, *op, at::kFloat, false);
            runGeneral(i, diags);
        } catch (const ExecError&) {
            restoreCastInputs();
            throw e;
        }
        restoreCastInputs();
        for (uint32_t k = 0; k < step.outputCount; ++k) {
            at::Tensor& out = values_[step.outputBegin + k];
            if (out.defined() && out.scalar_type() == at::kFloat) out = out.to(reducedType);
        }
        fallbacks_[i] = reason;
    }
}

}  // namespace irscope::exec
