#pragma once
// A symbolic size as torch.export writes it: sympy's srepr with its
// Symbol(...) and Integer(...) wrappers already dropped ("Mul(2, s44)",
// "Add(s27, -1)", "FloorDiv(s77, 2)"). Read into a tree once, shown as a user
// writes it ("2*s44", "s27 - 1", "s77//2"), and, where it is affine in one
// symbol (a*s + b: the derived dims of Dim("half") * 2), solved for that
// symbol, so an input's size is checked against the symbol's own range.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace irscope::ir {

// "Mul(2, s44)" -> "2*s44"; "Add(Mul(2, s0), 1)" -> "2*s0 + 1"; a plain
// symbol or number is itself; text it cannot read comes back unchanged.
std::string readableSizeExpression(std::string_view srepr);

// size == coefficient * symbol + offset.
struct AffineSize {
    int64_t coefficient = 1;
    std::string symbol;
    int64_t offset = 0;
};

// The affine form of a readable expression ("2*s44 + 1", "s27 - 1", "s5"),
// or nullopt when it is not one (a product of symbols, a floor division).
std::optional<AffineSize> affineSize(std::string_view readable);

}  // namespace irscope::ir
