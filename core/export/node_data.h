#pragma once
// Model Explorer's node data: one number per node, with the colours that
// bands of values get, so that numbers travel between irscope and Google's
// Model Explorer (and AI Edge Quantizer, which writes them) in the format
// both read:
//   {"<graph id>": {"results": {"<node>": {"value": v}, ...},
//                   "thresholds": [{"value": t, "bgColor": "#..."}, ...]}}
// or the bare {"results": ..., "thresholds": ...}. A node takes the colour of
// the first threshold (in ascending order) whose value is >= its own.
// JSON has no infinities: +-inf are written as +-1.7976931348623157e308 (the
// largest double, which orders the same), NaN values are left out.
// Torch-free: the CLI and the graph view's overlay both use it.
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace irscope::exporter {

struct NodeDataThreshold {
    double value = 0;
    std::string bgColor;     // "#2e7d32", "red": any CSS colour
    std::string label = {};  // what the band means, for a legend ("" : its bound); irscope's own, not in the file
};

struct NodeData {
    std::string graphId;                                 // "" for the bare form
    std::vector<std::pair<std::string, double>> values;  // node name -> value, in file order
    std::vector<NodeDataThreshold> thresholds;           // ascending
    std::string title = {};  // what the numbers are, for a legend ("" : a file's); irscope's own, not in the file
};

// The JSON text; the bare form when `graphId` is empty. NaN values are left out.
std::string nodeDataJson(const NodeData& data);

// Reads either form (the first graph of a collection, or the one named
// `preferredGraph` when it is there). Throws std::runtime_error naming `file`,
// the place in it ("results.mul_1.value") and the reason.
NodeData parseNodeData(const std::string& text, const std::string& file, const std::string& preferredGraph = {});

// The colour of `value` under `thresholds` ("" when above them all).
std::string nodeDataColour(const std::vector<NodeDataThreshold>& thresholds, double value);

}  // namespace irscope::exporter
