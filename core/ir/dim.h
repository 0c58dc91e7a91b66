#pragma once
// Dim: one dimension of a tensor's shape as a program declares it. It is a
// size (64), a symbol of a dynamic-shape program ("s27", "2*s27": the value
// is known only at run time, within the symbol's range), or unreadable (the
// file wrote something that is not an integer; the loader said where). One
// type, so that no shape carries a sentinel number and a parallel list of
// strings that every reader must remember to consult together.
//
// A Dim is 16 bytes: a symbol's text is interned once per process and the
// Dim points at it, so a 100,000-node program's shapes cost what their
// numbers did, and two Dims of the same symbol compare equal by pointer.
#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace irscope::ir {

class Dim {
public:
    // A size. Implicit: most dims are numbers, written as numbers
    // (`Shape{1, 4}`). Negative sizes are kept as read; validate reports them.
    constexpr Dim(int64_t size = 0) noexcept : size_(size) {}  // NOLINT(google-explicit-constructor)

    // A symbolic dim, by its readable expression ("s27", "2*s27", "u0").
    // An empty expression is a symbol the file did not spell.
    static Dim symbol(std::string_view expression);
    // A dim the file wrote as something other than an integer.
    static Dim unreadable() noexcept;

    bool isSize() const noexcept { return symbol_ == nullptr; }
    bool isSymbol() const noexcept { return symbol_ != nullptr && symbol_ != unreadableTag(); }
    bool isUnreadable() const noexcept { return symbol_ == unreadableTag(); }

    // The size, when this dim is one.
    std::optional<int64_t> size() const noexcept { return isSize() ? std::optional<int64_t>(size_) : std::nullopt; }
    // The symbol's expression; "" for a size or an unreadable dim.
    const std::string& expression() const noexcept;

    // "64", "s27", "2*s27"; "?" for an unreadable dim or an unspelled symbol.
    std::string text() const;

    bool operator==(const Dim&) const = default;
    bool operator==(int64_t size) const noexcept { return isSize() && size_ == size; }
    // Sizes by number, then symbols by expression, then unreadable dims (a
    // table sorted by shape).
    std::weak_ordering operator<=>(const Dim& other) const;

private:
    static const std::string* unreadableTag() noexcept;
    int64_t size_ = 0;                     // meaningful only for a size
    const std::string* symbol_ = nullptr;  // interned expression; unreadableTag(); nullptr: a size
};

// A tensor's shape as the program declares it.
using Shape = std::vector<Dim>;
// A value's concrete sizes (a tensor in hand, a constant's data).
using Sizes = std::vector<int64_t>;

// The sizes of a shape whose every dim is a size; nullopt otherwise.
std::optional<Sizes> staticSizes(const Shape& shape);
// Whether a shape has a symbolic dim.
bool hasSymbols(const Shape& shape);
// Whether concrete `sizes` fit `shape`: same rank, equal where a dim is a
// size. A symbol admits any size here (ranges are checked by
// symbol_ranges), and so do an unreadable dim and a negative one (a
// hand-written file's; validate reports both).
bool sizesFit(const Shape& shape, const Sizes& sizes);
// Whether two declared shapes agree dim by dim: equal sizes, or neither a
// size. Two exports of one model name their symbols in the order they meet
// them (s27 in one, s31 in the other); pairing and diffing tensors by shape
// must not tell them apart by that.
bool shapesAgree(const Shape& a, const Shape& b);

}  // namespace irscope::ir
