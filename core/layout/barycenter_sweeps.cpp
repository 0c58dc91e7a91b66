#include "core/layout/barycenter_sweeps.h"

#include <algorithm>

#include "core/layout/crossing_count.h"
#include "core/layout/small_sort.h"

namespace irscope::layout::detail {

namespace {

constexpr int64_t kSweepWork = 400000;
// Rounds x candidates the budget must afford for a thorough run (12 rounds
// of four candidates when this was set; a thorough graph now sweeps five,
// shared by two threads where it has 150 vertices or more).
constexpr int64_t kThoroughVisits = 48;
constexpr int kMaxRounds = 12;
constexpr double kPackGap = 20;  // the default node gap, for widthKeys

// Crossings of edges ending at `ends` with the anchor's edges ending at
// anchorEnds (sorted), were the satellite left or right of the anchor.
void addSideCosts(const std::vector<int32_t>& anchorEnds, const std::vector<int32_t>& ends, int64_t& left,
                  int64_t& right) {
    for (int32_t p : ends) {
        left += std::lower_bound(anchorEnds.begin(), anchorEnds.end(), p) - anchorEnds.begin();
        right += anchorEnds.end() - std::upper_bound(anchorEnds.begin(), anchorEnds.end(), p);
    }
}

}  // namespace

SweepBudget sweepBudget(int sweeps, int32_t vertexCount) {
    SweepBudget b;
    const int64_t affordable = kSweepWork / std::max<int64_t>(vertexCount, 1);
    b.rounds = sweeps;
    if (affordable < kThoroughVisits) return b;
    b.rounds = std::max(sweeps, kMaxRounds);
    b.halfRounds = true;
    // A graph too small to pay for a second thread lays out in a few
    // hundred microseconds: there patience is cheap, and two rounds of it
    // left 2 crossings dot does not draw on a 22-item split/chunk export.
    if (vertexCount < kParallelVertices) b.patience = 4;
    return b;
}

Satellites findSatellites(const LayeredGraph& g) {
    const int32_t vc = g.vertexCount();
    Satellites s;
    s.anchorOf.assign(vc, -1);
    s.ofAnchor.resize(vc);
    for (int32_t v = 0; v < vc; ++v) {
        if (g.alignsFreely(v) || g.down[v].size() != 1) continue;
        if (!g.up[v].empty()) continue;  // a weight-like op (long_edges.cpp): ordered freely with its row
        const int32_t c = g.down[v][0];
        for (int32_t u : g.up[c])
            if (g.alignsFreely(u)) {
                s.anchorOf[v] = u;
                s.ofAnchor[u].push_back(v);
                break;
            }
    }
    return s;
}

std::vector<int32_t> exchangeGroups(const Satellites& s, int32_t vc) {
    std::vector<int32_t> group(vc, -1);
    for (int32_t v = 0; v < vc; ++v) {
        if (s.anchorOf[v] >= 0)
            group[v] = s.anchorOf[v];
        else if (!s.ofAnchor[v].empty())
            group[v] = v;
    }
    return group;
}

BarycenterSweeps::BarycenterSweeps(LayeredGraph& g, const Satellites& satellites, const std::vector<int32_t>& group,
                                   int sweeps, Progress* progress, int64_t total, bool skipSettled)
    : g_(g),
      satellites_(satellites),
      group_(group),
      sweeps_(sweeps),
      progress_(progress),
      total_(total),
      key_(g.vertexCount(), 0),
      skipSettled_(skipSettled) {
    for (int d = 0; d < 2; ++d) anchored_[d].assign(g.layers.size(), 1);
    for (int32_t v = 0; v < g.vertexCount(); ++v) {
        if (satellites_.anchorOf[v] >= 0) continue;
        if (g.up[v].empty()) anchored_[1][g.layer[v]] = 0;
        if (g.down[v].empty()) anchored_[0][g.layer[v]] = 0;
    }
}

SweptOrder BarycenterSweeps::sweep(const std::vector<std::vector<int32_t>>& start, TieRules rules) {
    g_.layers = start;
    g_.updatePositions();
    lanesFirst_ = rules.lanesFirst;
    widthKeys_ = rules.widthKeys;
    if (widthKeys_) packedX_.assign(g_.vertexCount(), 0.0);
    const auto layerCount = static_cast<int32_t>(g_.layers.size());
    // A new start: every layer counts as changed.
    auto& version = transposeScratch_.version;
    version.resize(layerCount);
    for (uint32_t& v : version) ++v;
    constexpr uint32_t kNever = 0xffffffffu;

    for (auto& at : sortedAt_) at.assign(layerCount, {kNever, kNever, kNever});
    gap_.assign(std::max(layerCount - 1, 0), 0);
    gapAt_.assign(gap_.size(), {kNever, kNever});
    const SweepBudget budget = sweepBudget(sweeps_, g_.vertexCount());
    SweptOrder best;
    best.crossings = -1;
    int stale = 0;
    // The exchange pass on the current order, then keep it if it is the best.
    auto consider = [&](bool ties) {
        // Each gap's crossings, counted again only where a layer beside it
        // changed since (the exchange pass keeps the counts it changes).
        int64_t c = 0;
        for (size_t l = 0; l < gap_.size(); ++l) {
            const std::array<uint32_t, 2> now{version[l], version[l + 1]};
            if (gapAt_[l] != now) {
                gap_[l] = countLayerCrossings(g_, static_cast<int32_t>(l), transposeScratch_.tree);
                gapAt_[l] = now;
            }
            c += gap_[l];
        }
        bool settled = true;
        if (c > 0) {
            const ExchangeOutcome exchanged =
                transposeWithGaps(g_, group_, kTransposeVisits, ties, gap_, transposeScratch_, progress_, total_);
            c -= exchanged.gained;
            settled = exchanged.settled;
            for (size_t l = 0; l < gap_.size(); ++l) gapAt_[l] = {version[l], version[l + 1]};
        }
        if (best.crossings < 0 || c < best.crossings) {
            best.crossings = c;
            g_.orderInto(best.order);
            best.settled = settled;
            stale = 0;
            return;
        }
        ++stale;
    };
    for (int round = 0; round < budget.rounds; ++round) {
        for (int32_t l = 1; l < layerCount; ++l) {
            sortLayer(l, true);
            if (progress_ != nullptr) progress_->advance(static_cast<int64_t>(g_.layers[l].size()), total_);
        }
        if (budget.halfRounds && round > 0) {  // after the first up sweep: every layer sorted once
            consider(round % 2 == 1);
            if (best.crossings == 0) break;
        }
        for (int32_t l = layerCount - 2; l >= 0; --l) {
            sortLayer(l, false);
            if (progress_ != nullptr) progress_->advance(static_cast<int64_t>(g_.layers[l].size()), total_);
        }
        consider(round % 2 == 1);
        if (best.crossings == 0 || stale >= budget.patience) break;
    }
    return best;
}

// Barycenter of v's neighbours on the fixed side, satellites left out
// when there are others: a weight sits where its anchor put it, and
// letting it pull its consumer would push lanes passing the anchor away
// from the chain.
double BarycenterSweeps::barycenter(int32_t v, bool downward) const {
    const auto& nb = downward ? g_.up[v] : g_.down[v];
    double s = 0, all = 0;
    int32_t k = 0;
    for (int32_t u : nb) {
        all += at(u);
        if (satellites_.anchorOf[u] >= 0) continue;
        s += at(u);
        ++k;
    }
    if (nb.empty()) return at(v);
    if (k > 0) return s / k;
    return all / static_cast<double>(nb.size());
}

void BarycenterSweeps::packLayer(int32_t l) {
    double x = 0;
    for (int32_t v : g_.layers[l]) {
        packedX_[v] = x + g_.width[v] / 2;
        x += g_.width[v] + kPackGap;
    }
}

// Sorts layer l by barycenter (satellites excluded), then puts each
// anchor's satellites beside it.
void BarycenterSweeps::sortLayer(int32_t l, bool downward) {
    auto& layer = g_.layers[l];
    // A vertex alone in its layer stays where it is (it is no satellite:
    // a satellite shares its anchor's layer). Most layers of a decoder are so.
    if (layer.size() < 2) return;
    auto& version = transposeScratch_.version;
    const auto last = static_cast<int32_t>(g_.layers.size()) - 1;
    auto versions = [&]() -> std::array<uint32_t, 3> {
        return {l > 0 ? version[l - 1] : 0, version[l], l < last ? version[l + 1] : 0};
    };
    auto& sortedAt = sortedAt_[downward ? 1 : 0][l];
    if (skipSettled_ && anchored_[downward ? 1 : 0][l] && sortedAt == versions()) return;  // sorted so, same neighbours

    if (widthKeys_) {
        packLayer(l);
        packLayer(downward ? l - 1 : l + 1);
    }
    buffer_.clear();
    for (int32_t v : layer) {
        if (satellites_.anchorOf[v] >= 0) continue;
        key_[v] = barycenter(v, downward);
        buffer_.push_back(v);
    }
    // lanesFirst: on a tie a long edge's lane goes first (left).
    // Satellites take the right of their anchor on their own ties, so the
    // lane then runs beside the chain instead of beyond its weights.
    stableSortSmall(buffer_.begin(), buffer_.end(), [&](int32_t a, int32_t b) {
        if (key_[a] != key_[b]) return key_[a] < key_[b];
        return lanesFirst_ && g_.isDummy(a) && !g_.isDummy(b);
    });
    // Written over the layer in place: it keeps its size.
    size_t at = 0;
    changed_ = false;
    for (int32_t v : buffer_) appendWithSatellites(layer, at, v);
    for (size_t i = 0; i < layer.size(); ++i) g_.pos[layer[i]] = static_cast<int32_t>(i);
    if (changed_) ++version[l];
    sortedAt = versions();
}

// Writes v to layer from `at` on, its satellites around it. Satellites go in the
// order of their consumers below (ties: vertex id, i.e. the consumer's
// input-slot order), then split around the anchor: each goes to the side
// where its edge crosses fewer of the anchor's edges. Left costs grow and
// right costs shrink along this order, so the split is a prefix and the
// satellites' own edges never cross one another.
void BarycenterSweeps::appendWithSatellites(std::vector<int32_t>& layer, size_t& at, int32_t v) {
    auto& sat = satellites_.ofAnchor[v];
    if (sat.empty()) {
        put(layer, at, v);
        return;
    }
    stableSortSmall(sat.begin(), sat.end(),
                    [&](int32_t a, int32_t b) { return g_.pos[g_.down[a][0]] < g_.pos[g_.down[b][0]]; });
    const size_t split = leftSatellites(v, sat);
    for (size_t i = 0; i < split; ++i) put(layer, at, sat[i]);
    put(layer, at, v);
    for (size_t i = split; i < sat.size(); ++i) put(layer, at, sat[i]);
}

// How many of the anchor's satellites (sorted by consumer position) go
// to its left. A satellite's edge crosses the anchor's edges to vertices
// beyond its own endpoint on the far side: left of the anchor, those
// ending left of it; right of the anchor, those ending right of it. Up
// edges (a weight fed by something) count the same way. Among the splits
// with the fewest such crossings, the one nearest the middle: a weight
// on each side of its op (as dot draws it) keeps the satellites' edges
// about half as long as a row on one side; with an odd count the extra
// one goes right, after the activation as in the op's input order.
size_t BarycenterSweeps::leftSatellites(int32_t anchor, const std::vector<int32_t>& sat) {
    sortedPositions(g_.down[anchor], anchorDown_);
    sortedPositions(g_.up[anchor], anchorUp_);
    // cost(s) = sum of left costs below s + right costs from s on.
    int64_t cost = 0;
    sideDelta_.clear();
    for (size_t i = 0; i < sat.size(); ++i) {
        int64_t left = 0, right = 0;
        positions(g_.down[sat[i]], ends_);
        addSideCosts(anchorDown_, ends_, left, right);
        positions(g_.up[sat[i]], ends_);
        addSideCosts(anchorUp_, ends_, left, right);
        cost += right;
        sideDelta_.push_back(left - right);
    }
    const size_t middle = sat.size() / 2;
    auto offCentre = [middle](size_t s) { return s > middle ? s - middle : middle - s; };
    size_t split = 0;
    int64_t best = cost;
    for (size_t s = 1; s <= sat.size(); ++s) {
        cost += sideDelta_[s - 1];
        if (cost < best || (cost == best && offCentre(s) < offCentre(split))) {
            best = cost;
            split = s;
        }
    }
    return split;
}

void BarycenterSweeps::positions(std::span<const int32_t> vertices, std::vector<int32_t>& out) const {
    out.resize(vertices.size());
    for (size_t i = 0; i < vertices.size(); ++i) out[i] = g_.pos[vertices[i]];
}

void BarycenterSweeps::sortedPositions(std::span<const int32_t> vertices, std::vector<int32_t>& out) const {
    positions(vertices, out);
    stableSortSmall(out.begin(), out.end(), std::less<>());  // a few each: no call to std::sort
}

}  // namespace irscope::layout::detail
