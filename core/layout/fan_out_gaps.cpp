#include "core/layout/fan_out_gaps.h"

namespace irscope::layout::detail {

FanOutGaps::FanOutGaps(const Adjacency& preds, const Adjacency& succs, const std::vector<char>& weight,
                       const std::vector<int32_t>& layer) {
    const auto n = static_cast<int32_t>(weight.size());
    weightFed_.assign(n, 0);
    spread_.assign(n, 0);
    for (int32_t v = 0; v < n; ++v) {
        if (weight[v]) continue;
        for (int32_t u : preds[v]) weightFed_[v] = weightFed_[v] || weight[u];
    }
    // Consumers, not edges: an op reading v twice (x * x) counts once.
    std::vector<int32_t> countedFor(n, -1);
    for (int32_t v = 0; v < n; ++v) {
        if (weight[v]) continue;
        int32_t fed = 0;
        for (int32_t s : succs[v]) {
            if (!weightFed_[s] || layer[s] != layer[v] + 1 || countedFor[s] == v) continue;
            countedFor[s] = v;
            ++fed;
        }
        spread_[v] = fed >= kGapFanOut;
    }
}

bool FanOutGaps::any() const {
    for (char s : spread_)
        if (s) return true;
    return false;
}

}  // namespace irscope::layout::detail
