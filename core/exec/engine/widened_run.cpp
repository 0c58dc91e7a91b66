// Executor::runWidened: a node whose kernel this libtorch lacks for float16
// or bfloat16 (libtorch 1.13 has no CPU half matmul, for one) computes in
// float32 on its inputs as the reduced kernel would have had them (already
// rounded), and its fresh results are rounded back to the reduced dtype, as
// that kernel's would be (PyTorch's CPU half kernels accumulate in float32
// too). The user's own run takes this path when such a node fails, and so
// does a reduced-precision reference run (engine/autocast_run.cpp). Each
// node that did is kept with libtorch's reason (Executor::widenedNodes), so
// the run summary and Properties can say so.
//
// The node's inputs are swapped for cast copies in the value slots for the
// duration of the call and put back after, so the fast path, the boxed path
// and the in-place bookkeeping all run unchanged, and no cast copy outlives
// its node.
#include "core/exec/engine/executor.h"

#include <exception>

#include <ATen/ATen.h>

#include "core/exec/engine/exec_error.h"

namespace irscope::exec {
namespace {

bool reduced(at::ScalarType t) { return t == at::kHalf || t == at::kBFloat16; }

// libtorch's words only: the first line, without the advice irscope adds to a
// missing-kernel error (the note says what the reference did instead).
std::string reasonOf(const std::string& s) {
    std::string r = s.substr(0, s.find('\n'));
    const size_t advice = r.find(" (this libtorch");
    return advice == std::string::npos ? r : r.substr(0, advice);
}

}  // namespace

bool lacksReducedPrecisionKernel(const std::string& why) {
    return why.find("not implemented for 'Half'") != std::string::npos ||
           why.find("not implemented for 'BFloat16'") != std::string::npos;
}

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

void Executor::runWidened(int64_t i, std::vector<std::string>& diags, std::exception_ptr failure,
                          at::ScalarType fallbackType) {
    const auto& step = plan_.steps[static_cast<size_t>(i)];
    BoundOp* op = bound_[static_cast<size_t>(i)].get();
    if (!op) op = bind(i);
    at::ScalarType reducedType = fallbackType;
    bool anyReduced = false;
    for (uint32_t k = 0; k < step.inputCount; ++k) {
        const at::Tensor& v = values_[static_cast<size_t>(plan_.inputSlots[step.inputBegin + k])];
        if (v.defined() && reduced(v.scalar_type())) {
            reducedType = v.scalar_type();
            anyReduced = true;
            break;
        }
    }
    if (!anyReduced && !reduced(fallbackType)) {
        restoreCastInputs();
        std::rethrow_exception(failure);
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
