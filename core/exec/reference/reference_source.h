#pragma once
// ReferenceSource: where the value a node output should have comes from.
// A run is compared against either a tensor file keyed by node output
// names (an `irscope run --dump`, a PyTorch dump) or a second run of the
// same graph (other weights, another dtype: reference_run.h). The check
// (reference_check.h) asks for node i's outputs right after node i ran, in
// execution order, which lets a second run go in lockstep without keeping
// its intermediates. Internal to core (torch headers).
#include <cstdint>
#include <string>

#include <ATen/core/Tensor.h>

#include "core/io/tensor_map.h"

namespace irscope::exec {

class ReferenceSource {
public:
    virtual ~ReferenceSource() = default;
    // The reference for output `output` of node `node` (the tensor named
    // `tensorName`); undefined when the reference has none. Throws ExecError
    // when a reference run cannot compute it.
    virtual at::Tensor referenceOf(int64_t node, size_t output, const std::string& tensorName) = 0;
    // The reference's dtype may differ from the run's by design (a float64
    // run): then a dtype difference is not a failure.
    virtual bool dtypeMayDiffer() const { return false; }
    // What to know about node `node`'s reference beyond its value ("computed
    // in float32: no bfloat16 kernel"); empty for most. After referenceOf.
    virtual std::string noteOf(int64_t) const { return {}; }
    // The run being checked went back to its start.
    virtual void reset() {}
};

// A tensor file's values by name (kept alive by the source).
class TensorMapReference : public ReferenceSource {
public:
    explicit TensorMapReference(io::TensorMap values) : values_(std::move(values)) {}
    at::Tensor referenceOf(int64_t, size_t, const std::string& tensorName) override {
        const at::Tensor* t = values_.find(tensorName);
        return t ? *t : at::Tensor();
    }
    const io::TensorMap& values() const { return values_; }

private:
    io::TensorMap values_;
};

}  // namespace irscope::exec
