#pragma once
// Which node of graph B is which node of graph A. The diff (graph_diff.h) and
// the window's synced side-by-side view both start here.
//
// Names alone are not enough: FX names nodes by op and a counter, so one
// inserted `mul` renames every later `mul` (`mul_3` becomes `mul_4`), and
// pairing by name would call half the graph changed. So a node is matched by
// what it computes: its op and the (already matched) values it reads, starting
// from the graph inputs (by name) and the weights (by original state_dict
// name), in execution order. Where a change breaks that chain (an inserted
// node feeds the rest), matching also runs backward from the graph outputs,
// pairing the producers of matched nodes slot by slot. Names only break ties
// and, last, pair what structure left over; `MatchMode::Names` is the plain
// by-name pairing for graphs known to share their names.
#include <cstdint>
#include <vector>

#include "core/ir/graph.h"
#include "core/ir/graph_index.h"

namespace irscope::diff {

enum class MatchMode {
    Auto,       // structure, names breaking ties and pairing the rest (default)
    Names,      // same name = same node, nothing else
    Structure,  // structure only: names ignored (graphs from two exporters)
};

// How a pair was found, strongest first.
enum class MatchReason : uint8_t {
    None,
    Structure,  // same op, same attrs or not, reading matched values
    Backward,   // producer of a matched node at the same input slot, same op
    Name,       // same name and op, left over by structure
    OpSwap,     // reads the same values (or feeds the same slot) but runs another op
};

struct NodeMatch {
    std::vector<int64_t> aToB;  // per node of A: its node in B, or -1
    std::vector<int64_t> bToA;  // per node of B: its node in A, or -1
    std::vector<MatchReason> reasonB;
    std::vector<int64_t> inputAToB;  // graph inputs, by name (-1: none)
    std::vector<int64_t> inputBToA;
    std::vector<int64_t> weightAToB;  // weights[], by original name
    std::vector<int64_t> weightBToA;
};

NodeMatch matchGraphs(const ir::GraphIndex& a, const ir::GraphIndex& b, MatchMode mode);

}  // namespace irscope::diff
