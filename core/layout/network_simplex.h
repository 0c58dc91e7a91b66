#pragma once
// Network simplex on a graph of difference constraints: integer values
// r[v] with r[head] - r[tail] >= minLength for every constraint, minimising
// the sum of weight * (r[head] - r[tail]). This is the solver Graphviz dot
// uses for both layering and x placement (Gansner, Koutsofios, North, Vo,
// "A Technique for Drawing Directed Graphs", 1993); here it places x
// (span_placement.h).
//
// Departures from the paper, and why:
//  - it starts from a feasible solution the caller gives (our Brandes-Koepf
//    coordinates), and builds its first spanning tree of tight constraints
//    by merging tight components, the smallest first, each shifted by the
//    least slack that joins it to another: O((V + E) log V) where growing
//    one tree and shifting it whole is quadratic;
//  - a subtree is a contiguous range of postorder numbers, so the entering
//    constraint's search and a subtree's shift walk an array instead of
//    recursing (no recursion at all: trees are tens of thousands deep);
//  - it stops after a budget of pivots and search steps. Every pivot keeps
//    the solution feasible and never raises its cost, so a stopped run is
//    still a valid placement; but the first tree's shifts can raise it, so
//    a run stopped early may be worse than its start (span_placement.cpp
//    then keeps the start).
#include <cstdint>
#include <functional>
#include <vector>

namespace irscope::layout::detail {

struct DifferenceConstraint {
    int32_t tail = 0, head = 0;
    int64_t minLength = 0;
    int64_t weight = 0;
};

struct SimplexReport {
    int64_t pivots = 0;
    int64_t work = 0;      // as counted against the budget
    bool optimal = false;  // no pivot left (false: the budget ran out)
};

// r: a feasible start, one value per node (nodes are 0 .. r.size() - 1);
// improved in place. workBudget: the most nodes and constraints visited by
// the pivots' searches and updates together (the tree's set-up is not
// counted). balance: once optimal, centre what can move at no cost in the
// room it has (for x placement: a join between its branches). A constraint
// from a node to itself is ignored, or throws std::invalid_argument when it
// can never hold (minLength > 0).
// onWork, when given, hears the work of each pivot as it is done (a caller
// reports progress, and may throw to cancel).
using SimplexWork = std::function<void(int64_t work)>;
SimplexReport solveNetworkSimplex(const std::vector<DifferenceConstraint>& constraints, std::vector<int64_t>& r,
                                  int64_t workBudget, bool balance = false, const SimplexWork& onWork = {});

}  // namespace irscope::layout::detail
