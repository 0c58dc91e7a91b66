// bench_layout: times the layout engine on transformer- and CNN-style graphs
// of 1k-100k items and, with --dot, compares it with Graphviz dot on the same
// graphs (same box sizes, same gaps), measuring both drawings the same way:
//   crossings  between adjacent ranks, from the drawn geometry (edges sampled
//              at every rank they pass);
//   width      of the node bounding box;
//   edge len   total polyline / sampled spline length, border to border (dot
//              is run with arrowhead=none: with arrowheads its splines stop
//              one arrow length short of the target, ~7 px an edge, which
//              made dot's total look ~10% shorter than ours; the arrowhead
//              does not change dot's placement);
//   straight   share of op->op edges whose ends are vertically aligned (< 0.5 px);
//   time       wall clock, best of several runs (ours: 3, or with --ir as many as
//              fit in 200 ms, at most 200; dot: as many runs of its process as
//              fit in a second, 3 to 20, killed after --dot-timeout; "dot start"
//              is dot on a one-node graph, run before each of those, the part
//              of dot's time that is process start and no layout at all).
// For dot two inputs are drawn: "dot" the graph itself (long edges and all), and
// "dot-g" the graph as our layout sees it after replacing far high-fan-out edges
// by ghost proxies, so crossings compare on identical inputs.
//
// Usage: bench_layout [--sizes 1000,5000,20000,100000] [--dot] [--dot-timeout 120]
//                     [--dot-max 5000] [--keep DIR]
//        bench_layout --ir FILE.json|FILE.layout [--svg OUT.svg] [--no-weights] [--dot]
//                     [--save-layout OUT.layout] [--keep DIR] [--dot-cache DIR] [--runs N]
// --ir also reads the engine's input as text (core/layout/layout_graph_text.h);
// --save-layout writes it so (the fixtures of bench/make_layout_fixtures.sh).
// --dot-cache keeps dot's figures per exact input (see dotCachePath; a run
// under a second is timed again unless --runs is 1); --runs caps our timing
// runs (1: quality figures only, for a quick look).
// With --ir, the environment variable IRSCOPE_EDGE_DUMP=DIR writes each
// edge's drawn length, ends, end positions, box centres' y and polyline to
// DIR/ours.edges and (with --dot) DIR/dot.edges, one line an edge in the
// same order: to find which edges make one drawing longer than the other.
#include <sys/wait.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/export/svg_export.h"
#include "core/ir/graph_index.h"
#include "core/ir/json_io.h"
#include "core/layout/drawing_metrics.h"
#include "core/layout/graph_to_layout.h"
#include "core/layout/layout.h"
#include "core/layout/layout_graph_text.h"

using namespace irscope;
using namespace irscope::layout;
using Clock = std::chrono::steady_clock;

namespace {

// ---- Generators: LayoutGraphs sized like graph_to_layout makes them. ----

struct Gen {
    LayoutGraph g;
    int counter = 0;
    int32_t item(ItemKind kind, const std::string& line1, const std::string& line2) {
        LayoutNode n;
        n.kind = kind;
        n.name = line1 + "_" + std::to_string(counter++);
        n.lines = {line1, line2};
        n.family = kind == ItemKind::Op ? classifyOp(line1) : OpFamily::Other;
        n.width = std::max(
            44.0, std::max(defaultTextWidth(line1), defaultTextWidth(line2)) + 20 + (kind == ItemKind::Op ? 0 : 10));
        n.height = 42;
        return g.addNode(std::move(n));
    }
    int32_t op(const std::string& name, const std::string& shape, std::initializer_list<int32_t> inputs) {
        const int32_t v = item(ItemKind::Op, name, shape);
        for (int32_t u : inputs) g.addEdge({u, v, EdgeStyle::Solid, shape, -1});
        return v;
    }
    void weight(int32_t consumer, const std::string& name, const std::string& shape,
                ItemKind kind = ItemKind::Parameter) {
        const int32_t w = item(kind, name, shape);
        g.addEdge({w, consumer, EdgeStyle::Dashed, "", -1});
    }
    int32_t linear(int32_t x, const std::string& shape, bool bias) {
        const int32_t v = op("linear", shape, {x});
        weight(v, "p_layers_0_proj_weight", "4096x4096");
        if (bias) weight(v, "p_layers_0_proj_bias", "4096");
        return v;
    }
};

// Llama-style decoder layers, decomposed as torch.export writes them: RMS
// norms, q/k/v projections, RoPE on q and k (cos/sin fed to every layer),
// causal mask added to the scores (fed to every layer), SwiGLU MLP.
LayoutGraph transformer(int targetItems) {
    Gen G;
    const std::string s = "1x128x4096", h = "1x32x128x128";
    int32_t x = G.item(ItemKind::GraphInput, "Input: x", s);
    const int32_t cos = G.item(ItemKind::GraphInput, "Input: cos", "1x1x128x128");
    const int32_t sin = G.item(ItemKind::GraphInput, "Input: sin", "1x1x128x128");
    const int32_t mask = G.item(ItemKind::GraphInput, "Input: mask", "1x1x128x128");
    auto rms = [&](int32_t in) {
        const int32_t p = G.op("pow.Tensor_Scalar", s, {in});
        const int32_t m = G.op("mean.dim", "1x128x1", {p});
        const int32_t a = G.op("add.Tensor", "1x128x1", {m});
        const int32_t r = G.op("rsqrt", "1x128x1", {a});
        const int32_t mu = G.op("mul.Tensor", s, {in, r});
        const int32_t w = G.op("mul.Tensor", s, {mu});
        G.weight(w, "p_layers_0_norm_weight", "4096");
        return w;
    };
    auto rope = [&](int32_t t) {
        const int32_t c = G.op("mul.Tensor", h, {t, cos});
        const int32_t s1 = G.op("slice.Tensor", "1x32x128x64", {t});
        const int32_t s2 = G.op("slice.Tensor", "1x32x128x64", {t});
        const int32_t n = G.op("neg", "1x32x128x64", {s2});
        const int32_t cat = G.op("cat", h, {n, s1});
        const int32_t sn = G.op("mul.Tensor", h, {cat, sin});
        return G.op("add.Tensor", h, {c, sn});
    };
    while (static_cast<int>(G.g.nodes.size()) < targetItems) {
        const int32_t n1 = rms(x);
        int32_t q = G.linear(n1, s, false), k = G.linear(n1, s, false), v = G.linear(n1, s, false);
        q = G.op("transpose.int", h, {G.op("view", "1x128x32x128", {q})});
        k = G.op("transpose.int", h, {G.op("view", "1x128x32x128", {k})});
        v = G.op("transpose.int", h, {G.op("view", "1x128x32x128", {v})});
        q = rope(q);
        k = rope(k);
        const int32_t kt = G.op("transpose.int", h, {k});
        const int32_t sc = G.op("div.Tensor", h, {G.op("matmul", h, {q, kt})});
        const int32_t sm = G.op("softmax.int", h, {G.op("add.Tensor", h, {sc, mask})});
        const int32_t o = G.op("reshape", s, {G.op("transpose.int", "1x128x32x128", {G.op("matmul", h, {sm, v})})});
        const int32_t r1 = G.op("add.Tensor", s, {x, G.linear(o, s, false)});
        const int32_t n2 = rms(r1);
        const int32_t gate = G.op("silu", "1x128x11008", {G.linear(n2, "1x128x11008", false)});
        const int32_t up = G.linear(n2, "1x128x11008", false);
        const int32_t down = G.linear(G.op("mul.Tensor", "1x128x11008", {gate, up}), s, false);
        x = G.op("add.Tensor", s, {r1, down});
    }
    const int32_t out = G.item(ItemKind::Output, "Output", s);
    G.g.addEdge({x, out, EdgeStyle::Solid, "", -1});
    return std::move(G.g);
}

// ResNet-style: conv + batch norm (weight, bias, running mean/var buffers) +
// relu, basic blocks with identity skips and a downsampling branch every 4th.
LayoutGraph cnn(int targetItems) {
    Gen G;
    const std::string s = "1x64x56x56";
    auto convBn = [&](int32_t in) {
        const int32_t c = G.op("conv2d", s, {in});
        G.weight(c, "p_layer1_0_conv1_weight", "64x64x3x3");
        const int32_t b = G.op("_native_batch_norm_legit_no_training", s, {c});
        G.weight(b, "p_layer1_0_bn1_weight", "64");
        G.weight(b, "p_layer1_0_bn1_bias", "64");
        G.weight(b, "b_layer1_0_bn1_running_mean", "64", ItemKind::Buffer);
        G.weight(b, "b_layer1_0_bn1_running_var", "64", ItemKind::Buffer);
        return G.op("getitem", s, {b});
    };
    int32_t x = G.item(ItemKind::GraphInput, "Input: x", "1x3x224x224");
    x = G.op("max_pool2d", s, {G.op("relu", s, {convBn(x)})});
    int block = 0;
    while (static_cast<int>(G.g.nodes.size()) < targetItems) {
        const int32_t a = G.op("relu", s, {convBn(x)});
        const int32_t b = convBn(a);
        const int32_t skip = (++block % 4 == 0) ? convBn(x) : x;
        x = G.op("relu", s, {G.op("add.Tensor", s, {b, skip})});
    }
    const int32_t fc =
        G.op("linear", "1x1000", {G.op("flatten.using_ints", "1x512", {G.op("mean.dim", "1x512x1x1", {x})})});
    G.weight(fc, "p_fc_weight", "1000x512");
    G.weight(fc, "p_fc_bias", "1000");
    const int32_t out = G.item(ItemKind::Output, "Output", "1x1000");
    G.g.addEdge({fc, out, EdgeStyle::Solid, "", -1});
    return std::move(G.g);
}

// ---- Measuring a drawing, ours or dot's, the same way (core/layout/drawing_metrics.h). ----

struct Metrics {
    double ms = 0;
    int64_t crossings = 0;
    double width = 0, edgeLength = 0, straight = 0;
    int layers = 0;
    bool ok = false;
    std::string note;
};

Metrics measure(const LayoutGraph& g, const Drawing& d) {
    const DrawingMetrics dm = measureDrawing(g, d);
    Metrics m;
    m.crossings = dm.crossings;
    m.width = dm.width;
    m.edgeLength = dm.edgeLength;
    m.straight = dm.straightPercent;
    m.layers = dm.ranks;
    m.ok = true;
    return m;
}

Drawing fromLayout(const LayoutGraph&, const LayoutResult& r) { return drawingOf(r); }

// The graph as our layout sees it: far high-fan-out edges start at a ghost.
LayoutGraph ghosted(const LayoutGraph& g, const LayoutResult& r) {
    LayoutGraph out = g;
    for (size_t i = g.nodes.size(); i < r.items.size(); ++i) {
        LayoutNode n;
        n.kind = ItemKind::Ghost;
        n.name = r.items[i].name;
        n.width = r.items[i].rect.width;
        n.height = r.items[i].rect.height;
        out.addNode(n);
    }
    for (size_t e = 0; e < g.edges.size(); ++e) {
        out.edges[e].source = r.edges[e].source;
        out.edges[e].target = r.edges[e].target;
    }
    return out;
}

std::string toDot(const LayoutGraph& g, const LayoutOptions& o) {
    std::ostringstream s;
    s << "digraph G {\n  graph [ranksep=" << o.layerGap / 72 << ", nodesep=" << o.nodeGap / 72 << "];\n"
      << "  node [shape=box, fixedsize=true, label=\"\"];\n  edge [arrowhead=none];\n";
    for (size_t i = 0; i < g.nodes.size(); ++i)
        s << "  n" << i << " [width=" << g.nodes[i].width / 72 << ", height=" << g.nodes[i].height / 72 << "];\n";
    for (const auto& e : g.edges) s << "  n" << e.source << " -> n" << e.target << ";\n";
    s << "}\n";
    return s.str();
}

std::vector<Point> sampleBezier(const std::vector<Point>& c) {
    std::vector<Point> out;
    if (c.empty()) return out;
    out.push_back(c[0]);
    for (size_t i = 0; i + 3 < c.size() + 0 && i + 3 <= c.size() - 1; i += 3)
        for (int k = 1; k <= 8; ++k) {
            const double t = k / 8.0, u = 1 - t;
            out.push_back(
                {u * u * u * c[i].x + 3 * u * u * t * c[i + 1].x + 3 * u * t * t * c[i + 2].x + t * t * t * c[i + 3].x,
                 u * u * u * c[i].y + 3 * u * u * t * c[i + 1].y + 3 * u * t * t * c[i + 2].y +
                     t * t * t * c[i + 3].y});
        }
    return out;
}

// dot's time with no layout to do: one node drawn as toDot draws them (a
// labelled default node costs a font lookup the real runs never make). What
// every dot-g time includes besides the layout (process start, loading its
// plugins). Returns the command that runs it.
std::string dotStartCommand(const std::string& dir) {
    const std::string in = dir + "/start.dot";
    std::ofstream(in)
        << "digraph G {\n  node [shape=box, fixedsize=true, label=\"\"];\n  n0 [width=1, height=0.5];\n}\n";
    return "dot -Tplain " + in + " > /dev/null 2>&1";
}

// IRSCOPE_EDGE_DUMP=DIR (see the top): each edge's drawn length and ends.
void dumpEdgeLengths(const LayoutGraph& g, const Drawing& d, const std::string& engine) {
    const char* dir = std::getenv("IRSCOPE_EDGE_DUMP");
    if (dir == nullptr) return;
    std::ofstream f(std::string(dir) + "/" + engine + ".edges");
    for (size_t e = 0; e < d.edges.size(); ++e) {
        double len = 0;
        const auto& pl = d.edges[e];
        for (size_t i = 1; i < pl.size(); ++i) len += std::hypot(pl[i].x - pl[i - 1].x, pl[i].y - pl[i - 1].y);
        const Rect& a = d.boxes[d.ends[e].first];
        const Rect& b = d.boxes[d.ends[e].second];
        f << e << " " << len << " " << g.nodes[d.ends[e].first].name << " " << g.nodes[d.ends[e].second].name << " "
          << a.x + a.width / 2 << " " << a.y << " " << b.x + b.width / 2 << " " << b.y << " " << a.center().y << " "
          << b.center().y;
        for (const Point& p : pl) f << " " << p.x << "," << p.y;
        f << "\n";
    }
}

// Most runs of dot per timing (as many as fit in a second, three at least).
constexpr int kDotRuns = 20;

// startMs: when given, dot's start (dotStartCommand) is timed too, one run
// before each of dot's, best of as many: the two then see the machine in the
// same state (timed minutes apart, dot's start alone moved by a quarter).
Metrics runDot(const LayoutGraph& g, const LayoutOptions& o, const std::string& dir, const std::string& tag,
               int timeout, double* startMs = nullptr) {
    Metrics m;
    const std::string in = dir + "/" + tag + ".dot", out = dir + "/" + tag + ".plain";
    std::ofstream(in) << toDot(g, o);
    // dot's time is its process alone (reading our output back and measuring
    // it is not dot's work), the best of as many runs as fit in a second
    // (three at least, kDotRuns at most; one when a run takes longer): a single
    // run of a 30 ms process varied by 40% here, and the best of three still
    // by a third, which on a graph dot lays out in 20 ms (a third of it its
    // process start) moved the speed-up over its work between 8x and 16x.
    const std::string cmd = "timeout " + std::to_string(timeout) + " dot -Tplain " + in + " > " + out + " 2>/dev/null";
    const std::string startCmd = startMs != nullptr ? dotStartCommand(dir) : std::string();
    double best = 1e300, spent = 0, bestStart = 1e300;
    for (int rep = 0; rep < 3 || (rep < kDotRuns && spent < 1000); ++rep) {
        if (startMs != nullptr) {
            const auto s0 = Clock::now();
            if (std::system(startCmd.c_str()) == 0)
                bestStart = std::min(bestStart, std::chrono::duration<double, std::milli>(Clock::now() - s0).count());
        }
        const auto t0 = Clock::now();
        const int rc = std::system(cmd.c_str());
        const double ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
        if (rc != 0) {
            m.ms = ms;
            // timeout(1) exits 124 when it stopped dot; anything else is dot failing.
            const bool late = WIFEXITED(rc) && WEXITSTATUS(rc) == 124;
            m.note =
                late ? "timeout " + std::to_string(timeout) + " s" : "dot failed (status " + std::to_string(rc) + ")";
            return m;
        }
        best = std::min(best, ms);
        spent += ms;
        if (ms > 1000) break;
    }
    std::ifstream f(out);
    std::string line;
    double H = 0;
    Drawing d;
    d.boxes.resize(g.nodes.size());
    std::map<std::pair<int, int>, std::vector<size_t>> edgeIds;  // dot may emit parallel edges in any order
    for (size_t e = 0; e < g.edges.size(); ++e) edgeIds[{g.edges[e].source, g.edges[e].target}].push_back(e);
    d.edges.resize(g.edges.size());
    d.ends.resize(g.edges.size());
    for (size_t e = 0; e < g.edges.size(); ++e) d.ends[e] = {g.edges[e].source, g.edges[e].target};
    while (std::getline(f, line)) {
        std::istringstream ls(line);
        std::string kind;
        ls >> kind;
        if (kind == "graph") {
            double sc, w;
            ls >> sc >> w >> H;
        } else if (kind == "node") {
            std::string name;
            double x, y, w, h;
            ls >> name >> x >> y >> w >> h;
            const int i = std::stoi(name.substr(1));
            d.boxes[i] = {(x - w / 2) * 72, (H - y - h / 2) * 72, w * 72, h * 72};
        } else if (kind == "edge") {
            std::string a, b;
            int n;
            ls >> a >> b >> n;
            std::vector<Point> c(n);
            for (auto& p : c) {
                ls >> p.x >> p.y;
                p.x *= 72;
                p.y = (H - p.y) * 72;
            }
            auto& ids = edgeIds[{std::stoi(a.substr(1)), std::stoi(b.substr(1))}];
            if (ids.empty()) continue;
            d.edges[ids.front()] = sampleBezier(c);
            ids.erase(ids.begin());
        }
    }
    m = measure(g, d);
    dumpEdgeLengths(g, d, "dot");
    m.ms = best;
    if (startMs != nullptr) *startMs = bestStart < 1e300 ? bestStart : 0;
    return m;
}

void printRow(const std::string& graph, const LayoutGraph& g, const std::string& engine, const Metrics& m) {
    if (!m.ok) {
        std::printf("%-14s %7zu %7zu  %-6s %10.0f  %s\n", graph.c_str(), g.nodes.size(), g.edges.size(), engine.c_str(),
                    m.ms, m.note.c_str());
        return;
    }
    std::printf("%-14s %7zu %7zu  %-6s %10.1f %6d %9lld %9.0f %12.0f %8.1f%%  %s\n", graph.c_str(), g.nodes.size(),
                g.edges.size(), engine.c_str(), m.ms, m.layers, static_cast<long long>(m.crossings), m.width,
                m.edgeLength, m.straight, m.note.c_str());
    std::fflush(stdout);
}

// A cached dot run shorter than this is run again for its time (renderIr).
constexpr double kRetimeDotBelowMs = 1000;

// dot's figures for one input, kept in DIR/NAME-HASH.dot-figures where
// HASH is a digest of the exact graph dot was given (its text form): dot's
// drawing of it never changes, so a population rerun after a change to our
// engine runs only our engine (bench/run_layout_population.sh, DOT_CACHE=).
std::string dotCachePath(const std::string& cacheDir, const std::string& name, const LayoutGraph& input) {
    uint64_t h = 1469598103934665603ULL;  // FNV-1a
    for (const unsigned char c : layoutGraphToText(input)) h = (h ^ c) * 1099511628211ULL;
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(h));
    return cacheDir + "/" + name + "-" + hex + ".dot-figures";
}

bool readDotFigures(const std::string& file, int timeout, Metrics& m, double& startMs) {
    std::ifstream f(file);
    std::string first;
    if (f >> first && first == "timeout") {  // dot did not finish in time: no figures, only that
        int within = 0;
        // A timeout kept from a shorter limit says nothing of a longer one: run dot again.
        if (!(f >> m.ms >> within) || within < timeout) return false;
        m.note = "timeout " + std::to_string(within) + " s";
        return true;
    }
    f.clear();
    f.seekg(0);
    long long crossings = 0;
    if (!(f >> m.ms >> m.layers >> crossings >> m.width >> m.edgeLength >> m.straight >> startMs)) return false;
    m.crossings = crossings;
    m.ok = true;
    return true;
}

void writeDotFigures(const std::string& file, const Metrics& m, double startMs, int timeout) {
    if (!m.ok) {  // only a timeout is worth keeping (a crash or an interrupt is not dot's answer)
        if (m.note.rfind("timeout", 0) == 0) std::ofstream(file) << "timeout " << m.ms << " " << timeout << "\n";
        return;
    }
    std::ofstream(file) << m.ms << " " << m.layers << " " << m.crossings << " " << m.width << " " << m.edgeLength << " "
                        << m.straight << " " << startMs << "\n";
}

int renderIr(const std::string& path, const std::string& svg, bool weights, bool dot, int dotTimeout,
             const std::string& dir, const std::string& saveLayout, const std::string& dotCache, int maxRuns) {
    const auto t0 = Clock::now();
    // A .layout file (core/layout/layout_graph_text.h) is the engine's input as is.
    const bool layoutText = std::filesystem::path(path).extension() == ".layout";
    ir::Graph graph;
    LayoutGraph input;
    if (layoutText) {
        std::ifstream f(path);
        if (!f) throw std::runtime_error("cannot read " + path);
        input = layoutGraphFromText(f);
    } else {
        graph = ir::loadGraphFile(path);
    }
    const auto t1 = Clock::now();
    if (!layoutText) {
        const ir::GraphIndex index(graph);
        GraphLayoutOptions go;
        go.includeWeights = weights;
        input = buildLayoutGraph(graph, index, go);
    }
    if (!saveLayout.empty()) std::ofstream(saveLayout) << layoutGraphToText(input);
    auto ms = [](auto a, auto b) { return std::chrono::duration<double, std::milli>(b - a).count(); };
    const auto t2 = Clock::now();
    auto r = computeLayout(input);
    auto t3 = Clock::now();
    // A fixture lays out in milliseconds: the first run pays for cold caches
    // and first-touch page faults, so take the best of the runs that fit in
    // 200 ms (the layout time reported is that best run).
    double bestMs = ms(t2, t3), spent = bestMs;
    for (int rep = 1; rep < maxRuns && spent < 200; ++rep) {
        const auto a = Clock::now();
        r = computeLayout(input);
        const double t = ms(a, Clock::now());
        bestMs = std::min(bestMs, t);
        spent += t;
    }
    std::printf(
        "%s: %zu nodes -> %zu items (%lld ghosts, %lld dummies, %d layers, %lld crossings); load %.1f ms, "
        "build %.1f ms, layout %.2f ms\n",
        path.c_str(), layoutText ? input.nodes.size() : graph.nodes.size(), r.items.size(),
        static_cast<long long>(r.stats.ghosts), static_cast<long long>(r.stats.dummies), r.stats.layers,
        static_cast<long long>(r.stats.crossings), ms(t0, t1), ms(t1, t2), bestMs);
    const auto m = measure(input, fromLayout(input, r));
    dumpEdgeLengths(ghosted(input, r), fromLayout(input, r), "ours");
    std::printf(
        "width %.0f, edge length %.0f, straight op->op %.1f%%; x solver: %lld pivots, work %lld (%.0f a vertex)%s\n",
        m.width, m.edgeLength, m.straight, static_cast<long long>(r.stats.spanPivots),
        static_cast<long long>(r.stats.spanWork),
        static_cast<double>(r.stats.spanWork) /
            std::max<int64_t>(1, r.stats.dummies + static_cast<int64_t>(r.items.size())),
        r.stats.spanSettled ? "" : ", not settled (too large, or out of budget)");
    if (!svg.empty()) std::ofstream(svg) << exporter::layoutToSvg(r);
    if (dot) {
        // Same table as the generated graphs: ours against dot on the ghosted input.
        std::filesystem::create_directories(dir);
        const std::string name = std::filesystem::path(path).stem().string();
        Metrics ours = m;
        ours.ms = bestMs;
        printRow(name, input, "ours", ours);
        {  // dir/NAME-g.names: the item name of each dot node n<i>, to compare edges one by one
            std::ofstream names(dir + "/" + name + "-g.names");
            for (const auto& it : r.items) names << it.name << "\n";
        }
        const LayoutGraph dotInput = ghosted(input, r);
        const std::string cached = dotCache.empty() ? std::string() : dotCachePath(dotCache, name, dotInput);
        Metrics viaDot;
        double start = 0;
        // A cached run under a second is timed again: its drawing figures
        // come out the same, but its speed-up is the one near the target,
        // and timings taken on another day on a shared 2-core VM differ by a
        // third. Ours and dot's are then seconds apart. (Not with --runs 1:
        // a quick look at the quality figures.)
        const bool reuse = !cached.empty() && readDotFigures(cached, dotTimeout, viaDot, start) &&
                           !(viaDot.ok && viaDot.ms < kRetimeDotBelowMs && maxRuns > 1);
        if (!reuse) {
            start = 0;  // not a cached start beside a fresh time
            viaDot = runDot(dotInput, LayoutOptions{}, dir, name + "-g", dotTimeout, &start);
            if (!cached.empty()) {
                std::filesystem::create_directories(dotCache);
                writeDotFigures(cached, viaDot, start, dotTimeout);
            }
        }
        printRow(name, dotInput, "dot-g", viaDot);
        std::printf("speed-up over dot-g: %.1fx (%.1fx over dot's time less its start, %.1f ms)\n", viaDot.ms / ours.ms,
                    (viaDot.ms - start) / ours.ms, start);
    }
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    std::vector<int> sizes{1000, 5000, 20000, 100000};
    bool dot = false;
    int dotTimeout = 120, dotMax = 5000;
    std::string keep, ir, svg, saveLayout, dotCache;
    int maxRuns = 200;
    bool weights = true;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto next = [&] { return i + 1 < argc ? std::string(argv[++i]) : std::string(); };
        if (a == "--sizes") {
            sizes.clear();
            std::stringstream ss(next());
            for (std::string t; std::getline(ss, t, ',');) sizes.push_back(std::stoi(t));
        } else if (a == "--dot")
            dot = true;
        else if (a == "--dot-timeout")
            dotTimeout = std::stoi(next());
        else if (a == "--dot-max")
            dotMax = std::stoi(next());
        else if (a == "--keep")
            keep = next();
        else if (a == "--ir")
            ir = next();
        else if (a == "--svg")
            svg = next();
        else if (a == "--save-layout")
            saveLayout = next();
        else if (a == "--runs")
            maxRuns = std::max(1, std::stoi(next()));
        else if (a == "--dot-cache")
            dotCache = next();
        else if (a == "--no-weights")
            weights = false;
        else {
            std::cerr << "unknown argument " << a << "\n";
            return 2;
        }
    }
    const std::string dir = keep.empty() ? std::filesystem::temp_directory_path().string() + "/bench_layout" : keep;
    if (!ir.empty()) return renderIr(ir, svg, weights, dot, dotTimeout, dir, saveLayout, dotCache, maxRuns);

    std::filesystem::create_directories(dir);
    const LayoutOptions o;
    std::printf("%-14s %7s %7s  %-6s %10s %6s %9s %9s %12s %9s\n", "graph", "items", "edges", "engine", "time ms",
                "ranks", "crossings", "width", "edge len", "straight");
    for (const char* family : {"transformer", "cnn"}) {
        for (int n : sizes) {
            const LayoutGraph g = std::string(family) == "transformer" ? transformer(n) : cnn(n);
            const std::string name = std::string(family) + "-" + std::to_string(n / 1000) + "k";
            LayoutResult r;
            double best = 1e300;
            for (int rep = 0; rep < 3; ++rep) {
                const auto t0 = Clock::now();
                r = computeLayout(g, o);
                best = std::min(best, std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
            }
            Metrics ours = measure(g, fromLayout(g, r));
            ours.ms = best;
            ours.note = std::to_string(r.stats.ghosts) + " ghosts, " + std::to_string(r.stats.dummies) + " dummies";
            printRow(name, g, "ours", ours);
            if (!dot || static_cast<int>(g.nodes.size()) > dotMax + dotMax / 10) continue;
            printRow(name, g, "dot", runDot(g, o, dir, name, dotTimeout));
            const LayoutGraph gg = ghosted(g, r);
            printRow(name, gg, "dot-g", runDot(gg, o, dir, name + "-g", dotTimeout));
        }
    }
    return 0;
}
