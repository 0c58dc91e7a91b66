#pragma once
// The two forms `irscope diff` prints a GraphDiff in: a summary grouped by
// module for people, and one JSON object for scripts, whose keys they rely
// on: identical, nodes{added, removed, changed, renamed}, weights,
// graph_inputs, graph_outputs, plus modules.
#include <string>
#include <vector>

#include "core/diff/graph_diff.h"
#include "core/diff/module_changes.h"

namespace irscope::exporter {

struct DiffSides {
    const ir::GraphIndex& a;
    const ir::GraphIndex& b;
    std::string labelA;  // the file names as the user gave them
    std::string labelB;
};

// summaryOnly: the counts per module without the node lines (a shape change
// touches every node of a 100,000-node model).
std::string formatDiffText(const diff::GraphDiff& diff, const std::vector<diff::ModuleChanges>& modules,
                           const DiffSides& sides, bool summaryOnly = false);
std::string formatDiffJson(const diff::GraphDiff& diff, const std::vector<diff::ModuleChanges>& modules,
                           const DiffSides& sides);

// "1 added, 2 changed, 40 renamed" (only the non-zero counts; "no change" when all are).
std::string countsLine(int64_t changed, int64_t added, int64_t removed, int64_t renamed);

}  // namespace irscope::exporter
