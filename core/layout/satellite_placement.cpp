#include "core/layout/satellite_placement.h"

#include <algorithm>
#include <limits>

#include "core/layout/separation.h"

namespace irscope::layout::detail {

namespace {

// Mean x of v's neighbours above and below; its own x when it has none.
double target(const LayeredGraph& g, int32_t v, const std::vector<double>& x) {
    double s = 0;
    size_t k = 0;
    for (int32_t u : g.up[v]) s += x[u], ++k;
    for (int32_t u : g.down[v]) s += x[u], ++k;
    return k == 0 ? x[v] : s / static_cast<double>(k);
}

struct Pool {
    double sum;
    size_t count;
    double mean() const { return sum / static_cast<double>(count); }
};

// Isotonic least squares (pool adjacent violators): the nondecreasing z
// nearest y, then clamped to [lo, hi] (optimal under those bounds too).
// `pools` is the caller's scratch: a layout places hundreds of runs, and a
// list per run was half of the coordinate phase's allocations.
void isotonic(const std::vector<double>& y, double lo, double hi, std::vector<Pool>& pools, std::vector<double>& z) {
    pools.clear();
    for (double v : y) {
        pools.push_back({v, 1});
        while (pools.size() > 1 && pools[pools.size() - 2].mean() >= pools.back().mean()) {
            pools[pools.size() - 2].sum += pools.back().sum;
            pools[pools.size() - 2].count += pools.back().count;
            pools.pop_back();
        }
    }
    z.clear();
    for (const Pool& p : pools) z.insert(z.end(), p.count, std::clamp(p.mean(), lo, hi));
}

}  // namespace

void placeSatellites(const LayeredGraph& g, const std::vector<double>& room, const LayoutOptions& options,
                     std::vector<double>& x) {
    constexpr double kInf = std::numeric_limits<double>::infinity();
    std::vector<double> offset, y, z;
    std::vector<Pool> pools;
    for (const auto& layer : g.layers) {
        const size_t k = layer.size();
        for (size_t i = 0; i < k;) {
            if (g.alignsFreely(layer[i])) {
                ++i;
                continue;
            }
            size_t j = i;  // the run is [i, j)
            while (j < k && !g.alignsFreely(layer[j])) ++j;
            // y = target minus the run's separations so far: the gaps hold iff y is nondecreasing.
            offset.assign(1, 0.0);
            for (size_t m = i + 1; m < j; ++m)
                offset.push_back(offset.back() + separation(g, room, layer[m - 1], layer[m], options));
            y.clear();
            for (size_t m = i; m < j; ++m) y.push_back(target(g, layer[m], x) - offset[m - i]);
            const double lo = i > 0 ? x[layer[i - 1]] + separation(g, room, layer[i - 1], layer[i], options) : -kInf;
            const double hi =
                j < k ? x[layer[j]] - separation(g, room, layer[j - 1], layer[j], options) - offset.back() : kInf;
            // The current x satisfies the bounds; keep it if rounding made them cross.
            if (lo <= hi) {
                isotonic(y, lo, hi, pools, z);
                for (size_t m = i; m < j; ++m) x[layer[m]] = z[m - i] + offset[m - i];
            }
            i = j;
        }
    }
}

}  // namespace irscope::layout::detail
