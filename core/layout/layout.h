#pragma once
// The layout engine's entry point: LayoutGraph in, LayoutResult out.
// Pure, deterministic (same input -> bit-identical output) and near-linear:
//   layering (longest path, side branches sunk towards their consumers,
//      weights just above their consumer, a layer more below an op that
//      feeds three or more weight-fed ops; from 500 to 20k vertices also a
//      second layering of least total span, and the cheaper drawing of the
//      two kept)
//   -> long edges (ghost proxies for far high-fan-out sources, dummies for the rest)
//   -> crossing reduction (barycenter sweeps, weights split around their
//      anchor, adjacent exchange of vertices and groups; Fenwick-tree
//      crossing count; small graphs: several candidate orders, the least
//      crossings-plus-length one kept; then for the winner, the exchange
//      carried down parallel chains and each lane of bend points routed
//      by a shortest path)
//   -> coordinates (Brandes-Koepf, weights and ghosts left out of the
//      alignment, then slid towards their consumers, then edge-length
//      descent; for the chosen order, up to 20k vertices, the least
//      weighted span by network simplex from there, long columns kept
//      straight)
//   -> edge routing (polylines from the source's bottom to the target's top).
#include <exception>
#include <functional>

#include "core/layout/layout_graph.h"
#include "core/layout/layout_result.h"

namespace irscope::layout {

// Progress and cancellation. Called from the thread running computeLayout at
// the start of each phase and every few thousand vertices inside the long
// loops (a few hundred calls on 100k nodes), with the share of the work done
// (0 to 1, never decreasing; 1 when the layout is complete) and the phase's
// name ("layering", "long edges", "crossings", "coordinates", "routing",
// "done"). Return false to cancel: computeLayout then throws LayoutCancelled
// before calling it again.
using LayoutProgress = std::function<bool(double fraction, const char* phase)>;

class LayoutCancelled : public std::exception {
public:
    const char* what() const noexcept override { return "layout cancelled"; }
};

struct LayoutOptions {
    double nodeGap = 20;   // horizontal space between two boxes in a layer
    double dummyGap = 8;   // ... when one of them is a long edge's bend point
    double layerGap = 36;  // vertical space between layers (room for a shape label)
    double margin = 16;    // around the whole drawing

    // Long edges. An edge spanning more than ghostMinSpan layers whose source
    // feeds at least ghostMinFanout items, or any edge longer than
    // maxEdgeSpan, is drawn from a ghost proxy placed just above its
    // consumer. If dummies would still exceed maxDummiesPerItem * items, the
    // longest remaining edges are ghosted too. Everything else gets dummies.
    int ghostMinSpan = 4;
    int ghostMinFanout =
        3;  // 4 keeps residual streams (norm + residual add) as drawn lanes: wider, fewer straight edges
    int maxEdgeSpan = 60;
    double maxDummiesPerItem = 2.0;
    double ghostHeight = 22;
    double ghostMaxWidth = 160;

    int crossingSweeps = 6;  // down+up rounds of barycenter ordering (best kept)

    LayoutProgress progress;  // empty: no reports, no cancellation
};

// Throws std::out_of_range for an edge endpoint outside the graph, and
// LayoutCancelled when options.progress returned false.
LayoutResult computeLayout(const LayoutGraph& graph, const LayoutOptions& options = {});

}  // namespace irscope::layout
