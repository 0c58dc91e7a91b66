#include "commands/cast_weights_option.h"

#include <algorithm>
#include <iostream>

#include "core/io/weight_cast.h"

namespace irscope::cli {

io::TensorMap castWeightsIfAsked(const ir::Graph& graph, io::TensorMap weights, bool cast, const std::string& command,
                                 bool quiet) {
    if (!cast) return weights;
    io::CastWeights c = io::castToIrDtypes(graph, weights);
    if (!quiet)
        std::cerr << "irscope " << command << ": cast " << c.cast << " weight" << (c.cast == 1 ? "" : "s")
                  << " to the IR's dtypes\n";
    return std::move(c.tensors);
}

std::string castWeightsHint(const std::vector<exec::MissingValue>& missing) {
    const auto n = std::count_if(missing.begin(), missing.end(), [](const auto& m) { return m.wrongDtype(); });
    if (n == 0) return {};
    std::string s = "pass --cast-weights to cast the ";
    s += std::to_string(n);
    s += n == 1 ? " value" : " values";
    s += " in another dtype to the IR's";
    return s;
}

}  // namespace irscope::cli
