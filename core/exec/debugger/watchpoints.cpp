#include "core/exec/debugger/watchpoints.h"

#include <ATen/ATen.h>
#include <ATen/core/grad_mode.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "core/exec/reference/reference_check.h"
#include "core/exec/values/value_text.h"
#include "core/ir/graph.h"

namespace irscope::exec {
namespace {

std::string number(double v) { return shortNumber(v, 6); }

struct Scan {
    int64_t nan = 0, inf = 0;
    double maxAbs = 0;  // over finite elements
};

template <typename T>
void scanAs(const T* p, int64_t n, Scan& s) {
    for (int64_t k = 0; k < n; ++k) {
        const auto x = static_cast<double>(p[k]);
        if (!std::isfinite(x)) [[unlikely]] {
            s.nan += std::isnan(x);
            s.inf += std::isinf(x);
            continue;
        }
        s.maxAbs = std::max(s.maxAbs, std::fabs(x));
    }
}

// NaN, Inf and max |x| of a tensor; in place for contiguous floats, else in float64.
Scan scan(const at::Tensor& tensor) {
    Scan s;
    if (!tensor.defined() || tensor.numel() == 0) return s;
    at::Tensor t = tensor.is_quantized() ? tensor.dequantize() : tensor;
    if (t.is_sparse()) t = t.to_dense();
    if (t.is_contiguous() && t.device().is_cpu()) {
        switch (t.scalar_type()) {
        case at::kFloat: scanAs(t.data_ptr<float>(), t.numel(), s); return s;
        case at::kDouble: scanAs(t.data_ptr<double>(), t.numel(), s); return s;
        case at::kHalf: scanAs(t.data_ptr<at::Half>(), t.numel(), s); return s;
        case at::kBFloat16: scanAs(t.data_ptr<at::BFloat16>(), t.numel(), s); return s;
        default: break;
        }
    }
    at::NoGradGuard guard;
    at::Tensor d = at::isComplexType(t.scalar_type()) ? at::view_as_real(t.to(at::kComplexDouble)) : t.to(at::kDouble);
    d = d.contiguous();
    scanAs(d.data_ptr<double>(), d.numel(), s);
    return s;
}

}  // namespace

Watchpoints::Watchpoints(const ir::Graph& graph, std::shared_ptr<ReferenceCheck> check)
    : graph_(graph), check_(std::move(check)) {}

void Watchpoints::setGlobal(const WatchCondition& c) {
    std::lock_guard lock(mutex_);
    global_ = c;
    armed_ = global_.any() || !perNode_.empty();
}
WatchCondition Watchpoints::global() const {
    std::lock_guard lock(mutex_);
    return global_;
}
void Watchpoints::setNode(int64_t node, const WatchCondition& c) {
    std::lock_guard lock(mutex_);
    if (c.any())
        perNode_[node] = c;
    else
        perNode_.erase(node);
    armed_ = global_.any() || !perNode_.empty();
}
std::map<int64_t, WatchCondition> Watchpoints::nodes() const {
    std::lock_guard lock(mutex_);
    return perNode_;
}
void Watchpoints::setCheck(std::shared_ptr<ReferenceCheck> check) {
    std::lock_guard lock(mutex_);
    check_ = std::move(check);
}

void Watchpoints::reset() {
    std::lock_guard lock(mutex_);
    hit_.reset();
}

std::optional<WatchHit> Watchpoints::lastHit() const {
    std::lock_guard lock(mutex_);
    return hit_;
}

std::string Watchpoints::whyStopped() const {
    std::lock_guard lock(mutex_);
    return hit_ ? hit_->why : std::string();
}

bool Watchpoints::afterNode(int64_t i, std::span<at::Tensor> outputs) {
    if (!armed_) return false;  // no watch set: nothing to look at, no lock taken
    std::unique_lock lock(mutex_);
    WatchCondition c = global_;
    if (auto it = perNode_.find(i); it != perNode_.end()) c |= it->second;
    std::shared_ptr<ReferenceCheck> check = check_;
    lock.unlock();
    if (!c.any()) return false;
    const auto& node = graph_.nodes[static_cast<size_t>(i)];
    auto fire = [&](size_t k, const std::string& why) {
        std::lock_guard relock(mutex_);
        const std::string name = k < node.outputs.size() ? " '" + node.outputs[k].name + "'" : std::string();
        hit_ =
            WatchHit{i, static_cast<int64_t>(k), "'" + node.name + "' output " + std::to_string(k) + name + " " + why};
        return true;
    };
    if (c.nan || c.inf || c.absMax) {
        for (size_t k = 0; k < outputs.size(); ++k) {
            if (!outputs[k].defined()) continue;
            const Scan s = scan(outputs[k]);
            const std::string of = " of " + std::to_string(outputs[k].numel());
            if (c.nan && s.nan > 0) return fire(k, "has " + std::to_string(s.nan) + " NaN" + of);
            if (c.inf && s.inf > 0) return fire(k, "has " + std::to_string(s.inf) + " Inf" + of);
            if (c.absMax && s.maxAbs > *c.absMax)
                return fire(k, "has max |x| " + number(s.maxAbs) + " > " + number(*c.absMax));
        }
    }
    if (c.diff && check && check->measure(i, outputs)) {
        const ErrorReport rep = check->report();
        for (auto it = rep.outputs.rbegin(); it != rep.outputs.rend() && it->node == i; ++it)
            if (it->failing) {
                const ErrorMetrics& m = it->metrics;
                std::string why = !m.problem.empty() ? "cannot be compared with the reference: " + m.problem
                                  : m.ok && it->dtypeDiffers
                                      ? std::string("has another dtype than the reference")
                                      : "differs from the reference: max abs " + number(m.maxAbs) + ", " +
                                            std::to_string(m.mismatches) + " of " + std::to_string(m.numel) +
                                            " outside the tolerance";
                return fire(static_cast<size_t>(it->index), why);
            }
    }
    return false;
}

}  // namespace irscope::exec
