#include "core/layout/coordinate_assignment.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <span>

#include "core/layout/length_descent.h"
#include "core/layout/satellite_placement.h"
#include "core/layout/separation.h"
#include "core/layout/small_sort.h"
#include "core/layout/span_placement.h"

namespace irscope::layout::detail {

namespace {

// Rounds of satellite placement: a weight-like op (a `stack`) and the row of
// weights above it move towards each other, a little each round.
constexpr int kSatelliteRounds = 4;
// Passes of edge-length descent (length_descent.h); most graphs settle in a few.
constexpr int kDescentPasses = 8;

int64_t segmentKey(const LayeredGraph& g, int32_t a, int32_t b) {
    if (g.layer[a] > g.layer[b]) std::swap(a, b);
    return (static_cast<int64_t>(a) << 32) | static_cast<uint32_t>(b);
}

// Segments (upper, lower end) by segmentKey, sorted: few per layout, looked
// up once per median link (medianLinks keeps the answer for the alignments).
class MarkedSegments {
public:
    void insert(int64_t key) { keys_.push_back(key); }
    void seal() {
        std::sort(keys_.begin(), keys_.end());
        keys_.erase(std::unique(keys_.begin(), keys_.end()), keys_.end());
    }
    bool contains(int64_t key) const { return std::binary_search(keys_.begin(), keys_.end(), key); }

private:
    std::vector<int64_t> keys_;
};

// Type 1 conflicts: a non-inner segment crossing an inner one (dummy to
// dummy). Marked segments never align, so long edges stay straight lanes.
MarkedSegments markTypeOneConflicts(const LayeredGraph& g) {
    MarkedSegments marked;
    const auto h = static_cast<int32_t>(g.layers.size());
    for (int32_t i = 0; i + 1 < h; ++i) {
        const auto& upper = g.layers[i];
        const auto& lower = g.layers[i + 1];
        if (upper.empty() || lower.empty()) continue;
        int32_t k0 = 0;
        size_t l = 0;
        for (size_t l1 = 0; l1 < lower.size(); ++l1) {
            const int32_t v = lower[l1];
            int32_t innerUpper = -1;
            if (g.isDummy(v))
                for (int32_t u : g.up[v])
                    if (g.isDummy(u)) innerUpper = u;
            if (l1 + 1 != lower.size() && innerUpper < 0) continue;
            const int32_t k1 = innerUpper >= 0 ? g.pos[innerUpper] : static_cast<int32_t>(upper.size()) - 1;
            for (; l <= l1; ++l) {
                const int32_t w = lower[l];
                for (int32_t u : g.up[w])
                    if (g.pos[u] < k0 || g.pos[u] > k1) marked.insert(segmentKey(g, u, w));
            }
            k0 = k1;
        }
    }
    marked.seal();
    return marked;
}

// The width each vertex claims in its layer: its box's, except that an op
// laid out as a weight and fed only by weights (a `stack` of 16 expert
// weights) claims the width of the row of weights above it, so the layer
// leaves room for the row to be centred over it instead of overlapping
// the next such row.
std::vector<double> roomWidths(const LayeredGraph& g, const LayoutOptions& o) {
    std::vector<double> room(g.width);
    for (int32_t v = 0; v < g.vertexCount(); ++v) {
        if (g.type[v] != VertexType::Weight || g.up[v].empty()) continue;
        double row = -o.nodeGap;
        bool weightsOnly = true;
        for (int32_t u : g.up[v]) {
            weightsOnly = weightsOnly && g.type[u] == VertexType::Weight && g.down[u].size() == 1;
            row += g.width[u] + o.nodeGap;
        }
        if (weightsOnly) room[v] = std::max(room[v], row);
    }
    return room;
}

// Median links, shared by the four alignments. up[v]/down[v]: v's median
// neighbours above/below among the vertices that align (the lower and upper
// median, equal for an odd count; -1 for none). A link u-v is mutual when
// each is a median of the other. chainUp[v]/chainDown[v]: vertices on the
// longest path of mutual links from v upward/downward.
//
// Why mutual links first: plain BK lets the first vertex in scan order take
// a fork's source even when it is not the fork's middle branch, and a join
// picks its median independently of that. On a repeated block such as
// attention (one stream forks into v | q | k, the v lane joins q and k again
// at SDPA) the stream then enters each block in one column and leaves it in
// another; each block starts a column beside the previous one, and a long
// graph drifts sideways by about a column per block, in all four alignments
// (28k px on a 434-layer Llama). Mutual medians make a fork and its join
// agree (the middle branch on both sides); where two links compete (a join
// whose two inputs both have it as median), the one with the longer chain
// beyond it wins: the stream that came through the fork, not a side branch
// that started just above the join. The main stream stays one block.
//
// aligns[v]: v takes part in the alignment. Items and dummies do; weights
// and ghosts only where their consumer is an item with no other input that
// does (an op reading only a ghost, or only weights): left out, its inputs
// would pack to one side of it; aligned with its median input, they are
// centred on it, as dot draws them.
struct Links {
    std::vector<std::array<int32_t, 2>> up, down;
    // Whether the segment to each median is marked (markTypeOneConflicts):
    // looked up once here rather than by every alignment for every candidate.
    std::vector<std::array<char, 2>> upMarked, downMarked;
    std::vector<int32_t> chainUp, chainDown;
    std::vector<char> aligns;
};

std::vector<char> aligningVertices(const LayeredGraph& g) {
    const int32_t vc = g.vertexCount();
    std::vector<char> aligns(vc, 0);
    for (int32_t v = 0; v < vc; ++v) aligns[v] = g.alignsFreely(v);
    for (int32_t v = 0; v < vc; ++v) {
        if (aligns[v] || g.down[v].size() != 1) continue;
        const int32_t c = g.down[v][0];
        bool freeInput = false;
        for (int32_t u : g.up[c]) freeInput = freeInput || g.alignsFreely(u);
        aligns[v] = !freeInput && g.alignsFreely(c);
    }
    return aligns;
}

Links medianLinks(const LayeredGraph& g, const MarkedSegments& marked) {
    const int32_t vc = g.vertexCount();
    Links k;
    k.aligns = aligningVertices(g);
    k.up.assign(vc, {-1, -1});
    k.down.assign(vc, {-1, -1});
    std::vector<int32_t> nbs;
    auto medians = [&](std::span<const int32_t> adj, std::array<int32_t, 2>& m) {
        nbs.clear();
        for (int32_t u : adj)
            if (k.aligns[u]) nbs.push_back(u);
        if (nbs.empty()) return;
        // Neighbours in one layer have distinct positions: any sort gives this order.
        stableSortSmall(nbs.begin(), nbs.end(), [&](int32_t a, int32_t b) { return g.pos[a] < g.pos[b]; });
        m = {nbs[(nbs.size() - 1) / 2], nbs[nbs.size() / 2]};
    };
    k.upMarked.assign(vc, {0, 0});
    k.downMarked.assign(vc, {0, 0});
    for (int32_t v = 0; v < vc; ++v) {
        if (!k.aligns[v]) continue;
        medians(g.up[v], k.up[v]);
        medians(g.down[v], k.down[v]);
        for (int i = 0; i < 2; ++i) {
            if (k.up[v][i] >= 0) k.upMarked[v][i] = marked.contains(segmentKey(g, k.up[v][i], v));
            if (k.down[v][i] >= 0) k.downMarked[v][i] = marked.contains(segmentKey(g, v, k.down[v][i]));
        }
    }
    auto isMedian = [](const std::array<int32_t, 2>& m, int32_t v) { return m[0] == v || m[1] == v; };
    k.chainUp.assign(vc, 1);
    k.chainDown.assign(vc, 1);
    const auto h = static_cast<int32_t>(g.layers.size());
    for (int32_t l = 1; l < h; ++l)
        for (int32_t v : g.layers[l])
            for (int32_t u : k.up[v])
                if (u >= 0 && isMedian(k.down[u], v)) k.chainUp[v] = std::max(k.chainUp[v], k.chainUp[u] + 1);
    for (int32_t l = h - 2; l >= 0; --l)
        for (int32_t v : g.layers[l])
            for (int32_t u : k.down[v])
                if (u >= 0 && isMedian(k.up[u], v)) k.chainDown[v] = std::max(k.chainDown[v], k.chainDown[u] + 1);
    return k;
}

// The view one alignment works in, mirrored for right-packed ones:
// p[v] = v's position counted from the side it packs towards, and at(l, k)
// the k-th vertex of layer l counted from that side.
struct MirroredView {
    MirroredView(const LayeredGraph& graph, bool packLeft) : g(graph), leftward(packLeft), p(graph.vertexCount()) {
        for (const auto& layer : g.layers)
            for (size_t i = 0; i < layer.size(); ++i)
                p[layer[i]] = leftward ? static_cast<int32_t>(i) : static_cast<int32_t>(layer.size() - 1 - i);
    }

    int32_t at(int32_t l, size_t k) const {
        const auto& layer = g.layers[l];
        return leftward ? layer[k] : layer[layer.size() - 1 - k];
    }

    const LayeredGraph& g;
    const bool leftward;
    std::vector<int32_t> p;
};

// Vertical alignment, layer by layer, in two rounds per layer (see Links).
// Round 1: mutual median links, each v taking its best link u (longest
// chain beyond u) provided v is u's preferred partner (longest chain beyond
// v). Round 2: the vertices left take a free median neighbour as plain BK
// does, where that crosses no alignment already made. The result is root[v],
// the top vertex of v's block (in the sweep's direction).
class Alignment {
public:
    // root, chosen, bound: the caller's working memory (AlignmentWork).
    Alignment(const LayeredGraph& g, const Links& links, const MirroredView& view, bool downward,
              std::vector<int32_t>& root, std::vector<int32_t>& chosen, std::vector<int32_t>& bound)
        : g_(g),
          view_(view),
          p_(view.p),
          downward_(downward),
          farMed_(downward ? links.up : links.down),
          nearMed_(downward ? links.down : links.up),
          farMarked_(downward ? links.upMarked : links.downMarked),
          nearMarked_(downward ? links.downMarked : links.upMarked),
          chainFar_(downward ? links.chainUp : links.chainDown),
          chainNear_(downward ? links.chainDown : links.chainUp),
          aligns_(links.aligns),
          root_(root),
          chosen_(chosen),
          bound_(bound) {
        root_.resize(g.vertexCount());
        for (int32_t v = 0; v < g.vertexCount(); ++v) root_[v] = v;
    }

    void run(Progress* progress) {
        const int32_t vc = g_.vertexCount();
        const auto h = static_cast<int32_t>(g_.layers.size());
        for (int32_t step = 1; step < h; ++step) {
            const int32_t l = downward_ ? step : h - 1 - step;
            const size_t width = g_.layers[l].size();
            if (progress != nullptr) progress->advance(static_cast<int64_t>(width), 4 * static_cast<int64_t>(vc));
            chosen_.assign(width, -1);  // per scan index: the aligned neighbour
            chooseMutualLinks(l, width);
            chooseFreeMedians(l, width);
            joinBlocks(l, width);
        }
    }

    const std::vector<int32_t>& roots() const { return root_; }

private:
    // A median and whether the segment to it is marked.
    struct Link {
        int32_t to;
        bool marked;
    };

    // u -> v, v a median of u on u's near side, whose segment is not marked.
    bool mutual(int32_t u, int32_t v, bool marked) const {
        return (nearMed_[u][0] == v || nearMed_[u][1] == v) && !marked;
    }

    // Medians in scan order (the mirrored view's left one first); to = -1 for none.
    std::array<Link, 2> ordered(const std::array<int32_t, 2>& m, const std::array<char, 2>& marked) const {
        std::array<Link, 2> o{{{m[0], marked[0] != 0}, {m[1], marked[1] != 0}}};
        if (o[0].to >= 0 && p_[o[1].to] < p_[o[0].to]) std::swap(o[0], o[1]);
        if (o[1].to == o[0].to) o[1].to = -1;
        return o;
    }

    // u's preferred partner: the mutual one with the longest chain beyond it, then scan order.
    int32_t preferredPartner(int32_t u) const {
        int32_t best = -1;
        for (const auto [w, marked] : ordered(nearMed_[u], nearMarked_[u]))
            if (w >= 0 && (farMed_[w][0] == u || farMed_[w][1] == u) && !marked &&
                (best < 0 || chainNear_[w] > chainNear_[best]))
                best = w;
        return best;
    }

    // Round 1: mutual median links.
    void chooseMutualLinks(int32_t l, size_t width) {
        int32_t r = -1;
        for (size_t k = 0; k < width; ++k) {
            const int32_t v = view_.at(l, k);
            if (!aligns_[v] || farMed_[v][0] < 0) continue;
            int32_t c[2];
            int nc = 0;
            for (const auto [u, marked] : ordered(farMed_[v], farMarked_[v])) {
                if (u < 0 || !mutual(u, v, marked)) continue;
                if (preferredPartner(u) == v) c[nc++] = u;
            }
            if (nc == 2 && chainFar_[c[1]] > chainFar_[c[0]]) std::swap(c[0], c[1]);
            for (int i = 0; i < nc; ++i)
                if (r < p_[c[i]]) {
                    chosen_[k] = c[i];
                    r = p_[c[i]];
                    break;
                }
        }
    }

    // Round 2: free medians between the mutual alignments.
    void chooseFreeMedians(int32_t l, size_t width) {
        int32_t next = std::numeric_limits<int32_t>::max();
        bound_.assign(width, 0);  // per scan index: the p of the next round-1 alignment to its right
        for (size_t k = width; k-- > 0;) {
            bound_[k] = next;
            if (chosen_[k] >= 0) next = p_[chosen_[k]];
        }
        int32_t r = -1;
        for (size_t k = 0; k < width; ++k) {
            const int32_t v = view_.at(l, k);
            if (chosen_[k] >= 0) {
                r = p_[chosen_[k]];
                continue;
            }
            if (!aligns_[v] || farMed_[v][0] < 0) continue;
            for (const auto [u, marked] : ordered(farMed_[v], farMarked_[v])) {
                // The window excludes every u taken already, in either round.
                if (u >= 0 && r < p_[u] && p_[u] < bound_[k] && !marked) {
                    chosen_[k] = u;
                    r = p_[u];
                    break;
                }
            }
        }
    }

    // v joins the block of the neighbour it chose. (Plain BK also keeps
    // align[], the cyclic block order; nothing here needs it.)
    void joinBlocks(int32_t l, size_t width) {
        for (size_t k = 0; k < width; ++k) {
            const int32_t u = chosen_[k];
            if (u < 0) continue;
            root_[view_.at(l, k)] = root_[u];
        }
    }

    const LayeredGraph& g_;
    const MirroredView& view_;
    const std::vector<int32_t>& p_;
    const bool downward_;
    const std::vector<std::array<int32_t, 2>>& farMed_;   // v's medians on the aligned side
    const std::vector<std::array<int32_t, 2>>& nearMed_;  // u's medians on v's side
    const std::vector<std::array<char, 2>>& farMarked_;   // whether the segment to each of farMed_ is marked
    const std::vector<std::array<char, 2>>& nearMarked_;
    const std::vector<int32_t>& chainFar_;
    const std::vector<int32_t>& chainNear_;
    const std::vector<char>& aligns_;
    std::vector<int32_t>& root_;  // per vertex: the first vertex of its block
    std::vector<int32_t>& chosen_;
    std::vector<int32_t>& bound_;
};

// Block graph: an edge from the block of each vertex to the block of its
// neighbour on the far side, weighted by their separation; successors in
// compressed rows, blocks in topological order.
struct BlockGraph {
    std::vector<int32_t> succStart;
    std::vector<std::pair<int32_t, double>> succ;
    std::vector<int32_t> topo;
};

// The four alignments' working memory, sized by the first and reused by the
// others (a fresh set each time was a third of a coordinate assignment's
// allocations).
struct AlignmentWork {
    std::vector<int32_t> root, chosen, bound;  // Alignment's
    std::vector<int32_t> indeg, fill;          // blockGraph's
    BlockGraph blocks;
    std::vector<double> xs;  // compactBlocks'
};

void blockGraph(const LayeredGraph& g, const std::vector<double>& room, const MirroredView& view,
                const std::vector<int32_t>& root, const LayoutOptions& o, AlignmentWork& work) {
    const int32_t vc = g.vertexCount();
    const auto h = static_cast<int32_t>(g.layers.size());
    BlockGraph& b = work.blocks;
    auto& succStart = b.succStart;
    succStart.assign(vc + 1, 0);
    auto& indeg = work.indeg;
    indeg.assign(vc, 0);
    for (int32_t l = 0; l < h; ++l)
        for (size_t k = 1; k < g.layers[l].size(); ++k) ++succStart[root[view.at(l, k - 1)] + 1];
    for (int32_t v = 0; v < vc; ++v) succStart[v + 1] += succStart[v];
    b.succ.resize(succStart[vc]);
    auto& fill = work.fill;
    fill.assign(succStart.begin(), succStart.end() - 1);
    for (int32_t l = 0; l < h; ++l)
        for (size_t k = 1; k < g.layers[l].size(); ++k) {
            const int32_t a = view.at(l, k - 1), c = view.at(l, k);
            b.succ[fill[root[a]]++] = {root[c], separation(g, room, a, c, o)};
            ++indeg[root[c]];
        }
    b.topo.clear();
    b.topo.reserve(vc);
    for (int32_t v = 0; v < vc; ++v)
        if (root[v] == v && indeg[v] == 0) b.topo.push_back(v);
    for (size_t i = 0; i < b.topo.size(); ++i)
        for (int32_t j = succStart[b.topo[i]]; j < succStart[b.topo[i] + 1]; ++j)
            if (--indeg[b.succ[j].first] == 0) b.topo.push_back(b.succ[j].first);
}

// Block positions (per root), measured from the packing side, into xs.
void compactBlocks(const BlockGraph& b, int32_t vc, std::vector<double>& xs) {
    const auto& succStart = b.succStart;
    const auto& succ = b.succ;
    xs.assign(vc, 0.0);
    // Pass 1: every block as far towards the packing side as its predecessors allow.
    for (int32_t c : b.topo)
        for (int32_t j = succStart[c]; j < succStart[c + 1]; ++j)
            xs[succ[j].first] = std::max(xs[succ[j].first], xs[c] + succ[j].second);
    // Pass 2: pull blocks back towards their successors, closing needless gaps.
    for (auto it = b.topo.rbegin(); it != b.topo.rend(); ++it) {
        const int32_t c = *it;
        double limit = std::numeric_limits<double>::infinity();
        for (int32_t j = succStart[c]; j < succStart[c + 1]; ++j)
            limit = std::min(limit, xs[succ[j].first] - succ[j].second);
        if (limit != std::numeric_limits<double>::infinity()) xs[c] = std::max(xs[c], limit);
    }
}

// One of the four alignments plus its compaction. downward: align with upper
// neighbours, layers top to bottom; leftward: medians and packing from the left.
std::vector<double> alignAndCompact(const LayeredGraph& g, const std::vector<double>& room, const Links& links,
                                    const MirroredView& view, bool downward, const LayoutOptions& o,
                                    AlignmentWork& work, Progress* progress) {
    const int32_t vc = g.vertexCount();
    Alignment alignment(g, links, view, downward, work.root, work.chosen, work.bound);
    alignment.run(progress);
    const std::vector<int32_t>& root = alignment.roots();
    blockGraph(g, room, view, root, o, work);
    compactBlocks(work.blocks, vc, work.xs);
    const std::vector<double>& xs = work.xs;
    std::vector<double> x(vc);
    for (int32_t v = 0; v < vc; ++v) x[v] = view.leftward ? xs[root[v]] : -xs[root[v]];
    return x;
}

// Shifts x so that the leftmost box edge is at 0.
void alignLeft(const LayeredGraph& g, std::vector<double>& x) {
    double left = std::numeric_limits<double>::infinity();
    for (int32_t v = 0; v < g.vertexCount(); ++v) left = std::min(left, x[v] - g.width[v] / 2);
    for (double& v : x) v -= left;
}

}  // namespace

std::vector<double> assignCoordinates(const LayeredGraph& g, const LayoutOptions& options, Progress* progress) {
    const int32_t vc = g.vertexCount();
    if (vc == 0) return {};
    const auto marked = markTypeOneConflicts(g);
    const Links links = medianLinks(g, marked);
    const std::vector<double> room = roomWidths(g, options);
    // Leftward (medians and packing from the left) for even k, rightward for odd.
    const std::array<MirroredView, 2> views{MirroredView(g, true), MirroredView(g, false)};
    AlignmentWork work;
    std::array<std::vector<double>, 4> xs;
    std::array<double, 4> lo{}, hi{};
    int smallest = 0;
    for (int k = 0; k < 4; ++k) {
        xs[k] = alignAndCompact(g, room, links, views[k % 2], /*downward=*/k < 2, options, work, progress);
        lo[k] = std::numeric_limits<double>::infinity();
        hi[k] = -lo[k];
        for (int32_t v = 0; v < vc; ++v) {
            lo[k] = std::min(lo[k], xs[k][v] - g.width[v] / 2);
            hi[k] = std::max(hi[k], xs[k][v] + g.width[v] / 2);
        }
        if (hi[k] - lo[k] < hi[smallest] - lo[smallest]) smallest = k;
    }
    // Align every candidate to the narrowest one: left-packed ones by their
    // left edge, right-packed ones by their right edge.
    for (int k = 0; k < 4; ++k) {
        const double shift = (k % 2 == 0) ? lo[smallest] - lo[k] : hi[smallest] - hi[k];
        for (double& x : xs[k]) x += shift;
    }
    std::vector<double> x(vc);
    for (int32_t v = 0; v < vc; ++v) {
        std::array<double, 4> c{xs[0][v], xs[1][v], xs[2][v], xs[3][v]};
        std::sort(c.begin(), c.end());
        x[v] = (c[1] + c[2]) / 2;
    }
    // Restore separations the averaging may have broken.
    for (const auto& layer : g.layers)
        for (size_t i = 1; i < layer.size(); ++i)
            x[layer[i]] = std::max(x[layer[i]], x[layer[i - 1]] + separation(g, room, layer[i - 1], layer[i], options));
    for (int round = 0; round < kSatelliteRounds; ++round) placeSatellites(g, room, options, x);
    shortenEdges(g, room, options, x, kDescentPasses);
    alignLeft(g, x);
    return x;
}

SpanPlacement settleCoordinates(const LayeredGraph& g, const LayoutOptions& options, std::vector<double>& x,
                                int64_t workBudget, Progress* progress) {
    if (g.vertexCount() == 0) return {};
    const std::vector<double> room = roomWidths(g, options);
    const SpanPlacement report = placeForLeastSpan(g, room, options, x, workBudget, progress);
    alignLeft(g, x);
    return report;
}

}  // namespace irscope::layout::detail
