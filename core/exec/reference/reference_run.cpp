#include "core/exec/reference/reference_run.h"

#include <ATen/ATen.h>
#include <ATen/core/grad_mode.h>

#include "core/exec/engine/exec_error.h"
#include "core/io/tensor_dtype.h"

namespace irscope::exec {

std::optional<at::ScalarType> referenceDtype(const std::string& name) {
    if (name == "float64") return at::kDouble;
    if (name == "float32") return at::kFloat;
    if (name == "float16") return at::kHalf;
    if (name == "bfloat16") return at::kBFloat16;
    return std::nullopt;
}

io::TensorMap castFloating(const io::TensorMap& values, at::ScalarType dtype) {
    io::TensorMap out;
    at::NoGradGuard guard;
    for (const auto& e : values.entries()) {
        const bool floating = e.tensor.defined() && at::isFloatingType(e.tensor.scalar_type());
        out.insert(e.name, floating ? e.tensor.to(dtype) : e.tensor, e.source);
    }
    return out;
}

// Keeps the handles of the last node's results: the reference run frees
// under the same policy as the checked run, and a result nothing consumes
// is freed the moment its node returns.
class ReferenceRun::Capture : public NodeInspector {
public:
    bool afterNode(int64_t node, std::span<at::Tensor> outputs) override {
        node_ = node;
        results_.assign(outputs.begin(), outputs.end());
        return false;
    }
    void reset() override {
        node_ = -1;
        results_.clear();
    }
    int64_t node_ = -1;
    std::vector<at::Tensor> results_;
};

ReferenceRun::ReferenceRun(const ir::Graph& graph, const io::TensorMap& weights, const io::TensorMap& constants,
                           const io::TensorMap& inputs, std::optional<at::ScalarType> dtype, RetentionPolicy policy)
    : exec_(graph), dtype_(dtype), capture_(std::make_unique<Capture>()) {
    // float64 / float32: every floating value in that dtype, also those made
    // inside the graph. float16 / bfloat16: as torch.autocast runs a model,
    // weights and inputs as they are, each op's inputs cast by its rule.
    const bool everything = dtype && !(*dtype == at::kHalf || *dtype == at::kBFloat16);
    if (dtype) exec_.setAutocast(Executor::Autocast{*dtype, everything});
    if (everything) exec_.setDtypeCheck(false);  // every value is cast to `dtype` on purpose
    exec_.setWeights(everything ? castFloating(weights, *dtype) : weights);
    exec_.setConstants(everything ? castFloating(constants, *dtype) : constants);
    exec_.setInputs(everything ? castFloating(inputs, *dtype) : inputs);
    exec_.setRetention(policy);
    exec_.setInspectors({capture_.get()});
}

ReferenceRun::~ReferenceRun() = default;

at::Tensor ReferenceRun::valueOf(const std::string& tensorName) const {
    std::lock_guard lock(mutex_);
    return exec_.valueOf(tensorName);
}

std::string ReferenceRun::noteOf(int64_t node) const {
    std::lock_guard lock(mutex_);
    const auto& fallbacks = exec_.widenedNodes();
    const auto it = fallbacks.find(node);
    return it == fallbacks.end() ? std::string()
                                 : "the reference computed this op in float32 (in " + io::scalarTypeName(*dtype_) +
                                       ": " + it->second + ")";
}

void ReferenceRun::reset() {
    std::lock_guard lock(mutex_);
    exec_.reset();
    capture_->reset();
    cursor_ = 0;
}

at::Tensor ReferenceRun::referenceOf(int64_t node, size_t output, const std::string&) {
    std::unique_lock lock(mutex_);
    if (node < 0 || node >= static_cast<int64_t>(exec_.graph().nodes.size())) return {};
    if (node < cursor_) {
        if (node == capture_->node_)
            return output < capture_->results_.size() ? capture_->results_[output] : at::Tensor();
        const auto kept = exec_.outputsOf(node);
        if (output < kept.size() && kept[output].defined()) return kept[output];
        exec_.reset();  // freed since: run again from the start
        capture_->reset();
        cursor_ = 0;
    }
    if (cursor_ == 0) exec_.bindAll();
    while (cursor_ <= node) {
        try {
            exec_.runNode(cursor_, scratch_);
        } catch (const ExecError& e) {
            // Session reports the checked run's node; the reason names the reference's.
            throw ExecError(e.node(), e.opType(),
                            "the reference run failed at node '" + e.node() + "' (" + e.opType() + "): " + e.reason());
        }
        ++cursor_;
    }
    return output < capture_->results_.size() ? capture_->results_[output] : at::Tensor();
}

}  // namespace irscope::exec
