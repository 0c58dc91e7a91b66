#pragma once
// Internal: reports computeLayout's progress through LayoutOptions::progress
// and turns a "cancel" answer into LayoutCancelled. Each phase owns a slice
// [begin, end) of the run; inside it, advance() reports at most once per
// kStride units of work, so the long loops pay one counter update per unit.
#include <algorithm>
#include <cstdint>

#include "core/layout/layout.h"

namespace irscope::layout::detail {

class Progress {
public:
    static constexpr int64_t kStride = 4096;

    explicit Progress(const LayoutProgress* fn = nullptr) : fn_(fn != nullptr && *fn ? fn : nullptr) {}

    bool active() const { return fn_ != nullptr; }

    // Enters a phase covering [begin, end) of the whole run and reports its start.
    void phase(const char* name, double begin, double end) {
        name_ = name;
        begin_ = begin;
        end_ = end;
        done_ = 0;
        next_ = kStride;
        report(0);
    }
    // `units` more units of work done in this phase out of about `total`.
    void advance(int64_t units, int64_t total) {
        if (fn_ == nullptr) return;
        done_ += units;
        if (done_ < next_) return;
        next_ = done_ + kStride;
        report(total > 0 ? static_cast<double>(done_) / static_cast<double>(total) : 0);
    }
    // Reports `within` (0 to 1) of the current phase.
    void report(double within) {
        if (fn_ == nullptr) return;
        const double f = std::max(last_, begin_ + (end_ - begin_) * std::clamp(within, 0.0, 1.0));
        last_ = f;
        if (!(*fn_)(f, name_)) throw LayoutCancelled();
    }
    void finish() {
        if (fn_ == nullptr) return;
        last_ = 1;
        name_ = "done";
        if (!(*fn_)(1.0, name_)) throw LayoutCancelled();
    }

private:
    const LayoutProgress* fn_;
    const char* name_ = "";
    double begin_ = 0, end_ = 0, last_ = 0;
    int64_t done_ = 0, next_ = kStride;
};

}  // namespace irscope::layout::detail
