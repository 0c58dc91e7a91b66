#include "core/ir/dim.h"

#include <functional>
#include <mutex>
#include <string_view>
#include <unordered_set>

namespace irscope::ir {
namespace {

// The interned expressions. Node-based, so a pointer to an element stays
// valid as the set grows; never shrinks: a process sees few distinct
// expressions (one per symbol and derived size of the programs it opens).
// Looked up by string_view first: a program repeats each symbol in most of
// its shapes, and a hit allocates nothing.
struct TextHash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const noexcept { return std::hash<std::string_view>{}(s); }
};
struct SymbolPool {
    std::mutex mutex;
    std::unordered_set<std::string, TextHash, std::equal_to<>> texts;
};

SymbolPool& pool() {
    static SymbolPool* p = new SymbolPool;  // never destroyed: Dims may outlive static destruction
    return *p;
}

}  // namespace

Dim Dim::symbol(std::string_view expression) {
    auto& p = pool();
    std::lock_guard lock(p.mutex);
    Dim d;
    const auto found = p.texts.find(expression);
    d.symbol_ = found != p.texts.end() ? &*found : &*p.texts.emplace(expression).first;
    return d;
}

const std::string* Dim::unreadableTag() noexcept {
    static const std::string tag;
    return &tag;
}

Dim Dim::unreadable() noexcept {
    Dim d;
    d.symbol_ = unreadableTag();
    return d;
}

const std::string& Dim::expression() const noexcept {
    static const std::string none;
    return isSymbol() ? *symbol_ : none;
}

std::weak_ordering Dim::operator<=>(const Dim& other) const {
    const auto rank = [](const Dim& d) { return d.isSize() ? 0 : d.isSymbol() ? 1 : 2; };
    if (rank(*this) != rank(other)) return rank(*this) <=> rank(other);
    if (isSize()) return size_ <=> other.size_;
    return expression().compare(other.expression()) <=> 0;
}

std::string Dim::text() const {
    if (isSize()) return std::to_string(size_);
    if (isSymbol() && !symbol_->empty()) return *symbol_;
    return "?";
}

std::optional<Sizes> staticSizes(const Shape& shape) {
    Sizes sizes;
    sizes.reserve(shape.size());
    for (const Dim& d : shape) {
        const auto size = d.size();
        if (!size) return std::nullopt;
        sizes.push_back(*size);
    }
    return sizes;
}

bool hasSymbols(const Shape& shape) {
    for (const Dim& d : shape)
        if (d.isSymbol()) return true;
    return false;
}

bool sizesFit(const Shape& shape, const Sizes& sizes) {
    if (shape.size() != sizes.size()) return false;
    for (size_t i = 0; i < shape.size(); ++i)
        if (const auto size = shape[i].size(); size && *size >= 0 && *size != sizes[i]) return false;
    return true;
}

bool shapesAgree(const Shape& a, const Shape& b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
        if (a[i].size() != b[i].size()) return false;  // nullopt == nullopt: neither a size
    return true;
}

}  // namespace irscope::ir
