#include "core/layout/crossing_reduction.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <condition_variable>
#include <future>
#include <limits>
#include <mutex>
#include <optional>
#include <system_error>
#include <thread>

#include "core/layout/adjacent_exchange.h"
#include "core/layout/barycenter_sweeps.h"
#include "core/layout/candidate_pool.h"
#include "core/layout/chain_exchange.h"
#include "core/layout/crossing_count.h"
#include "core/layout/lane_routing.h"

namespace irscope::layout::detail {

namespace {

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
// Weighed graphs from this many vertices also sweep from the sinks up and
// from its mirror (see reduceCrossings).
constexpr int32_t kBottomUpVertices = 1000;
// The chain exchange on the winner: blocks of up to kChainDepth layers
// each way from a pair, at most kChainRounds passes (a pass that gains
// nothing ends it). Over the population one layer each way found all but
// 0.1% of what eight did.
constexpr int kChainDepth = 8;
constexpr int kChainRounds = 4;
// Then lane routing (lane_routing.h): at most kLaneRounds over every lane,
// within kLaneWork cells of its cost tables per vertex. On the population
// 100 found what 200 did; on a 64-expert MoE layer (2,500 vertices, wide
// expert layers) 200 cost a third of the layout's time.
constexpr int kLaneRounds = 3;
constexpr int64_t kLaneWork = 100;

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

using Layers = std::vector<std::vector<int32_t>>;

// Breadth first from the sinks (vertices with nothing below), upward, each
// vertex appended to its layer as it is reached; anything unreached last.
Layers breadthFirstFromSinks(const LayeredGraph& g) {
    const int32_t vc = g.vertexCount();
    Layers layers(g.layers.size());
    std::vector<char> seen(vc, 0);
    std::vector<int32_t> queue;
    queue.reserve(vc);
    for (int32_t s = 0; s < vc; ++s) {
        if (!g.down[s].empty() || seen[s]) continue;
        seen[s] = 1;
        queue.push_back(s);
        for (size_t head = queue.size() - 1; head < queue.size(); ++head) {
            const int32_t v = queue[head];
            layers[g.layer[v]].push_back(v);
            for (int32_t w : g.up[v])
                if (!seen[w]) {
                    seen[w] = 1;
                    queue.push_back(w);
                }
        }
    }
    for (int32_t v = 0; v < vc; ++v)
        if (!seen[v]) layers[g.layer[v]].push_back(v);
    return layers;
}

// What the sweeps and the measuring need of g, its order taken from `start`
// (g's own changes under the other thread's sweeps; the sweeps and
// measuring set it anyway, keeping its layer sizes), without the edges'
// chains (only routing reads them). Reads only members that neither the
// sweeps nor the measuring change (not even g.layers' size: an assignment
// to it writes that), so it may run beside sweeps of g.
LayeredGraph orderingCopy(const LayeredGraph& g, const Layers& start) {
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
    own.layers = start;  // the layer sizes every order keeps (SweptOrder)
    own.updatePositions();
    return own;
}

// The candidates of both starts as tasks that the threads take in order
// (the first start's first), each sweeping on its own graph; a start's
// orders go to the pool once its last candidate is swept (the weighing
// ranks a start's orders among themselves), and then any free thread
// measures them. Candidates are independent (barycenter_sweeps.h) and the
// pool's choice does not depend on who measures what (candidate_pool.h),
// so the drawing is the same however the work falls to the threads; with
// whole starts per thread, the first start's three candidates kept one
// thread busy while the other, done with the mirror's two, waited.
class CandidateTasks {
public:
    struct Start {
        const Layers* order;
        std::vector<TieRules> rules;
    };

    // stopAtZero: where no length decides, a start's candidates after one
    // without crossings are left out, and the mirror's altogether once the
    // first start has one. weighedPerStart: how many of each start's orders
    // (the fewest crossings first) the pool measures.
    CandidateTasks(std::vector<Start> starts, CandidatePool& pool, size_t weighedPerStart, bool stopAtZero)
        : starts_(std::move(starts)), pool_(pool), weighedPerStart_(weighedPerStart), stopAtZero_(stopAtZero) {
        for (size_t s = 0; s < starts_.size(); ++s) {
            swept_.emplace_back(starts_[s].rules.size());
            left_.push_back(starts_[s].rules.size());
            for (size_t r = 0; r < starts_[s].rules.size(); ++r) tasks_.push_back({s, r});
            if (starts_[s].rules.empty()) ++added_;  // nothing to sweep: added as it is, or none would wait it out
        }
    }

    // Sweeps candidates and measures orders on `own` until none is left.
    // On an exception (a cancelled layout), tells the other thread, which
    // may be waiting for this one's orders, before passing it on.
    void work(BarycenterSweeps& sweeper, LayeredGraph& own) {
        try {
            int measuredUpTo = -1;  // starts added to the pool when this thread last measured
            for (;;) {
                Task t{};
                if (take(t)) {
                    finish(t, sweeper.sweep(*starts_[t.start].order, starts_[t.start].rules[t.rule]));
                    continue;
                }
                {
                    std::unique_lock<std::mutex> hold(lock_);
                    if (failed_) return;  // the other thread failed: its exception ends the run
                    if (added_ == measuredUpTo) {
                        if (added_ == static_cast<int>(starts_.size())) return;
                        const int seen = added_;
                        changed_.wait(hold, [&] { return failed_ || added_ != seen; });
                        continue;
                    }
                    measuredUpTo = added_;
                }
                pool_.measureWaiting(own);
            }
        } catch (...) {
            const std::lock_guard<std::mutex> hold(lock_);
            failed_ = true;
            changed_.notify_all();
            throw;
        }
    }

private:
    struct Task {
        size_t start, rule;
    };

    bool take(Task& t) {
        const std::lock_guard<std::mutex> hold(lock_);
        while (next_ < tasks_.size() && !failed_) {
            t = tasks_[next_++];
            if (!stopAtZero_ || !settledUncrossed(t)) return true;
            if (--left_[t.start] == 0) addStart(t.start);  // skipped: it would never have been swept
        }
        return false;
    }

    // Where no length decides, whether t need not be swept: an earlier
    // candidate of its start, or the first start (for the mirror), is
    // known to have no crossings. Known only once swept; a candidate taken
    // before that is swept and left out in addStart.
    bool settledUncrossed(const Task& t) const {
        for (size_t r = 0; r < t.rule; ++r)
            if (swept_[t.start][r] && swept_[t.start][r]->crossings == 0) return true;
        return t.start > 0 && pool_.anyUncrossed(0);
    }

    void finish(const Task& t, SweptOrder o) {
        const std::lock_guard<std::mutex> hold(lock_);
        swept_[t.start][t.rule] = std::move(o);
        if (--left_[t.start] == 0) addStart(t.start);
    }

    // Hands start s's orders to the pool in sweep order, its
    // weighedPerStart fewest-crossings ones (the first swept of a tie
    // first) to be measured. Under lock_.
    void addStart(size_t s) {
        std::vector<std::optional<SweptOrder>>& swept = swept_[s];
        size_t kept = swept.size();
        if (stopAtZero_)  // up to the first uncrossed one, which is swept
            for (size_t r = 0; r < swept.size(); ++r)
                if (!swept[r] || swept[r]->crossings == 0) {
                    kept = swept[r] ? r + 1 : r;
                    break;
                }
        std::vector<size_t> rank(kept);
        for (size_t i = 0; i < kept; ++i) rank[i] = i;
        std::stable_sort(rank.begin(), rank.end(),
                         [&](size_t a, size_t b) { return swept[a]->crossings < swept[b]->crossings; });
        std::vector<char> weigh(kept, 0);
        for (size_t r = 0; r < std::min(kept, weighedPerStart_); ++r) weigh[rank[r]] = 1;
        for (size_t i = 0; i < kept; ++i) pool_.add(static_cast<int>(s), std::move(*swept[i]), weigh[i] != 0);
        ++added_;
        changed_.notify_all();
    }

    const std::vector<Start> starts_;
    CandidatePool& pool_;
    const size_t weighedPerStart_;
    const bool stopAtZero_;
    std::mutex lock_;
    std::condition_variable changed_;  // a start was added to the pool, or a thread failed
    std::vector<Task> tasks_;
    size_t next_ = 0;
    std::vector<std::vector<std::optional<SweptOrder>>> swept_;  // per start and rule, once swept
    std::vector<size_t> left_;                                   // per start: candidates not yet swept or skipped
    int added_ = 0;                                              // starts handed to the pool
    bool failed_ = false;
};

}  // namespace

int64_t reduceCrossings(LayeredGraph& g, int sweeps, Progress* progress, const OrderLength& orderLength,
                        CandidateStarts startSet, double* winnerLength) {
    const int32_t vc = g.vertexCount();
    const SweepBudget budget = sweepBudget(sweeps, vc);
    const bool thorough = budget.halfRounds;
    const bool weighed = thorough || (vc <= kWeighedVertices && orderLength);
    const OrderLength* measure = weighed && orderLength ? &orderLength : nullptr;
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
    // share drawn with no more crossings than dot from 84% to 96%. Every
    // candidate is independent of the others (barycenter_sweeps.h) and
    // their orders are measured through one pool (candidate_pool.h), so on
    // a graph big enough to pay for a thread two threads share them
    // (CandidateTasks): the result is the same on one core or two. A graph
    // past the thorough budget but weighed (kWeighedVertices) gets both
    // starts and the two tie rules.
    const Layers start = g.layers;
    std::vector<TieRules> rules{{true, false}, {false, false}};
    if (thorough) rules.push_back({false, true});
    std::vector<CandidateTasks::Start> starts{{&start, rules}};
    // Where two layerings share the time of one (DepthFirst), one
    // candidate: width keys where thorough (over the population, the
    // drawings of all three rules again), else the plain rule.
    if (startSet == CandidateStarts::DepthFirst) starts[0].rules.assign(1, rules.back());
    Layers mirrored;
    if (weighed && startSet == CandidateStarts::All) {
        mirrored = start;
        for (auto& layer : mirrored) std::reverse(layer.begin(), layer.end());
        // The mirror leaves out lanes first where its sweeps cost time (two
        // threads' worth of graph): over the 200 generated graphs that
        // candidate changed the population's crossings by none and its mean
        // edge length by 0.1%, for a sixth of the sweeping and measuring.
        std::vector<TieRules> mirrorRules = rules;
        if (thorough && vc >= kParallelVertices) mirrorRules.erase(mirrorRules.begin());
        starts.push_back({&mirrored, mirrorRules});
    }
    // Two more starts, from dot's other initial order: breadth first from
    // the sinks up, so a branch is placed by what consumes it, and its
    // mirror. Where a decoder step computes its rotary tables per layer,
    // the barycenters from the depth-first starts leave the cos/sin chain
    // beside the position input, across the q and k projections; started
    // from the consumers it lands between them, as dot draws it. Over the
    // population's decode steps with rotary embeddings (1,000-3,500 items)
    // they took the summed crossings from 1.16x dot's to 1.00x (the first
    // alone 1.05x), and no graph got more. Only from kBottomUpVertices:
    // below, the extra sweeps would cost a small graph its 10x margin over
    // dot's time.
    Layers bottomUp, bottomUpMirrored;
    if (weighed && vc >= kBottomUpVertices && startSet == CandidateStarts::All) {
        bottomUp = breadthFirstFromSinks(g);
        bottomUpMirrored = bottomUp;
        for (auto& layer : bottomUpMirrored) std::reverse(layer.begin(), layer.end());
        starts.push_back({&bottomUp, rules});
        starts.push_back({&bottomUpMirrored, rules});
    }
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
    // Work units for progress: vertices sorted or visited by the exchange
    // pass; a round sorts every layer twice and the exchange visits about as
    // many again, for each candidate the calling thread sweeps (the other
    // reports none): all of them at most, about half where a second thread
    // shares them, so the bar may jump at the end of the phase rather than
    // wait at it.
    size_t candidates = 0;
    for (const auto& s : starts) candidates += s.rules.size();
    const int64_t total = static_cast<int64_t>(candidates) * static_cast<int64_t>(std::max(budget.rounds, 1)) * 3 * vc;
    CandidateTasks tasks(std::move(starts), pool, weighedPerStart, /*stopAtZero=*/measure == nullptr);
    BarycenterSweeps sweeper(g, satellites, group, sweeps, progress, total);
    if (weighed && vc >= kParallelVertices && std::thread::hardware_concurrency() > 1) {
        // The other thread's own copy, taken there, beside this thread's
        // first sweep: it reads only what those sweeps leave alone
        // (orderingCopy). Declared after everything it uses, so an
        // exception here waits for it first.
        std::future<void> beside;
        try {
            beside = std::async(std::launch::async, [&]() {
                LayeredGraph own = orderingCopy(g, start);
                BarycenterSweeps ownSweeper(own, satellites, group, sweeps, nullptr, total);
                tasks.work(ownSweeper, own);
            });
        } catch (const std::system_error&) {  // no thread to be had: all of it on this one
        }
        tasks.work(sweeper, g);
        if (beside.valid()) beside.get();
    } else {
        tasks.work(sweeper, g);
    }
    // When lengths decide, the mirror's orders compete even where the
    // first start has one without crossings: that one may be long enough
    // to lose to a crossed order, and the mirror's may be uncrossed and
    // shorter (7 CNNs in 200 drew a crossing dot does not without it).
    std::vector<SweptOrder> orders = pool.orders(/*withMirror=*/measure != nullptr || !pool.anyUncrossed(0));

    // The winner: the least cost when measured, then the fewest crossings,
    // then the first.
    size_t winner = 0;
    for (size_t i = 1; i < orders.size(); ++i) {
        const SweptOrder &o = orders[i], &w = orders[winner];
        if (o.cost < w.cost || (o.cost == w.cost && o.crossings < w.crossings)) winner = i;
    }
    const int64_t best = orders[winner].crossings;
    const bool settled = orders[winner].settled;
    if (winnerLength != nullptr)
        *winnerLength =
            std::isfinite(orders[winner].cost) ? orders[winner].cost - static_cast<double>(best) * kCrossingWorth : 0.0;
    g.setOrder(orders[winner].order);
    // A last exchange pass, unless the winner's own left nothing to gain
    // (then this one would change nothing: the measured coordinates stay
    // the drawing's, and a small graph saves a tenth of its time). Then
    // the chain exchange (chain_exchange.h): over the population it took
    // the rotary decode steps' summed crossings from 1.00x dot's to 0.86x
    // and the encoder-decoders' from 1.00x to 0.36x. Only on the winner:
    // inside every candidate's rounds it changed the choice on no family.
    // Then lane routing (lane_routing.h), and the chain exchange again for
    // what the moved lanes allow: a rotary decode step with 145 crossings
    // to dot's 142 drew 142.
    if (best == 0) return best;
    int64_t left = settled ? best : best - transposePass(g, group, kTransposeVisits);
    if (left > 0) left -= chainExchangePass(g, group, kChainDepth, kChainRounds);
    if (left == 0) return 0;
    const int64_t rerouted = rerouteLanes(g, group, kLaneRounds, kLaneWork * int64_t{vc});
    left -= rerouted;
    if (rerouted > 0 && left > 0)
        left -= chainExchangePass(g, group, kChainDepth, kChainRounds);  // what the moved lanes allow
    return left;
}

}  // namespace irscope::layout::detail
