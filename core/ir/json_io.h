#pragma once
// Reading and writing torch_ir JSON files.
//
// The reader is a streaming parser that builds the Graph directly (no JSON
// DOM for the whole file): fast on 100,000-node files, and it knows the JSON
// path and line/column of everything it reads, so errors can point at them.
// It accepts what Python's json module accepts (NaN, Infinity, -Infinity, a
// UTF-8 BOM) and refuses, with a message, everything that is not JSON.
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "core/ir/graph.h"

namespace irscope::ir {

class LoadError : public std::runtime_error {
public:
    LoadError(std::string file, std::string jsonPath, int64_t line, int64_t column, std::string reason);
    const std::string& file() const { return file_; }
    const std::string& jsonPath() const { return jsonPath_; }  // "nodes[12].inputs[0].shape[1]", "" at top
    int64_t line() const { return line_; }                     // 1-based; 0 when not applicable
    int64_t column() const { return column_; }
    const std::string& reason() const { return reason_; }

private:
    std::string file_, jsonPath_;
    int64_t line_, column_;
    std::string reason_;
};

// Thrown when LoadOptions::progress asked to stop.
struct LoadCancelled : std::runtime_error {
    LoadCancelled() : std::runtime_error("loading cancelled") {}
};

struct LoadOptions {
    // Called now and then with the fraction of the file parsed; return false to cancel.
    std::function<bool(double fraction)> progress;
    // Deeper nesting is refused (Python's default recursion limit is ~1000).
    int maxDepth = 512;
    // The program of an archive holding several ("" : its default). Set by
    // loadGraphFile from "model.pt2#name" (core/ir/archive_path.h).
    std::string program;
};

// `path` may name one program of an archive: "model.pt2#encoder".
Graph loadGraphFile(const std::string& path, const LoadOptions& options = {});
// `fileName` is used in messages only.
Graph parseGraph(std::string_view text, const std::string& fileName, const LoadOptions& options = {});

// torch_ir's field order and indent 2 (Python's json.dump(indent=2)); NaN and
// infinities as Python writes them. load -> save -> load gives the same Graph.
std::string graphToJson(const Graph& graph);
// Writes through a temporary file and renames it, so a failure never leaves a half-written file.
void saveGraphFile(const Graph& graph, const std::string& path);

}  // namespace irscope::ir
