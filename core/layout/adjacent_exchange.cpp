#include "core/layout/adjacent_exchange.h"

#include <algorithm>
#include <span>

#include "core/layout/crossing_count.h"
#include "core/layout/small_sort.h"

namespace irscope::layout::detail {

PairCrossings pairCrossings(std::span<const int32_t> a, std::span<const int32_t> b) {
    PairCrossings c;
    size_t below = 0, notAbove = 0;  // ends in B < x, and <= x
    const auto nb = static_cast<int64_t>(b.size());
    for (int32_t x : a) {
        while (below < b.size() && b[below] < x) ++below;
        if (notAbove < below) notAbove = below;
        while (notAbove < b.size() && b[notAbove] <= x) ++notAbove;
        c.now += static_cast<int64_t>(below);
        c.swapped += nb - static_cast<int64_t>(notAbove);
    }
    return c;
}

namespace {

constexpr int kTransposePasses = 8;  // per visit of a layer

// The sorted ends of the layer's vertices, above and below (TransposeScratch).
class LayerEnds {
public:
    LayerEnds(const LayeredGraph& g, const std::vector<int32_t>& layer, TransposeScratch& s) : g_(g), s_(s) {
        if (s.upAt.size() < static_cast<size_t>(g.vertexCount())) {
            s.upAt.resize(g.vertexCount());
            s.downAt.resize(g.vertexCount());
        }
        fill(layer, g.up, s.upEnds, s.upAt);
        fill(layer, g.down, s.downEnds, s.downAt);
    }

    std::span<const int32_t> up(int32_t v) const { return {s_.upEnds.data() + s_.upAt[v], g_.up[v].size()}; }
    std::span<const int32_t> down(int32_t v) const { return {s_.downEnds.data() + s_.downAt[v], g_.down[v].size()}; }

    // The ends of layer[from, to) on one side, merged and sorted, in out;
    // a single vertex's own slice needs no copy.
    std::span<const int32_t> merged(const std::vector<int32_t>& layer, size_t from, size_t to, bool above,
                                    std::vector<int32_t>& out) const {
        if (to - from == 1) return above ? up(layer[from]) : down(layer[from]);
        out.clear();
        for (size_t i = from; i < to; ++i) {
            const auto ends = above ? up(layer[i]) : down(layer[i]);
            out.insert(out.end(), ends.begin(), ends.end());
        }
        std::sort(out.begin(), out.end());
        return out;
    }

private:
    void fill(const std::vector<int32_t>& layer, const Adjacency& side, std::vector<int32_t>& ends,
              std::vector<int32_t>& at) const {
        size_t total = 0;
        for (int32_t v : layer) total += side[v].size();
        ends.resize(total);
        auto next = ends.begin();
        for (int32_t v : layer) {
            at[v] = static_cast<int32_t>(next - ends.begin());
            const auto first = next;
            for (int32_t w : side[v]) *next++ = g_.pos[w];
            stableSortSmall(first, next, std::less<>());  // a few ends each: no call to std::sort
        }
    }

    const LayeredGraph& g_;
    TransposeScratch& s_;
};

// Moves [from, mid) behind [mid, to) in the layer.
void rotateUnits(LayeredGraph& g, std::vector<int32_t>& layer, size_t from, size_t mid, size_t to) {
    std::rotate(layer.begin() + static_cast<std::ptrdiff_t>(from), layer.begin() + static_cast<std::ptrdiff_t>(mid),
                layer.begin() + static_cast<std::ptrdiff_t>(to));
    for (size_t i = from; i < to; ++i) g.pos[layer[i]] = static_cast<int32_t>(i);
}

// Crossing changes in the gaps above and below the layer: an exchange of two
// neighbours (or two units) changes only the crossings between their own
// edges, so the gaps' counts follow from the pair counts without a recount.
// Only gains are taken, so the crossings removed are -(above + below).
struct GapChange {
    int64_t above = 0, below = 0;
    // Records an exchange that turned `up` and `down` (the pair's crossings
    // above and below) from their `now` to their `swapped` counts.
    void exchanged(const PairCrossings& up, const PairCrossings& down) {
        above += up.swapped - up.now;
        below += down.swapped - down.now;
    }
};

// Adjacent exchange of units, where a unit is a plain vertex or the run of
// an anchor and its satellites (kept together, so a group is never split):
// two neighbouring units trade places when that strictly lowers the
// crossings between their edges (their sorted ends merged). Two plain
// vertices are left to the vertex exchange. Without this an anchor could
// not pass a plain vertex at all, and a weighted op stayed on the wrong
// side of an island of weights (a `stack` of 16 expert weights) that the
// sweeps had put there. Returns whether a unit moved; adds what that
// changed in each gap to `change`.
bool exchangeUnits(LayeredGraph& g, const std::vector<int32_t>& group, std::vector<int32_t>& layer,
                   const LayerEnds& ends, TransposeScratch::Units& u, GapChange& change) {
    const size_t k = layer.size();
    u.start.clear();
    for (size_t i = 0; i < k;) {
        u.start.push_back(i);
        const int32_t gr = group[layer[i]];
        ++i;
        if (gr >= 0)
            while (i < k && group[layer[i]] == gr) ++i;
    }
    u.start.push_back(k);
    if (u.start.size() <= 2) return false;
    bool moved = false;
    for (size_t j = 0; j + 2 < u.start.size(); ++j) {
        const size_t a = u.start[j], b = u.start[j + 1], c = u.start[j + 2];
        if (b - a == 1 && c - b == 1 && group[layer[a]] < 0 && group[layer[b]] < 0) continue;
        const PairCrossings up =
            pairCrossings(ends.merged(layer, a, b, true, u.upA), ends.merged(layer, b, c, true, u.upB));
        const PairCrossings down =
            pairCrossings(ends.merged(layer, a, b, false, u.downA), ends.merged(layer, b, c, false, u.downB));
        const int64_t now = up.now + down.now, swapped = up.swapped + down.swapped;
        if (swapped >= now) continue;
        rotateUnits(g, layer, a, b, c);
        change.exchanged(up, down);
        u.start[j + 1] = a + (c - b);  // the unit that moved left now ends here
        moved = true;
    }
    return moved;
}

}  // namespace

ExchangeOutcome transposeWithGaps(LayeredGraph& g, const std::vector<int32_t>& group, int maxVisitsPerLayer,
                                  bool allowTies, std::vector<int64_t>& gap, TransposeScratch& scratch,
                                  Progress* progress, int64_t total) {
    ExchangeOutcome outcome;
    const auto layerCount = static_cast<int32_t>(g.layers.size());
    if (layerCount < 2) return outcome;
    auto& work = scratch.work;
    auto& visits = scratch.visits;
    auto& queued = scratch.queued;
    work.clear();
    visits.assign(layerCount, 0);
    queued.assign(layerCount, 0);
    // A layer with crossings on either side is worth a look.
    auto dirty = [&](int32_t l) { return (l > 0 && gap[l - 1] > 0) || (l + 1 < layerCount && gap[l] > 0); };
    for (int32_t l = layerCount - 1; l >= 0; --l)
        if (dirty(l)) {
            work.push_back(l);
            queued[l] = 1;
        }
    while (!work.empty()) {
        const int32_t l = work.back();  // lowest-numbered first: the stack was filled bottom-up
        work.pop_back();
        queued[l] = 0;
        if (!dirty(l)) continue;  // no crossings beside it: no strict gain to be had
        if (++visits[l] > maxVisitsPerLayer) {
            outcome.settled = false;
            continue;
        }
        auto& layer = g.layers[l];
        const size_t k = layer.size();
        if (progress != nullptr) progress->advance(static_cast<int64_t>(k), total);
        const LayerEnds ends(g, layer, scratch);
        // Greedy adjacent exchange until a pass changes nothing. Only strict
        // gains are taken, so it terminates; vertices swap only within their
        // group (an anchor and its satellites) or as two plain vertices.
        // With allowTies, the first pass of a layer's first visit also swaps
        // pairs that cross as much either way (as dot's transpose does on
        // alternate rounds), so the sweeps can leave a plateau; one pass only,
        // so such swaps cannot ping-pong.
        // At most kTransposePasses passes a visit keeps a wide layer linear.
        GapChange change;
        bool moved = false, changed = true, tiePass = allowTies && visits[l] == 1;
        for (int passes = 0; changed && passes < kTransposePasses; tiePass = false, ++passes) {
            changed = false;
            for (size_t i = 0; i + 1 < k; ++i) {
                const int32_t u = layer[i], v = layer[i + 1];
                if (group[u] != group[v]) continue;
                const PairCrossings up = pairCrossings(ends.up(u), ends.up(v));
                const PairCrossings down = pairCrossings(ends.down(u), ends.down(v));
                const int64_t now = up.now + down.now, swapped = up.swapped + down.swapped;
                if (swapped > now || (swapped == now && !(tiePass && now > 0))) continue;
                moved = changed = true;
                change.exchanged(up, down);
                std::swap(layer[i], layer[i + 1]);
                g.pos[layer[i]] = static_cast<int32_t>(i);
                g.pos[layer[i + 1]] = static_cast<int32_t>(i + 1);
            }
            // Then whole groups past their neighbours (see exchangeUnits).
            if (exchangeUnits(g, group, layer, ends, scratch.units, change)) moved = changed = true;
        }
        if (changed) outcome.settled = false;  // out of passes while still gaining
        if (!moved) continue;
        if (static_cast<size_t>(l) < scratch.version.size()) ++scratch.version[l];
        outcome.gained -= change.above + change.below;
        // The neighbour layers see new positions here: their gaps' counts
        // change by what the exchanges changed, and they are requeued.
        if (l > 0) gap[l - 1] += change.above;
        if (l + 1 < layerCount) gap[l] += change.below;
        for (int32_t m : {l + 1, l - 1})
            if (m >= 0 && m < layerCount && !queued[m] && dirty(m)) {
                work.push_back(m);
                queued[m] = 1;
            }
    }
    return outcome;
}

std::vector<int64_t> layerGaps(const LayeredGraph& g) {
    std::vector<int64_t> gap(g.layers.empty() ? 0 : g.layers.size() - 1);
    std::vector<int32_t> tree;
    for (size_t l = 0; l < gap.size(); ++l) gap[l] = countLayerCrossings(g, static_cast<int32_t>(l), tree);
    return gap;
}

int64_t transposePass(LayeredGraph& g, const std::vector<int32_t>& group, int maxVisitsPerLayer, bool allowTies) {
    std::vector<int64_t> gap = layerGaps(g);
    TransposeScratch scratch;
    return transposeWithGaps(g, group, maxVisitsPerLayer, allowTies, gap, scratch).gained;
}

}  // namespace irscope::layout::detail
