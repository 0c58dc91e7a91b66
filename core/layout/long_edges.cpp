#include "core/layout/long_edges.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>

namespace irscope::layout::detail {

void LayeredGraph::updatePositions() {
    pos.resize(type.size());
    for (const auto& l : layers)
        for (size_t i = 0; i < l.size(); ++i) pos[l[i]] = static_cast<int32_t>(i);
}

void LayeredGraph::orderInto(std::vector<int32_t>& flat) const {
    flat.clear();
    flat.reserve(type.size());
    for (const auto& l : layers) flat.insert(flat.end(), l.begin(), l.end());
}

void LayeredGraph::setOrder(const std::vector<int32_t>& flat) {
    size_t slots = 0;
    for (const auto& l : layers) slots += l.size();
    if (flat.size() != slots) throw std::logic_error("LayeredGraph::setOrder: an order of another graph");
    size_t at = 0;
    for (auto& l : layers)
        for (int32_t& v : l) v = flat[at++];
    updatePositions();
}

namespace {

// Each edge oriented downward: top and bottom endpoint (-1 for a
// self-loop), and how many edges leave each node downward.
struct OrientedEdges {
    std::vector<int32_t> top, bottom;
    std::vector<int32_t> fanout;  // per node

    int32_t span(const std::vector<int32_t>& layer, int32_t e) const { return layer[bottom[e]] - layer[top[e]]; }
};

OrientedEdges orientEdges(const LayoutGraph& graph, const Layering& layering) {
    const auto n = static_cast<int32_t>(graph.nodes.size());
    const auto m = static_cast<int32_t>(graph.edges.size());
    OrientedEdges o;
    o.top.assign(m, -1);
    o.bottom.assign(m, -1);
    o.fanout.assign(n, 0);
    for (int32_t e = 0; e < m; ++e) {
        const auto& ed = graph.edges[e];
        if (ed.source == ed.target) continue;
        o.top[e] = layering.edgeReversed[e] ? ed.target : ed.source;
        o.bottom[e] = layering.edgeReversed[e] ? ed.source : ed.target;
        ++o.fanout[o.top[e]];
    }
    return o;
}

// Which edges start at a ghost: the far ones from high-fan-out sources, any
// beyond maxEdgeSpan, then the longest remaining ones until the dummies fit
// the global budget. dummies: the dummy vertices the rest will need.
std::vector<char> chooseGhostedEdges(const LayoutGraph& graph, const Layering& layering, const OrientedEdges& o,
                                     const LayoutOptions& options, int64_t& dummies) {
    const auto n = static_cast<int32_t>(graph.nodes.size());
    const auto m = static_cast<int32_t>(graph.edges.size());
    const auto& layer = layering.layer;
    auto span = [&](int32_t e) { return o.span(layer, e); };
    std::vector<char> ghosted(m, 0);
    dummies = 0;
    std::vector<int32_t> longEdges;
    for (int32_t e = 0; e < m; ++e) {
        if (o.top[e] < 0 || span(e) <= 1) continue;
        const int32_t s = span(e);
        if ((s > options.ghostMinSpan && o.fanout[o.top[e]] >= options.ghostMinFanout) || s > options.maxEdgeSpan) {
            ghosted[e] = 1;
        } else {
            dummies += s - 1;
            longEdges.push_back(e);
        }
    }
    // Global budget: ghost the longest remaining edges until dummies fit.
    const auto budget = static_cast<int64_t>(options.maxDummiesPerItem * std::max<int32_t>(n, 1));
    if (dummies > budget) {
        std::stable_sort(longEdges.begin(), longEdges.end(), [&](int32_t a, int32_t b) { return span(a) > span(b); });
        for (int32_t e : longEdges) {
            if (dummies <= budget) break;
            ghosted[e] = 1;
            dummies -= span(e) - 1;
        }
    }
    return ghosted;
}

void addVertex(LayeredGraph& g, VertexType type, int32_t layer, double width, double height) {
    g.type.push_back(type);
    g.layer.push_back(layer);
    g.width.push_back(width);
    g.height.push_back(height);
}

// Items laid out as weights (VertexType::Weight): weight items, and ops
// that combine several weights and nothing else, with one use just below
// them (a `stack` of expert weights). Such an op is part of its consumer's
// weights: it hangs beside the consumer's activation input with its row of
// weights above it, and takes no part in the vertical alignment, as dot
// draws it (one long edge from a wide row of weights instead of the
// activation's edges bending around the row). An op on a single weight (a
// transpose, a view) stays an op: a chain of them keeps its column.
std::vector<char> weightLikeItems(const LayoutGraph& graph, const Layering& layering) {
    const auto n = static_cast<int32_t>(graph.nodes.size());
    std::vector<char> weightLike(n, 0);
    std::vector<int32_t> inputs(n, 0), weightInputs(n, 0), uses(n, 0), use(n, -1);
    for (int32_t v = 0; v < n; ++v) weightLike[v] = isSatellite(graph.nodes[v]);
    for (const auto& e : graph.edges) {
        if (e.source == e.target) continue;
        ++inputs[e.target];
        weightInputs[e.target] += weightLike[e.source];
        ++uses[e.source];
        use[e.source] = e.target;
    }
    for (int32_t v = 0; v < n; ++v) {
        if (weightLike[v] || graph.nodes[v].kind != ItemKind::Op || inputs[v] < 2) continue;
        if (weightInputs[v] != inputs[v] || uses[v] != 1) continue;
        if (layering.layer[use[v]] != layering.layer[v] + 1) continue;
        weightLike[v] = 1;  // weightInputs counts weight items only: no chains
    }
    return weightLike;
}

// The vertices for the input's nodes, then one ghost per ghosted edge.
void addItemsAndGhosts(LayeredGraph& g, const LayoutGraph& graph, const Layering& layering, const OrientedEdges& o,
                       const std::vector<char>& ghosted, const LayoutOptions& options) {
    const auto n = static_cast<int32_t>(graph.nodes.size());
    const auto m = static_cast<int32_t>(graph.edges.size());
    const auto& layer = layering.layer;
    const std::vector<char> weightLike = weightLikeItems(graph, layering);
    for (int32_t v = 0; v < n; ++v)
        addVertex(g, weightLike[v] ? VertexType::Weight : VertexType::Item, layer[v], graph.nodes[v].width,
                  graph.nodes[v].height);
    for (int32_t e = 0; e < m; ++e) {
        if (!ghosted[e]) continue;
        addVertex(g, VertexType::Ghost, layer[o.bottom[e]] - 1,
                  std::min(graph.nodes[o.top[e]].width + 16, options.ghostMaxWidth),  // + room for the "↳ " mark
                  options.ghostHeight);
        g.ghostOf.push_back(o.top[e]);
    }
    g.ghostCount = static_cast<int32_t>(g.ghostOf.size());
}

// Chains: ghost or source, dummies (added here), target.
void addChains(LayeredGraph& g, const Layering& layering, const OrientedEdges& o, const std::vector<char>& ghosted) {
    const auto m = static_cast<int32_t>(o.top.size());
    const auto& layer = layering.layer;
    g.chain.assign(m, {});
    g.reversed.assign(layering.edgeReversed.begin(), layering.edgeReversed.end());
    g.reversedCount = std::count(g.reversed.begin(), g.reversed.end(), 1);
    int32_t nextGhost = g.itemCount;
    for (int32_t e = 0; e < m; ++e) {
        if (o.top[e] < 0) continue;
        auto& c = g.chain[e];
        if (ghosted[e]) {
            c = {nextGhost++, o.bottom[e]};
            continue;
        }
        c.reserve(static_cast<size_t>(layer[o.bottom[e]] - layer[o.top[e]]) + 1);
        c.push_back(o.top[e]);
        for (int32_t l = layer[o.top[e]] + 1; l < layer[o.bottom[e]]; ++l) {
            c.push_back(g.vertexCount());
            addVertex(g, VertexType::Dummy, l, 0, 0);
        }
        c.push_back(o.bottom[e]);
    }
}

// Adjacency from the chains (in chain order), then the layers in vertex
// order, each sized before it is filled.
void connectAndLayer(LayeredGraph& g, int32_t layerCount) {
    const int32_t vc = g.vertexCount();
    std::vector<int32_t> perLayer(std::max(layerCount, 1), 0);
    size_t segments = 0;
    for (const auto& c : g.chain) segments += c.empty() ? 0 : c.size() - 1;
    std::vector<std::pair<int32_t, int32_t>> downs, ups;
    downs.reserve(segments);
    ups.reserve(segments);
    for (const auto& c : g.chain)
        for (size_t i = 0; i + 1 < c.size(); ++i) {
            downs.emplace_back(c[i], c[i + 1]);
            ups.emplace_back(c[i + 1], c[i]);
        }
    g.down = Adjacency(vc, downs);
    g.up = Adjacency(vc, ups);
    for (int32_t v = 0; v < vc; ++v) ++perLayer[g.layer[v]];
    g.layers.assign(std::max(layerCount, 1), {});
    for (size_t l = 0; l < g.layers.size(); ++l) g.layers[l].reserve(perLayer[l]);
    for (int32_t v = 0; v < vc; ++v) g.layers[g.layer[v]].push_back(v);
    g.updatePositions();
}

}  // namespace

LayeredGraph buildLayeredGraph(const LayoutGraph& graph, const Layering& layering, const LayoutOptions& options) {
    const auto n = static_cast<int32_t>(graph.nodes.size());
    const OrientedEdges oriented = orientEdges(graph, layering);
    int64_t dummies = 0;
    const std::vector<char> ghosted = chooseGhostedEdges(graph, layering, oriented, options, dummies);

    LayeredGraph g;
    g.itemCount = n;
    const auto vertices =
        static_cast<size_t>(n + dummies) + static_cast<size_t>(std::count(ghosted.begin(), ghosted.end(), 1));
    g.type.reserve(vertices);
    g.layer.reserve(vertices);
    g.width.reserve(vertices);
    g.height.reserve(vertices);
    addItemsAndGhosts(g, graph, layering, oriented, ghosted, options);
    addChains(g, layering, oriented, ghosted);
    connectAndLayer(g, layering.layerCount);
    return g;
}

}  // namespace irscope::layout::detail
