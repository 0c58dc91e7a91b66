#pragma once
// `irscope run QUANT --reference-program FLOAT`: the quantization debugger on
// the command line (core/exec/reference/quantization_compare.h). Prints the
// nodes whose quantization hurts most, what to keep in float, and the
// weights with outlier channels; --report writes every row as JSON.
#include <optional>
#include <string>

#include "core/io/tensor_map.h"
#include "core/ir/graph.h"

namespace irscope::cli {

struct QuantizationReportRequest {
    const ir::Graph* quantized = nullptr;
    const io::TensorMap* quantizedWeights = nullptr;
    const io::TensorMap* inputs = nullptr;
    std::string referenceProgram;                     // the float program's file
    const io::TensorMap* referenceWeights = nullptr;  // its weights (null: a .pt2's own)
    std::optional<std::string> reportPath;            // --report (.json)
    bool json = false;                                // --json: the summary on standard output
};

// Exit status: 0 compared, 2 could not (a file, a run that failed).
int runQuantizationReport(const QuantizationReportRequest& request);

}  // namespace irscope::cli
