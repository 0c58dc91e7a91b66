// Executor::runAutocast: a node of a reference run in another dtype
// (Executor::setAutocast, reference_run.h). The node's inputs are swapped for
// cast copies in the value slots for the duration of the call and put back
// after, so the fast path, the boxed path and the in-place bookkeeping all run
// unchanged, and no cast copy outlives its node.
#include "core/exec/engine/executor.h"

#include <exception>

#include <ATen/ATen.h>

#include "core/exec/engine/exec_error.h"
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

// Whether `t` shares storage with any of node `i`'s inputs (a view, an
// in-place op's result): such a result must stay what it is, or writes
// through it would stop reaching the tensor it views.
bool Executor::aliasesAnInput(int64_t i, const at::Tensor& t) const {
    const auto& step = plan_.steps[static_cast<size_t>(i)];
    for (uint32_t k = 0; k < step.inputCount; ++k) {
        const at::Tensor& v = values_[static_cast<size_t>(plan_.inputSlots[step.inputBegin + k])];
        if (v.defined() && t.is_alias_of(v)) return true;
    }
    return false;
}

void Executor::runAutocast(int64_t i, std::vector<std::string>& diags) {
    const auto& step = plan_.steps[static_cast<size_t>(i)];
    if (step.getitemInput != ExecutionPlan::kNotGetitem) {
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
        runGeneral(i, diags);
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
    // autocast's lists do not settle: the op computes in float32, on its
    // inputs as the reduced kernel would have had them (already rounded),
    // and its fresh results are rounded to the reduced dtype, as that
    // kernel's would be (they accumulate in float32 too).
    at::ScalarType reducedType = dtype;
    for (uint32_t k = 0; k < step.inputCount; ++k) {
        const at::Tensor& v = values_[static_cast<size_t>(plan_.inputSlots[step.inputBegin + k])];
        if (v.defined() && reduced(v.scalar_type())) {
            reducedType = v.scalar_type();
            break;
        }
    }
    std::string reason;
    try {
        std::rethrow_exception(failure);
    } catch (const ExecError& e) {
        reason = reasonOf(e.reason());
    }
    try {
        castInputs(i, *op, at::kFloat, false);
        runGeneral(i, diags);
    } catch (...) {
        restoreCastInputs();
        std::rethrow_exception(failure);  // the reduced dtype's own reason
    }
    restoreCastInputs();
    if (op->writtenInputs.empty())
        for (uint32_t k = 0; k < step.outputCount; ++k) {
            at::Tensor& out = values_[step.outputBegin + k];
            if (out.defined() && out.scalar_type() == at::kFloat && !aliasesAnInput(i, out)) out = out.to(reducedType);
        }
    fallbacks_[i] = reason;
}

}  // namespace irscope::exec
