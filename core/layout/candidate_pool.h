#pragma once
// Internal: the candidate orders of the crossing reduction and their
// measuring, shared by the threads that sweep them.
//
// Why a pool: the candidates of both starts are swept by whichever thread
// takes them (crossing_reduction.cpp), and measuring an order (laying it
// out to weigh its drawn length) needs nothing but the order. The pool
// holds both starts' orders in sweep order, lets whichever thread is free
// measure any order waiting (on a graph of a few hundred vertices a
// measurement costs about as much as a sweep), and rules out an order by
// the best cost either thread has measured so far.
//
// The result does not depend on which thread measures what: an order left
// unmeasured is one that cannot win (its crossings alone cost strictly more
// than an order already measured), the twin of one measured, or one its
// caller added unweighed; the winner is chosen by cost, then crossings,
// then the first swept start's first.
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <mutex>
#include <vector>

#include "core/layout/layered_graph.h"

namespace irscope::layout::detail {

// Choosing between candidate orders by drawn length: one crossing counts as
// this many px of horizontal edge span (a few long edges'), so length
// decides between orders with as many crossings, and a crossing more is
// taken only for a much shorter drawing. Measured over the population and
// the fixtures once edge-length descent (length_descent.h) made the lengths
// honest: at 1,000 px, 9 graphs in 200 drew more crossings than dot; at
// 10,000, tiny_moe took one crossing fewer for edges 1.32x dot's; anything
// from 3,000 to 8,000 kept both within bounds.
constexpr double kCrossingWorth = 5000;

// One candidate's outcome: its crossings and its order.
struct SweptOrder {
    int64_t crossings = 0;
    std::vector<int32_t> order;  // layer after layer (LayeredGraph::orderInto)
    // Crossings plus drawn length (kCrossingWorth) once measured; infinite
    // when not measured because it could not win.
    double cost = std::numeric_limits<double>::infinity();
    // The exchange pass that ended its sweeps left nothing to gain
    // (ExchangeOutcome::settled), so a last pass would not move it.
    bool settled = false;
};

// The drawn length of an order on the graph given (the caller's layout).
using OrderLength = std::function<double(const LayeredGraph&)>;

class CandidatePool {
public:
    // measure: null when no length decides (orders are then never measured).
    explicit CandidatePool(const OrderLength* measure) : measure_(measure) {}

    // Adds an order swept from start `start` (0 the first, 1 the mirror),
    // in the order swept. weigh: false to leave it unmeasured (it competes
    // on crossings only, so it wins only where no order is measured).
    void add(int start, SweptOrder order, bool weigh = true);

    // Measures waiting orders, fewest crossings first, on `own` (the
    // calling thread's graph; its order is overwritten) until none waits.
    void measureWaiting(LayeredGraph& own);

    bool anyUncrossed(int start);

    // The orders swept, each start's in sweep order, the first start's
    // before the mirror's (left out unless withMirror). Moves them out.
    std::vector<SweptOrder> orders(bool withMirror);

private:
    struct Entry {
        int start = 0;
        int seq = 0;
        SweptOrder order;
        bool taken = false;      // a thread measured it, measures it, or ruled it out
        bool measuring = false;  // a thread measured or measures it
    };
    // The waiting entry to measure next, taken (null when none waits);
    // entries that cannot win are taken on the way, unmeasured.
    Entry* next();

    const OrderLength* measure_;
    std::mutex lock_;
    std::vector<std::unique_ptr<Entry>> entries_;
    double best_ = std::numeric_limits<double>::infinity();
};

}  // namespace irscope::layout::detail
