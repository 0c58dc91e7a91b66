#include "core/layout/chain_exchange.h"

#include <algorithm>
#include <utility>

#include "core/layout/adjacent_exchange.h"
#include "core/layout/crossing_count.h"

namespace irscope::layout::detail {

namespace {

// Places a block may span in one layer: a vertex with what it feeds beside
// it (a lane and the check it also feeds), not a whole layer's worth.
constexpr int32_t kWidestBlock = 8;

// Places in one layer, [begin, end): a unit, or a block of them.
struct Span {
    int32_t begin = 0, end = 0;
    bool operator==(const Span&) const = default;
};

// Two neighbouring units of one layer, `left` just before `right`.
struct Pair {
    Span left, right;
};

class ChainExchange {
public:
    ChainExchange(LayeredGraph& g, const std::vector<int32_t>& group, int maxDepth)
        : g_(g), group_(group), maxDepth_(maxDepth) {}

    // One pass over every layer beside a gap with crossings; the
    // crossings it removed. Blocks start from pairs of single units; one
    // that gains must gain at an end where the end pair's edges cross now,
    // so a starting pair whose edges cross nothing on either side is
    // passed over (a gain at the block's far end is tried from there when
    // that end is a pair of single units too; a block whose ends both span
    // several units is not tried).
    int64_t pass() {
        int64_t gained = 0;
        const auto layerCount = static_cast<int32_t>(g_.layers.size());
        crossed_.assign(layerCount, 0);
        for (int32_t l = 0; l + 1 < layerCount; ++l)
            if (countLayerCrossings(g_, l, tree_) > 0) crossed_[l] = crossed_[l + 1] = 1;
        for (int32_t l = 0; l < layerCount; ++l) {
            if (!crossed_[l]) continue;
            const auto size = static_cast<int32_t>(g_.layers[l].size());
            int32_t i = 0;
            while (i < size) {
                const Span a = unitAt(l, i);
                if (a.end >= size) break;
                const Pair start{a, unitAt(l, a.end)};
                const int64_t gain =
                    crossingsNow(l, start, -1) + crossingsNow(l, start, +1) > 0 ? tryExchange(l, start) : 0;
                gained += gain;
                // The left unit moved right past its neighbour: it meets its
                // next one there.
                i = gain > 0 ? a.begin + (start.right.end - start.right.begin) : a.end;
            }
        }
        return gained;
    }

private:
    Span unitAt(int32_t l, int32_t p) const {
        const auto& layer = g_.layers[l];
        const int32_t id = group_[layer[p]];
        if (id < 0) return {p, p + 1};
        Span s{p, p + 1};
        while (s.begin > 0 && group_[layer[s.begin - 1]] == id) --s.begin;
        while (s.end < static_cast<int32_t>(layer.size()) && group_[layer[s.end]] == id) ++s.end;
        return s;
    }

    // The places of layer l + dir that the edges of `from` (in layer l) on
    // that side run into: from the first such unit to the last, when
    // everything there takes edges from `from` alone.
    bool straightInto(int32_t l, Span from, int dir, Span& into) const {
        const int32_t next = l + dir;
        if (next < 0 || next >= static_cast<int32_t>(g_.layers.size())) return false;
        const auto& layer = g_.layers[l];
        bool found = false;
        for (int32_t p = from.begin; p < from.end; ++p)
            for (int32_t w : dir > 0 ? g_.down[layer[p]] : g_.up[layer[p]]) {
                const Span u = unitAt(next, g_.pos[w]);
                if (!found) {
                    into = u;
                    found = true;
                } else {
                    into.begin = std::min(into.begin, u.begin);
                    into.end = std::max(into.end, u.end);
                }
            }
        if (!found || into.end - into.begin > kWidestBlock) return false;
        const auto& nextLayer = g_.layers[next];
        for (int32_t p = into.begin; p < into.end; ++p)
            for (int32_t w : dir > 0 ? g_.up[nextLayer[p]] : g_.down[nextLayer[p]])
                if (g_.pos[w] < from.begin || g_.pos[w] >= from.end) return false;
        return true;
    }

    // The pair one layer on (dir: +1 down, -1 up), when both units run
    // straight into two neighbouring units there, in the same order.
    bool stepChains(int32_t l, const Pair& pair, int dir, Pair& next) const {
        return straightInto(l, pair.left, dir, next.left) && straightInto(l, pair.right, dir, next.right) &&
               next.left.end == next.right.begin;
    }

    // How the crossings of the pair's edges on one side (dir) change when
    // its two units trade places (adjacent_exchange.h's pairCrossings).
    int64_t exchangeDelta(int32_t l, const Pair& pair, int dir) {
        const PairCrossings c = crossings(l, pair, dir);
        return c.swapped - c.now;
    }

    int64_t crossingsNow(int32_t l, const Pair& pair, int dir) { return crossings(l, pair, dir).now; }

    PairCrossings crossings(int32_t l, const Pair& pair, int dir) {
        const int32_t next = l + dir;
        if (next < 0 || next >= static_cast<int32_t>(g_.layers.size())) return {};
        ends(l, pair.left, dir, leftEnds_);
        ends(l, pair.right, dir, rightEnds_);
        return pairCrossings(leftEnds_, rightEnds_);
    }

    void ends(int32_t l, Span s, int dir, std::vector<int32_t>& out) const {
        out.clear();
        const auto& layer = g_.layers[l];
        for (int32_t p = s.begin; p < s.end; ++p)
            for (int32_t w : dir > 0 ? g_.down[layer[p]] : g_.up[layer[p]]) out.push_back(g_.pos[w]);
        std::sort(out.begin(), out.end());
    }

    void exchange(int32_t l, const Pair& pair) {
        auto& layer = g_.layers[l];
        std::rotate(layer.begin() + pair.left.begin, layer.begin() + pair.right.begin, layer.begin() + pair.right.end);
        for (int32_t p = pair.left.begin; p < pair.right.end; ++p) g_.pos[layer[p]] = p;
    }

    // The best block through `start` (layer l): up to maxDepth layers of
    // straight chains above and below, exchanged when that removes
    // crossings. Returns the crossings removed.
    int64_t tryExchange(int32_t l, const Pair& start) {
        ups_.assign(1, start);
        downs_.assign(1, start);
        Pair next;
        while (static_cast<int>(ups_.size()) <= maxDepth_ &&
               stepChains(l - static_cast<int32_t>(ups_.size()) + 1, ups_.back(), -1, next))
            ups_.push_back(next);
        while (static_cast<int>(downs_.size()) <= maxDepth_ &&
               stepChains(l + static_cast<int32_t>(downs_.size()) - 1, downs_.back(), +1, next))
            downs_.push_back(next);
        upDelta_.clear();
        for (size_t i = 0; i < ups_.size(); ++i)
            upDelta_.push_back(exchangeDelta(l - static_cast<int32_t>(i), ups_[i], -1));
        int64_t best = 0;
        size_t bestUp = 0, bestDown = 0;
        for (size_t j = 0; j < downs_.size(); ++j) {
            const int64_t down = exchangeDelta(l + static_cast<int32_t>(j), downs_[j], +1);
            for (size_t i = 0; i < ups_.size(); ++i)
                if (upDelta_[i] + down < best) {
                    best = upDelta_[i] + down;
                    bestUp = i;
                    bestDown = j;
                }
        }
        if (best >= 0) return 0;
        for (size_t i = 1; i <= bestUp; ++i) exchange(l - static_cast<int32_t>(i), ups_[i]);
        for (size_t j = 0; j <= bestDown; ++j) exchange(l + static_cast<int32_t>(j), downs_[j]);
        return -best;
    }

    LayeredGraph& g_;
    const std::vector<int32_t>& group_;
    const int maxDepth_;
    std::vector<Pair> ups_, downs_;  // the chains' pairs above and below the start (index 0: the start)
    std::vector<int64_t> upDelta_;
    std::vector<int32_t> leftEnds_, rightEnds_;
    std::vector<char> crossed_;  // per layer: beside a gap with crossings, this round
    std::vector<int32_t> tree_;  // for countLayerCrossings
};

}  // namespace

int64_t chainExchangePass(LayeredGraph& g, const std::vector<int32_t>& group, int maxDepth, int maxRounds) {
    ChainExchange x(g, group, maxDepth);
    int64_t gained = 0;
    for (int round = 0; round < maxRounds; ++round) {
        const int64_t r = x.pass();
        if (r == 0) break;
        gained += r;
    }
    return gained;
}

}  // namespace irscope::layout::detail
