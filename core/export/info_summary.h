#pragma once
// The facts `pytorch-ir info` prints about an IR, in its text layout and JSON keys.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/ir/graph.h"

namespace irscope::exporter {

struct InfoSummary {
    std::string modelName;
    size_t numNodes = 0, numInputs = 0, numOutputs = 0, numWeights = 0;
    // Sum over `weights` of each shape's element count. 128 bits: hand-written
    // files can declare absurd shapes, and Python's ints never overflow.
    unsigned __int128 totalParameters = 0;
    // A dynamic-shape program's (.pt2) shapes hold its symbols ("[1, s27]").
    std::vector<std::pair<std::string, ir::Shape>> inputShapes, outputShapes;
    // The symbols' ranges. Empty for JSON, whose text stays pytorch-ir's.
    std::vector<ir::SymbolRange> symbols;
    // Count per op_type, largest first, ties in first-seen order (Counter.most_common).
    std::vector<std::pair<std::string, size_t>> opDistribution;
};

InfoSummary summarize(const ir::Graph& graph);
std::string formatInfoText(const InfoSummary& info);  // ends with a newline
std::string formatInfoJson(const InfoSummary& info);  // json.dumps(indent=2), ends with a newline

std::string withThousands(unsigned __int128 value);  // 11689512 -> "11,689,512"

}  // namespace irscope::exporter
