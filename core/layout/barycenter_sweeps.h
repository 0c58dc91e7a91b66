#pragma once
// Internal: one candidate order of the crossing reduction
// (crossing_reduction.h): down/up barycenter sweeps from a start order under
// one tie rule, each followed by the exchange pass (adjacent_exchange.h),
// keeping the best order seen; and the budget that says how long they go on.
//
// A candidate is a pure function of its start order and tie rule. The
// sweeper keeps the satellites' order between runs, but re-sorts it stably
// by consumer position on every visit, and satellites sharing a consumer
// keep their input order throughout: nothing one run leaves behind changes
// the next. So a thread may sweep any candidate of either start, in any
// order, and the drawing is the same on one core or two.
#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "core/layout/adjacent_exchange.h"
#include "core/layout/candidate_pool.h"
#include "core/layout/layered_graph.h"
#include "core/layout/progress.h"

namespace irscope::layout::detail {

// How long the sweeps may go on. Graphs beyond a few thousand vertices
// (the 100k-node LLM) keep the caller's rounds. Smaller ones are
// "thorough": up to 12 rounds, the order after each downward sweep
// measured too (halfRounds), and candidates from a second, mirrored start
// (see reduceCrossings). Both stop after two rounds without improvement
// (four on the smallest): over the 200 generated graphs of
// bench/run_layout_population.sh, four rounds of patience saved 4
// crossings of 75,000 and cost about a fifth more time.
// The work is about 400,000 vertex visits per round and candidate at
// most, so a thorough graph still lays out in about a millisecond.
struct SweepBudget {
    int rounds = 0;
    int patience = 2;
    bool halfRounds = false;
};

// A graph of at least this many vertices that weighs its candidates
// (thorough, or up to kWeighedVertices) sweeps and measures them on two
// threads: below it a thread costs more than the sweeps it takes over.
constexpr int32_t kParallelVertices = 150;

SweepBudget sweepBudget(int sweeps, int32_t vertexCount);

// Visits per layer of one exchange pass: bounds it on adversarial inputs.
constexpr int kTransposeVisits = 8;

// Satellites (weights and ghosts with one consumer) and the anchors they
// follow: the first freely aligning input of that consumer.
struct Satellites {
    std::vector<int32_t> anchorOf;               // per vertex: its anchor, -1 when not a satellite
    std::vector<std::vector<int32_t>> ofAnchor;  // per vertex: the satellites anchored on it
};

Satellites findSatellites(const LayeredGraph& g);

// Groups for the exchange pass: an anchor and its satellites share the
// anchor's id; plain vertices share -1 (any two may swap).
std::vector<int32_t> exchangeGroups(const Satellites& s, int32_t vc);

// How one candidate sweeps. lanesFirst: on a barycenter tie a long edge's
// lane goes first (left). widthKeys: barycenters of packed x instead of
// positions (a row of wide weights counts as wide).
struct TieRules {
    bool lanesFirst, widthKeys;
};

// The barycenter sweeps with satellites kept beside their anchors, on one
// thread's graph. One object sweeps many candidates, keeping its scratch
// buffers (and its own copy of the satellites) between them.
class BarycenterSweeps {
public:
    // skipSettled: skip sorting a layer whose sort would change nothing
    // (sortedAt_); off only to test that it changes nothing.
    BarycenterSweeps(LayeredGraph& g, const Satellites& satellites, const std::vector<int32_t>& group, int sweeps,
                     Progress* progress, int64_t total, bool skipSettled = true);

    // The candidate from `start` under `rules`: down/up rounds, each
    // followed by the exchange pass (ties allowed on odd rounds), the best
    // order kept; stops after `patience` rounds without improvement
    // (SweepBudget: small graphs get more rounds and patience, and the
    // order after each downward sweep is a candidate too). Leaves g's
    // order somewhere along the way.
    SweptOrder sweep(const std::vector<std::vector<int32_t>>& start, TieRules rules);

private:
    double barycenter(int32_t v, bool downward) const;
    // A vertex's place in its layer: its position, or with widthKeys the
    // x its layer would give it packed left (a row of wide weights counts
    // as wide, so what hangs beyond it is seen as far away).
    double at(int32_t v) const { return widthKeys_ ? packedX_[v] : g_.pos[v]; }
    void packLayer(int32_t l);
    void sortLayer(int32_t l, bool downward);
    void appendWithSatellites(std::vector<int32_t>& layer, size_t& at, int32_t v);
    void put(std::vector<int32_t>& layer, size_t& at, int32_t v) {
        changed_ = changed_ || layer[at] != v;
        layer[at++] = v;
    }
    size_t leftSatellites(int32_t anchor, const std::vector<int32_t>& sat);
    void positions(std::span<const int32_t> vertices, std::vector<int32_t>& out) const;
    void sortedPositions(std::span<const int32_t> vertices, std::vector<int32_t>& out) const;

    LayeredGraph& g_;
    Satellites satellites_;  // this object's own: appendWithSatellites re-sorts them
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
    // Per layer and direction (sortLayer): the versions (transposeScratch_.version)
    // of the layer and its two neighbours when it was last sorted that way.
    // Sorting it again with none of them changed would give the same order
    // (the sort is stable and the order sorted already), so it is skipped:
    // late in a candidate's rounds most layers are settled. Not where a
    // vertex has no neighbour on the fixed side (its key is its own place,
    // which the sort moved): anchored[direction][layer] says there is none.
    std::vector<std::array<uint32_t, 3>> sortedAt_[2];
    std::vector<char> anchored_[2];
    bool changed_ = false;  // the sort being written moved a vertex
    // Per gap between layers: its crossings and the versions of its two
    // layers when they were counted (sweep's consider).
    std::vector<int64_t> gap_;
    std::vector<std::array<uint32_t, 2>> gapAt_;
    bool skipSettled_;
};

}  // namespace irscope::layout::detail
