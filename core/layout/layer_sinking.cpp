#include "core/layout/layer_sinking.h"

#include <algorithm>
#include <climits>

namespace irscope::layout::detail {

namespace {

constexpr int kMaxPasses = 4;  // a pass moves every chain that can move; later ones catch knock-on gains

}  // namespace

void sinkTowardConsumers(const std::vector<int32_t>& order, const Adjacency& preds, const Adjacency& succs,
                         const std::vector<char>& weight, const FanOutGaps& gap, std::vector<int32_t>& layer) {
    for (int pass = 0; pass < kMaxPasses; ++pass) {
        bool moved = false;
        for (auto it = order.rbegin(); it != order.rend(); ++it) {
            const int32_t v = *it;
            if (weight[v] || succs[v].empty()) continue;
            int32_t above = 0;
            for (int32_t u : preds[v]) above += weight[u] ? 0 : 1;
            if (above > static_cast<int32_t>(succs[v].size())) continue;
            int32_t lowest = INT32_MAX;
            for (int32_t s : succs[v]) lowest = std::min(lowest, layer[s] - gap(v, s));
            if (lowest > layer[v]) {
                layer[v] = lowest;
                moved = true;
            }
        }
        if (!moved) break;
    }
}

}  // namespace irscope::layout::detail
