#pragma once
// A run against its reference (expected outputs, reference intermediates),
// in verify.h's terms: one tensor's Comparison with the reasons it cannot be
// compared, and the first node in execution order whose output diverges.
// Torch-free: widget files include this.
#include <cstdint>
#include <string>

#include "core/exec/numerics/verify.h"

namespace irscope::exec {

struct DivergenceInfo {
    bool found = false;
    int64_t node = -1;
    std::string nodeName, opType, tensor;
    Comparison diff;
    int64_t compared = 0;
    std::string message;  // "first divergence at node 'mul_4' ..." or "N computed tensors match the reference"
    // What the divergence is (divergence_kind.h): "decision", "noise" or
    // "value", and the sentence that says so; "" where it was not judged
    // (a reference run, local mode).
    std::string kind, explanation;
};

// `actual` / `reference` may be undefined: the Comparison says why ("no
// reference value for 'x'", "'x' has no value yet").
Comparison compareWithReference(const std::string& name, const at::Tensor& actual, const at::Tensor& reference,
                                const Tolerance& tolerance);

DivergenceInfo firstDivergence(const Session& session, const io::TensorMap& references, const Tolerance& tolerance);

}  // namespace irscope::exec
