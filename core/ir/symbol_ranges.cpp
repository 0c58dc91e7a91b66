// Checks inputs against a dynamic-shape program's ranges (symbol_ranges.h).
#include "core/ir/symbol_ranges.h"

#include <cctype>

#include "core/ir/size_expression.h"

namespace irscope::ir {

std::string formatSymbolRange(const SymbolRange& range) {
    return range.symbol + " \u2208 [" + std::to_string(range.min) + ", " +
           (range.max == INT64_MAX ? std::string("\u221e") : std::to_string(range.max)) + "]";
}

std::string inputShapeRefusal(const Graph& graph, const TensorMeta& input, const std::vector<int64_t>& sizes,
                              std::map<std::string, int64_t>& seen) {
    if (graph.symbolRanges.empty()) return {};
    const std::string what = "input '" + input.name + "' has shape " + shapeToList(sizes);
    if (sizes.size() != input.shape.size())
        return what + ", but the program takes " + std::to_string(input.shape.size()) + " dims (" +
               shapeToList(input.shape) + ")";
    for (size_t d = 0; d < sizes.size(); ++d) {
        const Dim& dim = input.shape[d];
        const std::string& symbol = dim.expression();
        const std::string at = " at dim " + std::to_string(d);
        if (const auto size = dim.size()) {
            // A static dim of a dynamic program: export specialized it.
            if (sizes[d] != *size)
                return what + ": " + std::to_string(sizes[d]) + at + ", where the program was exported for " +
                       std::to_string(*size) + " only (" + shapeToList(input.shape) +
                       "; export it with a Dim there to vary it)";
            continue;
        }
        if (symbol.empty()) continue;  // unreadable, or a symbol the file did not spell
        // A symbol, or a size derived from one (2*s44: Dim("half") * 2), solved
        // for its symbol; any other expression's symbols are checked where
        // they stand alone.
        const auto affine = affineSize(symbol);
        if (!affine) continue;
        const SymbolRange* range = nullptr;
        for (const auto& r : graph.symbolRanges)
            if (r.symbol == affine->symbol) range = &r;
        if (!range) continue;
        const bool derived = affine->coefficient != 1 || affine->offset != 0;
        const int64_t shifted = sizes[d] - affine->offset;
        const int64_t value = shifted / affine->coefficient;
        if (shifted % affine->coefficient != 0 || value < range->min || value > range->max) {
            if (!derived)
                return what + ": " + std::to_string(sizes[d]) + at + " is outside " + formatSymbolRange(*range) +
                       ", the range the program was exported for";
            return what + ": " + std::to_string(sizes[d]) + at + " is " + symbol + ", and no " +
                   formatSymbolRange(*range) + " makes it " + std::to_string(sizes[d]) +
                   " (the program was exported for sizes of the form " + symbol + ")";
        }
        if (auto [it, fresh] = seen.emplace(affine->symbol, value); !fresh && it->second != value)
            return what + ": " + std::to_string(sizes[d]) + at + " is " + symbol +
                   (derived ? " with " + affine->symbol + " = " + std::to_string(value) : std::string()) +
                   ", where another input sets " + affine->symbol + " to " + std::to_string(it->second) +
                   " (one symbol, one size)";
    }
    return {};
}

std::string symbolicValueText(const Graph& graph, const std::string& value) {
    const auto it = graph.symbolicExpressions.find(value);
    if (it == graph.symbolicExpressions.end()) return {};
    std::string text = it->second;
    // Each symbol of the expression once, with its range: whole identifiers only (s2 is not in s27).
    const std::string& e = it->second;
    for (const auto& r : graph.symbolRanges) {
        for (size_t at = e.find(r.symbol); at != std::string::npos; at = e.find(r.symbol, at + 1)) {
            const auto isName = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
            const size_t end = at + r.symbol.size();
            if ((at == 0 || !isName(e[at - 1])) && (end == e.size() || !isName(e[end]))) {
                text += ", " + formatSymbolRange(r);
                break;
            }
        }
    }
    return text;
}

}  // namespace irscope::ir
