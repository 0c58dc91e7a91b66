#include "core/layout/crossing_reduction.h"

#include <algorithm>

#include "core/layout/crossing_count.h"

namespace irscope::layout::detail {

namespace {

constexpr int kTransposeVisits = 8;  // per layer: bounds the exchange pass on adversarial inputs
constexpr int kTransposePasses = 8;  // per visit of a layer

void initialOrder(LayeredGraph& g) {
    // Depth-first from the sources in input order (the IR's execution order):
    // a chain of ops lands in one column and branches next to each other.
    const int32_t vc = g.vertexCount();
    std::vector<char> seen(vc, 0);
    for (auto& l : g.layers) l.clear();
    std::vector<std::pair<int32_t, size_t>> stack;
    auto visitFrom = [&](int32_t root) {
        if (seen[root]) return;
        seen[root] = 1;
        g.layers[g.layer[root]].push_back(root);
        stack.emplace_back(root, 0);
        while (!stack.empty()) {
            auto& [v, next] = stack.back();
            if (next == g.down[v].size()) {
                stack.pop_back();
                continue;
            }
            const int32_t w = g.down[v][next++];
            if (seen[w]) continue;
            seen[w] = 1;
            g.layers[g.layer[w]].push_back(w);
            stack.emplace_back(w, 0);
        }
    };
    for (int32_t v = 0; v < vc; ++v)
        if (g.up[v].empty() && g.alignsFreely(v)) visitFrom(v);
    for (int32_t v = 0; v < vc; ++v) visitFrom(v);
    g.updatePositions();
}

// Pairs (a, b), a from A and b from B (both sorted), with a > b: the
// crossings between the edges of u and v to one neighbour layer when u is
// left of v and their ends are A and B.
int64_t pairCrossings(const std::vector<int32_t>& a, const std::vector<int32_t>& b) {
    int64_t c = 0;
    size_t j = 0;
    for (int32_t x : a) {
        while (j < b.size() && b[j] < x) ++j;
        c += static_cast<int64_t>(j);
    }
    return c;
}

}  // namespace

namespace {

// The exchange pass given the crossings per layer gap (kept up to date).
int64_t transposeWithGaps(LayeredGraph& g, const std::vector<int32_t>& group, int maxVisitsPerLayer, bool allowTies,
                          std::vector<int64_t>& gap, Progress* progress = nullptr, int64_t total = 0) {
    const auto layerCount = static_cast<int32_t>(g.layers.size());
    if (layerCount < 2) return 0;
    // A layer with crossings on either side is worth a look.
    std::vector<int32_t> work, visits(layerCount, 0);
    std::vector<char> queued(layerCount, 0);
    auto dirty = [&](int32_t l) { return (l > 0 && gap[l - 1] > 0) || (l + 1 < layerCount && gap[l] > 0); };
    for (int32_t l = layerCount - 1; l >= 0; --l)
        if (dirty(l)) {
            work.push_back(l);
            queued[l] = 1;
        }
    std::vector<std::vector<int32_t>> upEnds, downEnds;  // per position in the layer being improved
    int64_t gained = 0;
    while (!work.empty()) {
        const int32_t l = work.back();  // lowest-numbered first: the stack was filled bottom-up
        work.pop_back();
        queued[l] = 0;
        if (!dirty(l) || ++visits[l] > maxVisitsPerLayer) continue;
        auto& layer = g.layers[l];
        const size_t k = layer.size();
        if (progress != nullptr) progress->advance(static_cast<int64_t>(k), total);
        upEnds.resize(std::max(upEnds.size(), k));
        downEnds.resize(std::max(downEnds.size(), k));
        for (size_t i = 0; i < k; ++i) {
            auto& up = upEnds[i];
            auto& down = downEnds[i];
            up.clear();
            down.clear();
            for (int32_t w : g.up[layer[i]]) up.push_back(g.pos[w]);
            for (int32_t w : g.down[layer[i]]) down.push_back(g.pos[w]);
            std::sort(up.begin(), up.end());
            std::sort(down.begin(), down.end());
        }
        // Greedy adjacent exchange until a pass changes nothing. Only strict
        // gains are taken, so it terminates; vertices swap only within their
        // group (an anchor and its satellites) or as two plain vertices.
        // With allowTies, the first pass of a layer's first visit also swaps
        // pairs that cross as much either way (as dot's transpose does on
        // alternate rounds), so the sweeps can leave a plateau; one pass only,
        // so such swaps cannot ping-pong.
        // At most kTransposePasses passes a visit keeps a wide layer linear.
        int64_t layerGain = 0;
        bool moved = false, tiePass = allowTies && visits[l] == 1;
        int passes = 0;
        for (bool changed = true; changed && passes < kTransposePasses; tiePass = false, ++passes) {
            changed = false;
            for (size_t i = 0; i + 1 < k; ++i) {
                const int32_t u = layer[i], v = layer[i + 1];
                if (group[u] != group[v]) continue;
                const int64_t now =
                    pairCrossings(upEnds[i], upEnds[i + 1]) + pairCrossings(downEnds[i], downEnds[i + 1]);
                const int64_t swapped =
                    pairCrossings(upEnds[i + 1], upEnds[i]) + pairCrossings(downEnds[i + 1], downEnds[i]);
                if (swapped > now || (swapped == now && !(tiePass && now > 0))) continue;
                moved = true;
                std::swap(layer[i], layer[i + 1]);
                std::swap(upEnds[i], upEnds[i + 1]);
                std::swap(downEnds[i], downEnds[i + 1]);
                g.pos[layer[i]] = static_cast<int32_t>(i);
                g.pos[layer[i + 1]] = static_cast<int32_t>(i + 1);
                layerGain += now - swapped;
                changed = true;
            }
        }
        if (!moved) continue;
        gained += layerGain;
        // The neighbour layers see new positions here: recount and requeue them.
        if (l > 0) gap[l - 1] = countLayerCrossings(g, l - 1);
        if (l + 1 < layerCount) gap[l] = countLayerCrossings(g, l);
        for (int32_t m : {l + 1, l - 1})
            if (m >= 0 && m < layerCount && !queued[m] && dirty(m)) {
                work.push_back(m);
                queued[m] = 1;
            }
    }
    return gained;
}

std::vector<int64_t> layerGaps(const LayeredGraph& g) {
    std::vector<int64_t> gap(g.layers.empty() ? 0 : g.layers.size() - 1);
    for (size_t l = 0; l < gap.size(); ++l) gap[l] = countLayerCrossings(g, static_cast<int32_t>(l));
    return gap;
}

// Satellites (weights and ghosts with one consumer) and the anchors they
// follow: the first freely aligning input of that consumer.
struct Satellites {
    std::vector<int32_t> anchorOf;               // per vertex: its anchor, -1 when not a satellite
    std::vector<std::vector<int32_t>> ofAnchor;  // per vertex: the satellites anchored on it
};

Satellites findSatellites(const LayeredGraph& g) {
    const int32_t vc = g.vertexCount();
    Satellites s;
    s.anchorOf.assign(vc, -1);
    s.ofAnchor.resize(vc);
    for (int32_t v = 0; v < vc; ++v) {
        if (g.alignsFreely(v) || g.down[v].size() != 1) continue;
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

// Groups for the exchange pass: an anchor and its satellites share the
// anchor's id; plain vertices share -1 (any two may swap).
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

// The barycenter sweeps with satellites kept beside their anchors. One
// object serves both tie rules: the satellites' order (re-sorted stably on
// every visit) carries over from one run to the next, as do the scratch
// buffers.
class BarycenterSweeps {
public:
    BarycenterSweeps(LayeredGraph& g, Satellites& satellites, const std::vector<int32_t>& group, int sweeps,
                     Progress* progress, int64_t total)
        : g_(g),
          satellites_(satellites),
          group_(group),
          sweeps_(sweeps),
          progress_(progress),
          total_(total),
          key_(g.vertexCount(), 0) {}

    // Down/up rounds from the current order, each followed by the exchange
    // pass (ties allowed on odd rounds), keeping the best in bestLayers;
    // stops after two rounds without improvement. lanesFirst: on a
    // barycenter tie a long edge's lane goes first (left). Returns the
    // crossings of the best order.
    int64_t run(bool lanesFirst, std::vector<std::vector<int32_t>>& bestLayers) {
        lanesFirst_ = lanesFirst;
        const auto layerCount = static_cast<int32_t>(g_.layers.size());
        int64_t best = -1;
        int stale = 0;
        for (int round = 0; round < sweeps_; ++round) {
            for (int32_t l = 1; l < layerCount; ++l) {
                sortLayer(l, true);
                if (progress_ != nullptr) progress_->advance(static_cast<int64_t>(g_.layers[l].size()), total_);
            }
            for (int32_t l = layerCount - 2; l >= 0; --l) {
                sortLayer(l, false);
                if (progress_ != nullptr) progress_->advance(static_cast<int64_t>(g_.layers[l].size()), total_);
            }
            std::vector<int64_t> gap = layerGaps(g_);
            int64_t c = 0;
            for (int64_t x : gap) c += x;
            if (c > 0) c -= transposeWithGaps(g_, group_, kTransposeVisits, round % 2 == 1, gap, progress_, total_);
            if (best < 0 || c < best) {
                best = c;
                bestLayers = g_.layers;
                stale = 0;
            } else if (++stale >= 2) {
                break;
            }
            if (best == 0) break;
        }
        return best;
    }

private:
    // Barycenter of v's neighbours on the fixed side, satellites left out
    // when there are others: a weight sits where its anchor put it, and
    // letting it pull its consumer would push lanes passing the anchor away
    // from the chain.
    double barycenter(int32_t v, bool downward) const {
        const auto& nb = downward ? g_.up[v] : g_.down[v];
        double s = 0, all = 0;
        int32_t k = 0;
        for (int32_t u : nb) {
            all += g_.pos[u];
            if (satellites_.anchorOf[u] >= 0) continue;
            s += g_.pos[u];
            ++k;
        }
        if (nb.empty()) return g_.pos[v];
        if (k > 0) return s / k;
        return all / static_cast<double>(nb.size());
    }

    // Sorts layer l by barycenter (satellites excluded), then puts each
    // anchor's satellites beside it.
    void sortLayer(int32_t l, bool downward) {
        auto& layer = g_.layers[l];
        buffer_.clear();
        for (int32_t v : layer) {
            if (satellites_.anchorOf[v] >= 0) continue;
            key_[v] = barycenter(v, downward);
            buffer_.push_back(v);
        }
        // lanesFirst: on a tie a long edge's lane goes first (left).
        // Satellites take the right of their anchor on their own ties, so the
        // lane then runs beside the chain instead of beyond its weights.
        std::stable_sort(buffer_.begin(), buffer_.end(), [&](int32_t a, int32_t b) {
            if (key_[a] != key_[b]) return key_[a] < key_[b];
            return lanesFirst_ && g_.isDummy(a) && !g_.isDummy(b);
        });
        layer.clear();
        for (int32_t v : buffer_) appendWithSatellites(layer, v);
        for (size_t i = 0; i < layer.size(); ++i) g_.pos[layer[i]] = static_cast<int32_t>(i);
    }

    // Appends v to layer, its satellites around it. Satellites go in the
    // order of their consumers below (ties: vertex id, i.e. the consumer's
    // input-slot order), then split around the anchor: each goes to the side
    // where its edge crosses fewer of the anchor's edges. Left costs grow and
    // right costs shrink along this order, so the split is a prefix and the
    // satellites' own edges never cross one another.
    void appendWithSatellites(std::vector<int32_t>& layer, int32_t v) {
        auto& sat = satellites_.ofAnchor[v];
        if (sat.empty()) {
            layer.push_back(v);
            return;
        }
        std::stable_sort(sat.begin(), sat.end(),
                         [&](int32_t a, int32_t b) { return g_.pos[g_.down[a][0]] < g_.pos[g_.down[b][0]]; });
        const size_t split = leftSatellites(v, sat);
        layer.insert(layer.end(), sat.begin(), sat.begin() + static_cast<std::ptrdiff_t>(split));
        layer.push_back(v);
        layer.insert(layer.end(), sat.begin() + static_cast<std::ptrdiff_t>(split), sat.end());
    }

    // How many of the anchor's satellites (sorted by consumer position) go
    // to its left. A satellite's edge crosses the anchor's edges to vertices
    // beyond its own endpoint on the far side: left of the anchor, those
    // ending left of it; right of the anchor, those ending right of it. Up
    // edges (a weight fed by something) count the same way. Ties stay right,
    // where the consumer's input-slot order puts weights after the activation.
    size_t leftSatellites(int32_t anchor, const std::vector<int32_t>& sat) {
        sortedPositions(g_.down[anchor], anchorDown_);
        sortedPositions(g_.up[anchor], anchorUp_);
        size_t split = 0;
        for (size_t i = 0; i < sat.size(); ++i) {
            int64_t left = 0, right = 0;
            positions(g_.down[sat[i]], ends_);
            addSideCosts(anchorDown_, ends_, left, right);
            positions(g_.up[sat[i]], ends_);
            addSideCosts(anchorUp_, ends_, left, right);
            if (left < right) split = i + 1;
        }
        return split;
    }

    void positions(const std::vector<int32_t>& vertices, std::vector<int32_t>& out) const {
        out.clear();
        for (int32_t w : vertices) out.push_back(g_.pos[w]);
    }

    void sortedPositions(const std::vector<int32_t>& vertices, std::vector<int32_t>& out) const {
        positions(vertices, out);
        std::sort(out.begin(), out.end());
    }

    // Crossings of edges ending at `ends` with the anchor's edges ending at
    // anchorEnds (sorted), were the satellite left or right of the anchor.
    static void addSideCosts(const std::vector<int32_t>& anchorEnds, const std::vector<int32_t>& ends, int64_t& left,
                             int64_t& right) {
        for (int32_t p : ends) {
            left += std::lower_bound(anchorEnds.begin(), anchorEnds.end(), p) - anchorEnds.begin();
            right += anchorEnds.end() - std::upper_bound(anchorEnds.begin(), anchorEnds.end(), p);
        }
    }

    LayeredGraph& g_;
    Satellites& satellites_;
    const std::vector<int32_t>& group_;
    const int sweeps_;
    Progress* const progress_;
    const int64_t total_;
    bool lanesFirst_ = true;
    std::vector<double> key_;                            // per vertex: its barycenter in the current sort
    std::vector<int32_t> buffer_;                        // the layer's non-satellites, being sorted
    std::vector<int32_t> anchorDown_, anchorUp_, ends_;  // positions, for leftSatellites
};

}  // namespace

int64_t transposePass(LayeredGraph& g, const std::vector<int32_t>& group, int maxVisitsPerLayer, bool allowTies) {
    std::vector<int64_t> gap = layerGaps(g);
    return transposeWithGaps(g, group, maxVisitsPerLayer, allowTies, gap);
}

int64_t reduceCrossings(LayeredGraph& g, int sweeps, Progress* progress) {
    const int32_t vc = g.vertexCount();
    // Work units: vertices sorted or visited by the exchange pass; a round
    // sorts every layer twice and the exchange visits about as many again.
    const int64_t total = 2 * static_cast<int64_t>(std::max(sweeps, 1)) * 3 * vc;
    initialOrder(g);
    Satellites satellites = findSatellites(g);
    const std::vector<int32_t> group = exchangeGroups(satellites, vc);
    if (sweeps <= 0) return countAllCrossings(g);

    // Two tie rules, each from the same start; the fewer crossings win, and
    // on equal counts lanes-first (shorter edges beside weighted ops).
    BarycenterSweeps sweeper(g, satellites, group, sweeps, progress, total);
    const std::vector<std::vector<int32_t>> start = g.layers;
    std::vector<std::vector<int32_t>> bestLayers, otherLayers;
    int64_t best = sweeper.run(/*lanesFirst=*/true, bestLayers);
    if (best > 0) {
        g.layers = start;
        g.updatePositions();
        const int64_t other = sweeper.run(/*lanesFirst=*/false, otherLayers);
        if (other < best) {
            best = other;
            bestLayers = std::move(otherLayers);
        }
    }
    g.layers = std::move(bestLayers);
    g.updatePositions();
    if (best == 0) return 0;
    return best - transposePass(g, group, kTransposeVisits);
}

}  // namespace irscope::layout::detail
