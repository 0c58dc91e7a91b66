#pragma once
// A backend's groups, as its dump describes them (`irscope check-dump
// --groups GROUPS.json`): which part of the program each dumped value is the
// output of, and how the backend wrote it. An NPU compiler fuses, so it dumps
// one value per group, often in its own layout (NHWC) and as int8 with a
// scale. The file:
//   {"groups": {"stem": {"module": "features.0", "layout": "NHWC"},
//               "block2": {"nodes": ["conv2d_3", "relu_3"], "dtype": "int8",
//                          "scale": 0.05, "zero_point": 0},
//               "head": {"outputs": ["linear"]}}}
// Pure parsing (no torch): fuzzed like every other parser.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace irscope::ir {

struct DumpGroup {
    std::string name;
    enum class Selector { Module, Nodes, Outputs } selector = Selector::Module;
    std::string module;              // Selector::Module: a module path ("" is the model itself)
    std::vector<std::string> names;  // Selector::Nodes: node names; Selector::Outputs: tensor names
    // The dumped value is ours permuted by this (NHWC: [0, 2, 3, 1]); empty: ours.
    std::vector<int64_t> permutation;
    std::string layoutText;  // as the file wrote it, for messages ("NHWC", "[0, 2, 3, 1]")
    // Quantized (dtype "int8", "uint8", "int16", "int32"): value = (q - zero_point) * scale.
    std::string dtype;  // "" : floating, as the program's own
    double scale = 1.0;
    int64_t zeroPoint = 0;

    bool quantized() const { return !dtype.empty(); }
};

// Throws std::runtime_error "PATH: groups.NAME: reason" (or "PATH: reason").
// `text` is the file's contents.
std::vector<DumpGroup> parseDumpGroups(std::string_view text, const std::string& path);

// "NHWC" and its kin as a permutation of "NCHW"-style dimensions: NHWC
// [0, 2, 3, 1], NWC [0, 2, 1], NDHWC [0, 2, 3, 4, 1]; nullopt for other text.
std::optional<std::vector<int64_t>> layoutPermutation(std::string_view layout);

}  // namespace irscope::ir
