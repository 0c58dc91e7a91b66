#include "core/layout/crossing_reduction.h"

#include <algorithm>

#include "core/layout/crossing_count.h"

namespace irscope::layout::detail {

namespace {

constexpr int kTransposeVisits = 8;   // per layer: bounds the exchange pass on adversarial inputs
constexpr int kTransposePasses = 8;   // per visit of a layer

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
    std::vector<std::vector<int32_t>> upEnds, downEnds;   // per position in the layer being improved
    int64_t gained = 0;
    while (!work.empty()) {
        const int32_t l = work.back();   // lowest-numbered first: the stack was filled bottom-up
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
                const int64_t now = pairCrossings(upEnds[i], upEnds[i + 1]) + pairCrossings(downEnds[i], downEnds[i + 1]);
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

}  // namespace

int64_t transposePass(LayeredGraph& g, const std::vector<int32_t>& group, int maxVisitsPerLayer, bool allowTies) {
    std::vector<int64_t> gap = layerGaps(g);
    return transposeWithGaps(g, group, maxVisitsPerLayer, allowTies, gap);
}

int64_t reduceCrossings(LayeredGraph& g, int sweeps, Progress* progress) {
    const int32_t vc = g.vertexCount();
    const auto layerCount = static_cast<int32_t>(g.layers.size());
    // Work units: vertices sorted or visited by the exchange pass; a round
    // sorts every layer twice and the exchange visits about as many again.
    const int64_t total = 2 * static_cast<int64_t>(std::max(sweeps, 1)) * 3 * vc;
    initialOrder(g);

    // Satellites and their anchors.
    std::vector<int32_t> anchorOf(vc, -1);
    std::vector<std::vector<int32_t>> satellites(vc);
    for (int32_t v = 0; v < vc; ++v) {
        if (g.alignsFreely(v) || g.down[v].size() != 1) continue;
        const int32_t c = g.down[v][0];
        for (int32_t u : g.up[c])
            if (g.alignsFreely(u)) {
                anchorOf[v] = u;
                satellites[u].push_back(v);
                break;
            }
    }

    // How many of the anchor's satellites (sorted by consumer position) go
    // to its left. A satellite's edge crosses the anchor's edges to vertices
    // beyond its own endpoint on the far side: left of the anchor, those
    // ending left of it; right of the anchor, those ending right of it. Up
    // edges (a weight fed by something) count the same way. Ties stay right,
    // where the consumer's input-slot order puts weights after the activation.
    std::vector<int32_t> anchorDown, anchorUp, ends;
    auto leftSatellites = [&](int32_t anchor, const std::vector<int32_t>& sat) {
        anchorDown.clear();
        anchorUp.clear();
        for (int32_t w : g.down[anchor]) anchorDown.push_back(g.pos[w]);
        for (int32_t w : g.up[anchor]) anchorUp.push_back(g.pos[w]);
        std::sort(anchorDown.begin(), anchorDown.end());
        std::sort(anchorUp.begin(), anchorUp.end());
        auto cost = [](const std::vector<int32_t>& anchorEnds, const std::vector<int32_t>& ends, int64_t& left,
                       int64_t& right) {
            for (int32_t p : ends) {
                left += std::lower_bound(anchorEnds.begin(), anchorEnds.end(), p) - anchorEnds.begin();
                right += anchorEnds.end() - std::upper_bound(anchorEnds.begin(), anchorEnds.end(), p);
            }
        };
        size_t split = 0;
        for (size_t i = 0; i < sat.size(); ++i) {
            int64_t left = 0, right = 0;
            ends.clear();
            for (int32_t w : g.down[sat[i]]) ends.push_back(g.pos[w]);
            cost(anchorDown, ends, left, right);
            ends.clear();
            for (int32_t w : g.up[sat[i]]) ends.push_back(g.pos[w]);
            cost(anchorUp, ends, left, right);
            if (left < right) split = i + 1;
        }
        return split;
    };

    std::vector<double> key(vc, 0);
    std::vector<int32_t> buffer;
    bool lanesFirst = true;
    auto sortLayer = [&](int32_t l, bool downward) {
        auto& layer = g.layers[l];
        buffer.clear();
        for (int32_t v : layer) {
            if (anchorOf[v] >= 0) continue;
            // Barycenter of the neighbours on the fixed side, satellites left
            // out when there are others: a weight sits where its anchor put
            // it, and letting it pull its consumer would push lanes passing
            // the anchor away from the chain.
            const auto& nb = downward ? g.up[v] : g.down[v];
            double s = 0, all = 0;
            int32_t k = 0;
            for (int32_t u : nb) {
                all += g.pos[u];
                if (anchorOf[u] >= 0) continue;
                s += g.pos[u];
                ++k;
            }
            if (nb.empty()) key[v] = g.pos[v];
            else if (k > 0) key[v] = s / k;
            else key[v] = all / static_cast<double>(nb.size());
            buffer.push_back(v);
        }
        // lanesFirst: on a tie a long edge's lane goes first (left).
        // Satellites take the right of their anchor on their own ties, so the
        // lane then runs beside the chain instead of beyond its weights.
        std::stable_sort(buffer.begin(), buffer.end(), [&](int32_t a, int32_t b) {
            if (key[a] != key[b]) return key[a] < key[b];
            return lanesFirst && g.isDummy(a) && !g.isDummy(b);
        });
        layer.clear();
        for (int32_t v : buffer) {
            auto& sat = satellites[v];
            if (sat.empty()) {
                layer.push_back(v);
                continue;
            }
            // Satellites in the order of their consumers below (ties: vertex
            // id, i.e. the consumer's input-slot order), then split around
            // the anchor: each goes to the side where its edge crosses fewer
            // of the anchor's edges. Left costs grow and right costs shrink
            // along this order, so the split is a prefix and the satellites'
            // own edges never cross one another.
            std::stable_sort(sat.begin(), sat.end(),
                             [&](int32_t a, int32_t b) { return g.pos[g.down[a][0]] < g.pos[g.down[b][0]]; });
            const size_t split = leftSatellites(v, sat);
            layer.insert(layer.end(), sat.begin(), sat.begin() + static_cast<std::ptrdiff_t>(split));
            layer.push_back(v);
            layer.insert(layer.end(), sat.begin() + static_cast<std::ptrdiff_t>(split), sat.end());
        }
        for (size_t i = 0; i < layer.size(); ++i) g.pos[layer[i]] = static_cast<int32_t>(i);
    };

    // Groups for the exchange pass: an anchor and its satellites share the
    // anchor's id; plain vertices share -1 (any two may swap).
    std::vector<int32_t> group(vc, -1);
    for (int32_t v = 0; v < vc; ++v) {
        if (anchorOf[v] >= 0) group[v] = anchorOf[v];
        else if (!satellites[v].empty()) group[v] = v;
    }

    // Down/up rounds from the initial order, each followed by the exchange
    // pass (ties allowed on odd rounds), keeping the best; stops after two
    // rounds without improvement.
    auto runSweeps = [&](std::vector<std::vector<int32_t>>& bestLayers) {
        int64_t best = -1;
        int stale = 0;
        for (int round = 0; round < sweeps; ++round) {
            for (int32_t l = 1; l < layerCount; ++l) {
                sortLayer(l, true);
                if (progress != nullptr) progress->advance(static_cast<int64_t>(g.layers[l].size()), total);
            }
            for (int32_t l = layerCount - 2; l >= 0; --l) {
                sortLayer(l, false);
                if (progress != nullptr) progress->advance(static_cast<int64_t>(g.layers[l].size()), total);
            }
            std::vector<int64_t> gap = layerGaps(g);
            int64_t c = 0;
            for (int64_t x : gap) c += x;
            if (c > 0) c -= transposeWithGaps(g, group, kTransposeVisits, round % 2 == 1, gap, progress, total);
            if (best < 0 || c < best) {
                best = c;
                bestLayers = g.layers;
                stale = 0;
            } else if (++stale >= 2) {
                break;
            }
            if (best == 0) break;
        }
        return best;
    };
    if (sweeps <= 0) return countAllCrossings(g);
    // Two tie rules, each from the same start; the fewer crossings win, and
    // on equal counts lanes-first (shorter edges beside weighted ops).
    const std::vector<std::vector<int32_t>> start = g.layers;
    std::vector<std::vector<int32_t>> bestLayers, otherLayers;
    lanesFirst = true;
    int64_t best = runSweeps(bestLayers);
    if (best > 0) {
        g.layers = start;
        g.updatePositions();
        lanesFirst = false;
        const int64_t other = runSweeps(otherLayers);
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
