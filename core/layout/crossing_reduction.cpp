#include "core/layout/crossing_reduction.h"

#include <algorithm>
#include <functional>
#include <future>
#include <limits>
#include <system_error>
#include <thread>

#include "core/layout/adjacent_exchange.h"
#include "core/layout/candidate_pool.h"
#include "core/layout/crossing_count.h"
#include "core/layout/small_sort.h"

namespace irscope::layout::detail {

namespace {

constexpr int kTransposeVisits = 8;  // per layer: bounds the exchange pass on adversarial inputs

void initialOrder(LayeredGraph& g) {
    // Depth-first from the sources in input order (the IR's execution order):
    // a chain of ops lands in one column and branches next to each other.
    // A vertex reached brings its unvisited sources above along (weights,
    // ghosts, inputs read once): they start next to it, not at the end of
    // their layer, where the sweeps could not pull them back from (a source
    // keeps its place in a downward sweep) and its consumer would follow.
    const int32_t vc = g.vertexCount();
    std::vector<char> seen(vc, 0);
    for (auto& l : g.layers) l.clear();
    std::vector<std::pair<int32_t, size_t>> stack;
    auto place = [&](int32_t w) {
        for (int32_t u : g.up[w])
            if (!seen[u] && g.up[u].empty()) {
                seen[u] = 1;
                g.layers[g.layer[u]].push_back(u);
            }
        seen[w] = 1;
        g.layers[g.layer[w]].push_back(w);
        stack.emplace_back(w, 0);
    };
    auto visitFrom = [&](int32_t root) {
        if (seen[root]) return;
        place(root);
        while (!stack.empty()) {
            auto& [v, next] = stack.back();
            if (next == g.down[v].size()) {
                stack.pop_back();
                continue;
            }
            const int32_t w = g.down[v][next++];
            if (seen[w]) continue;
            place(w);
        }
    };
    for (int32_t v = 0; v < vc; ++v)
        if (g.up[v].empty() && g.alignsFreely(v)) visitFrom(v);
    for (int32_t v = 0; v < vc; ++v) visitFrom(v);
    g.updatePositions();
}

// How long the sweeps may go on. Graphs beyond a few thousand vertices
// (the 100k-node LLM) keep the caller's rounds. Smaller ones are
// "thorough": up to kMaxRounds rounds, the order after each downward sweep
// measured too (halfRounds), and candidates from a second, mirrored start
// (see reduceCrossings). Both stop after two rounds without improvement
// (four on the smallest): over the 200 generated graphs of
// bench/run_layout_population.sh, four rounds of patience saved 4
// crossings of 75,000 and cost about a fifth more time.
// The work is about kSweepWork vertex visits per round and candidate at
// most, so a thorough graph still lays out in about a millisecond.
struct SweepBudget {
    int rounds = 0;
    int patience = 2;
    bool halfRounds = false;
};

constexpr int64_t kSweepWork = 400000;
// Rounds x candidates the budget must afford for a thorough run (12 rounds
// of the four candidates a thread swept when this was set; three now).
constexpr int64_t kThoroughVisits = 48;
constexpr int kMaxRounds = 12;
constexpr double kPackGap = 20;  // the default node gap, for widthKeys
// A graph of at least this many vertices that weighs its candidates
// (thorough, or up to kWeighedVertices) sweeps its two starts on two
// threads: below it a thread costs more than the sweeps it takes over.
constexpr int32_t kParallelVertices = 150;
// Beyond the thorough budget, a graph of up to this many vertices still
// weighs its candidates by drawn length, from both starts (two tie rules
// each, the caller's rounds). The three largest MoE graphs of the
// population (8,700-12,300 vertices) were drawn by crossings alone with
// edges up to 1.27x dot's; weighed, at most 1.15x, for 20-40 ms more (dot
// takes 14-40 s on them). The 100k-node LLM (about 200k vertices) keeps
// the plain budget.
constexpr int32_t kWeighedVertices = 20000;
// On a graph of kParallelVertices or more, the orders of each start weighed
// by length (the fewest crossings first; see reduceCrossings).
constexpr size_t kWeighedPerStart = 2;

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
    // stops after `patience` rounds without improvement (SweepBudget: small
    // graphs get more rounds and patience, and the order after each
    // downward sweep is a candidate too). lanesFirst: on a barycenter tie a
    // long edge's lane goes first (left). widthKeys: barycenters of packed
    // x instead of positions (see at()). Returns the crossings of the best
    // order.
    int64_t run(bool lanesFirst, bool widthKeys, std::vector<std::vector<int32_t>>& bestLayers) {
        lanesFirst_ = lanesFirst;
        widthKeys_ = widthKeys;
        if (widthKeys_) packedX_.assign(g_.vertexCount(), 0.0);
        const auto layerCount = static_cast<int32_t>(g_.layers.size());
        const SweepBudget budget = sweepBudget(sweeps_, g_.vertexCount());
        int64_t best = -1;
        int stale = 0;
        // The exchange pass on the current order, then keep it if it is the best.
        auto consider = [&](bool ties) {
            std::vector<int64_t> gap = layerGaps(g_);
            int64_t c = 0;
            for (int64_t x : gap) c += x;
            if (c > 0)
                c -= transposeWithGaps(g_, group_, kTransposeVisits, ties, gap, transposeScratch_, progress_, total_);
            if (best < 0 || c < best) {
                best = c;
                bestLayers = g_.layers;
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
                if (best == 0) break;
            }
            for (int32_t l = layerCount - 2; l >= 0; --l) {
                sortLayer(l, false);
                if (progress_ != nullptr) progress_->advance(static_cast<int64_t>(g_.layers[l].size()), total_);
            }
            consider(round % 2 == 1);
            if (best == 0 || stale >= budget.patience) break;
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
            all += at(u);
            if (satellites_.anchorOf[u] >= 0) continue;
            s += at(u);
            ++k;
        }
        if (nb.empty()) return at(v);
        if (k > 0) return s / k;
        return all / static_cast<double>(nb.size());
    }

    // A vertex's place in its layer: its position, or with widthKeys the
    // x its layer would give it packed left (a row of wide weights counts
    // as wide, so what hangs beyond it is seen as far away).
    double at(int32_t v) const { return widthKeys_ ? packedX_[v] : g_.pos[v]; }

    void packLayer(int32_t l) {
        double x = 0;
        for (int32_t v : g_.layers[l]) {
            packedX_[v] = x + g_.width[v] / 2;
            x += g_.width[v] + kPackGap;
        }
    }

    // Sorts layer l by barycenter (satellites excluded), then puts each
    // anchor's satellites beside it.
    void sortLayer(int32_t l, bool downward) {
        auto& layer = g_.layers[l];
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
        stableSortSmall(sat.begin(), sat.end(),
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
    // edges (a weight fed by something) count the same way. Among the splits
    // with the fewest such crossings, the one nearest the middle: a weight
    // on each side of its op (as dot draws it) keeps the satellites' edges
    // about half as long as a row on one side; with an odd count the extra
    // one goes right, after the activation as in the op's input order.
    size_t leftSatellites(int32_t anchor, const std::vector<int32_t>& sat) {
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
    bool widthKeys_ = false;
    std::vector<double> packedX_;                        // per vertex, with widthKeys: see at()
    std::vector<double> key_;                            // per vertex: its barycenter in the current sort
    std::vector<int32_t> buffer_;                        // the layer's non-satellites, being sorted
    std::vector<int32_t> anchorDown_, anchorUp_, ends_;  // positions, for leftSatellites
    std::vector<int64_t> sideDelta_;                     // per satellite: left cost - right cost
    TransposeScratch transposeScratch_;                  // for the exchange pass after each sweep
};

}  // namespace

namespace {

// How one candidate sweeps (BarycenterSweeps::run).
struct TieRules {
    bool lanesFirst, widthKeys;
};

// Sweeps the candidates from one start, in the order of `rules`, handing
// each to `done`. stopAtZero: none after one with no crossings (when no
// length decides between such orders).
void sweepFrom(LayeredGraph& g, Satellites satellites, const std::vector<int32_t>& group,
               const std::vector<std::vector<int32_t>>& start, const std::vector<TieRules>& rules, int sweeps,
               Progress* progress, int64_t total, bool stopAtZero, const std::function<void(SweptOrder)>& done) {
    BarycenterSweeps sweeper(g, satellites, group, sweeps, progress, total);
    for (const TieRules& r : rules) {
        g.layers = start;
        g.updatePositions();
        SweptOrder o;
        o.crossings = sweeper.run(r.lanesFirst, r.widthKeys, o.layers);
        const bool uncrossed = o.crossings == 0;
        done(std::move(o));
        if (stopAtZero && uncrossed) break;
    }
}

// What the sweeps and the measuring of one start need of g, without its
// order (layers and pos: the sweeps set them from their start) and without
// the edges' chains (only routing reads them). Reads only members that
// neither the sweeps nor the measuring change (not even layers' size: an
// assignment to g.layers writes it), so it may run beside sweeps of g.
LayeredGraph orderingCopy(const LayeredGraph& g) {
    LayeredGraph own;
    own.itemCount = g.itemCount;
    own.ghostCount = g.ghostCount;
    own.type = g.type;
    own.layer = g.layer;
    own.width = g.width;
    own.height = g.height;
    own.ghostOf = g.ghostOf;
    own.up = g.up;
    own.down = g.down;
    return own;
}

}  // namespace

int64_t reduceCrossings(LayeredGraph& g, int sweeps, Progress* progress, const OrderLength& orderLength) {
    const int32_t vc = g.vertexCount();
    const SweepBudget budget = sweepBudget(sweeps, vc);
    const bool thorough = budget.halfRounds;
    const bool weighed = thorough || (vc <= kWeighedVertices && orderLength);
    const OrderLength* measure = weighed && orderLength ? &orderLength : nullptr;
    // Work units: vertices sorted or visited by the exchange pass; a round
    // sorts every layer twice and the exchange visits about as many again,
    // for each candidate this thread sweeps (two, or three when thorough;
    // the mirrored start's report no progress).
    const int64_t total = (thorough ? 3 : 2) * static_cast<int64_t>(std::max(budget.rounds, 1)) * 3 * vc;
    initialOrder(g);
    const Satellites satellites = findSatellites(g);
    const std::vector<int32_t> group = exchangeGroups(satellites, vc);
    if (sweeps <= 0) return countAllCrossings(g);

    // Candidates: two tie rules from the depth-first start (on a barycenter
    // tie a long edge's lane first or not) and, when thorough, a third with
    // width keys (a row of wide weights counts as wide: without them the MoE
    // decode fixtures drew up to 4 crossings more than dot; with lanes first
    // too, it won no graph of the population on crossings). When thorough,
    // the same again from the mirrored start (each layer right to left;
    // without lanes first from 150 vertices, see mirrorRules), kept where
    // crossings remain or where length decides: where the
    // depth-first order put a branch on the wrong side (an expert loop, an
    // auxiliary head), the sweeps from the mirror often do not. Over 200
    // generated graphs (bench/run_layout_population.sh) the mirror took the
    // share drawn with no more crossings than dot from 84% to 96%. The two
    // starts are independent (each its own copy of the graph and of the
    // satellites' order; their orders measured through one pool,
    // candidate_pool.h), so on a graph big enough to pay for a thread the
    // mirror is swept beside the first start: the result is the same on one
    // core or two. A graph past the thorough budget but weighed
    // (kWeighedVertices) gets both starts and the two tie rules.
    const std::vector<std::vector<int32_t>> start = g.layers;
    std::vector<TieRules> rules{{true, false}, {false, false}};
    std::vector<SweptOrder> orders;
    if (!weighed) {
        sweepFrom(g, satellites, group, start, rules, sweeps, progress, total, /*stopAtZero=*/true,
                  [&](SweptOrder o) { orders.push_back(std::move(o)); });
    } else {
        if (thorough) rules.push_back({false, true});
        std::vector<std::vector<int32_t>> mirrored = start;
        for (auto& layer : mirrored) std::reverse(layer.begin(), layer.end());
        // The mirror leaves out lanes first where its sweeps cost time (two
        // threads' worth of graph): over the 200 generated graphs that
        // candidate changed the population's crossings by none and its mean
        // edge length by 0.1%, for a sixth of the sweeping and measuring.
        std::vector<TieRules> mirrorRules = rules;
        if (thorough && vc >= kParallelVertices) mirrorRules.erase(mirrorRules.begin());
        CandidatePool pool(measure);
        // Which orders are weighed, once their start is swept. On a graph
        // too small for a second thread, every candidate (measuring is a few
        // dozen microseconds there). Beyond it, each start's two with the
        // fewest crossings (the first swept of a tie first). Over the 200
        // generated graphs that keeps the crossings, mean and worst edge
        // length of weighing all five, and took the smallest speed-up over
        // dot's work from 4.5x to 6.3-7.5x (timings on the 2-core test
        // machine vary by a fifth); weighing only each start's fewest was as
        // fast, but one MoE graph of the depth-1 population then drew edges
        // 1.28x as long as dot's.
        const size_t weighedPerStart = vc < kParallelVertices ? std::numeric_limits<size_t>::max() : kWeighedPerStart;
        // One start's candidates swept on `own`, then measured (by this
        // thread, or by the other one where it is free).
        auto sweepStart = [&](LayeredGraph& own, int id, const std::vector<std::vector<int32_t>>& from,
                              Progress* reporting) {
            std::vector<SweptOrder> swept;
            sweepFrom(own, satellites, group, from, id == 0 ? rules : mirrorRules, sweeps, reporting, total,
                      measure == nullptr, [&](SweptOrder o) { swept.push_back(std::move(o)); });
            std::vector<size_t> rank(swept.size());
            for (size_t i = 0; i < rank.size(); ++i) rank[i] = i;
            std::stable_sort(rank.begin(), rank.end(),
                             [&](size_t a, size_t b) { return swept[a].crossings < swept[b].crossings; });
            std::vector<char> weigh(swept.size(), 0);
            for (size_t r = 0; r < std::min(rank.size(), weighedPerStart); ++r) weigh[rank[r]] = 1;
            for (size_t i = 0; i < swept.size(); ++i) pool.add(id, std::move(swept[i]), weigh[i] != 0);
            pool.measureWaiting(own);
        };
        if (vc >= kParallelVertices && std::thread::hardware_concurrency() > 1) {
            // Its own copy, taken on that thread (a graph of a few hundred
            // vertices is as many small vectors, a fifth of a small layout's
            // allocations): it reads only what this thread's sweeps leave
            // alone (orderingCopy), and brings its own layers. Declared after
            // everything it uses, so an exception here waits for it first.
            std::future<void> beside;
            try {
                beside = std::async(std::launch::async, [&]() {
                    LayeredGraph own = orderingCopy(g);
                    sweepStart(own, 1, mirrored, nullptr);
                });
            } catch (const std::system_error&) {  // no thread to be had: both starts on this one
            }
            sweepStart(g, 0, start, progress);
            if (beside.valid())
                beside.get();
            else
                sweepStart(g, 1, mirrored, nullptr);
        } else {
            sweepStart(g, 0, start, progress);
            if (measure != nullptr || !pool.anyUncrossed(0)) sweepStart(g, 1, mirrored, nullptr);
        }
        // When lengths decide, the mirror's orders compete even where the
        // first start has one without crossings: that one may be long enough
        // to lose to a crossed order, and the mirror's may be uncrossed and
        // shorter (7 CNNs in 200 drew a crossing dot does not without it).
        orders = pool.orders(/*withMirror=*/measure != nullptr || !pool.anyUncrossed(0));
    }

    // The winner: the least cost when measured, then the fewest crossings,
    // then the first.
    size_t winner = 0;
    for (size_t i = 1; i < orders.size(); ++i) {
        const SweptOrder &o = orders[i], &w = orders[winner];
        if (o.cost < w.cost || (o.cost == w.cost && o.crossings < w.crossings)) winner = i;
    }
    const int64_t best = orders[winner].crossings;
    g.layers = std::move(orders[winner].layers);
    g.updatePositions();
    if (best == 0) return 0;
    return best - transposePass(g, group, kTransposeVisits);
}

}  // namespace irscope::layout::detail
