#pragma once
// ReferenceRun: the same graph run a second time as the reference, with
// other weights (`--reference-weights W2`: did the fine-tune or the
// conversion change this op?) or in another dtype (`--reference-dtype
// bfloat16`: what does bfloat16 do to my model, node by node). float16 and
// bfloat16 run as torch.autocast runs a model on the CPU (weights stay
// float32, each op's inputs cast by autocast's rules; an op libtorch cannot
// compute in the reduced dtype computes in float32 and noteOf says so);
// float64 and float32 cast every floating value, also those made inside
// the graph.
//
// It runs in lockstep with the checked run: asked for node i, it runs its
// own nodes up to i and hands out their results, so under
// FreeAfterLastUse neither run keeps more than it needs. Asked for a node it
// ran before, it answers from what it kept, or starts over.
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/exec/engine/executor.h"
#include "core/exec/reference/reference_source.h"

namespace irscope::exec {

// "float64", "float32", "float16", "bfloat16"; nullopt for anything else.
std::optional<at::ScalarType> referenceDtype(const std::string& name);

// Every floating tensor cast to `dtype`; others as they are.
io::TensorMap castFloating(const io::TensorMap& values, at::ScalarType dtype);

class ReferenceRun : public ReferenceSource {
public:
    // `graph` must outlive the run. `dtype`: cast every floating value.
    ReferenceRun(const ir::Graph& graph, const io::TensorMap& weights, const io::TensorMap& constants,
                 const io::TensorMap& inputs, std::optional<at::ScalarType> dtype, RetentionPolicy policy);
    ~ReferenceRun() override;

    at::Tensor referenceOf(int64_t node, size_t output, const std::string& tensorName) override;
    bool dtypeMayDiffer() const override { return dtype_.has_value(); }
    std::string noteOf(int64_t node) const override;
    void reset() override;

    // A value of the reference run by tensor name (kept values only). Any
    // thread: the tensor viewer shows the reference beside the run's value
    // while the run lane steps both.
    at::Tensor valueOf(const std::string& tensorName) const;
    std::vector<MissingValue> preflight() const { return exec_.preflight(); }

private:
    class Capture;
    Executor exec_;
    std::optional<at::ScalarType> dtype_;
    std::unique_ptr<Capture> capture_;  // node i's results before the policy frees them
    int64_t cursor_ = 0;                // next node to run
    std::vector<std::string> scratch_;
    mutable std::mutex mutex_;  // exec_ between the run thread and valueOf's readers
};

}  // namespace irscope::exec
