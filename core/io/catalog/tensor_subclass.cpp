// Reads a tensor subclass's pickled state into a TensorSubclass (see the header).
#include "core/io/catalog/tensor_subclass.h"

#include <sstream>

namespace irscope::io {
namespace {

using Kind = PickleObject::Kind;

// A plain value as Python's repr would print it, bounded: enough to read a
// block size, a granularity or a flag in a listing.
void printValue(const PickleArena& arena, const PickleValue& v, std::string& out, int depth) {
    if (out.size() > 200) return;
    switch (v.kind) {
    case PickleValue::Kind::None: out += "None"; return;
    case PickleValue::Kind::Bool: out += v.i ? "True" : "False"; return;
    case PickleValue::Kind::Int: out += std::to_string(v.i); return;
    case PickleValue::Kind::Float: {
        std::ostringstream s;
        s << v.f;
        out += s.str();
        return;
    }
    case PickleValue::Kind::Object: break;
    }
    const PickleObject& o = arena.at(static_cast<uint32_t>(v.i));
    const auto list = [&](const char* open, const char* close) {
        out += open;
        const auto items = o.items();
        for (size_t k = 0; k < items.size(); ++k) {
            if (k) out += ", ";
            if (depth > 4) {
                out += "...";
                break;
            }
            printValue(arena, items[k], out, depth + 1);
        }
        out += close;
    };
    switch (o.kind) {
    case Kind::String: out += "'" + std::string(o.text()) + "'"; return;
    case Kind::List: list("[", "]"); return;
    case Kind::Tuple: list("(", ")"); return;
    case Kind::Instance: {
        const std::string name(o.text());
        out += name.substr(name.rfind('.') == std::string::npos ? 0 : name.rfind('.') + 1) + "(";
        if (depth <= 4) printValue(arena, o.items()[0], out, depth + 1);
        out += ")";
        return;
    }
    default: out += arena.describe(v); return;
    }
}

}  // namespace

std::string TensorSubclass::shortType() const {
    const auto dot = type.rfind('.');
    return dot == std::string::npos ? type : type.substr(dot + 1);
}

std::string TensorSubclass::summary() const {
    std::string out = (type.rfind("torchao", 0) == 0 ? "torchao " : "") + shortType() + " of ";
    for (size_t k = 0; k < parts.size(); ++k) out += (k ? ", " : "") + parts[k];
    for (const auto& [name, value] : attributes)
        if (name == "block_size") out += "; block_size " + value;
    return out;
}

TensorSubclass describeSubclass(const PickleArena& arena, const PickleObject& subclass) {
    TensorSubclass d;
    d.type = std::string(subclass.text());
    const PickleObject* state = arena.get(subclass.items()[0]);
    if (!state || state->kind != Kind::Dict) return d;
    const auto items = state->items();
    for (size_t k = 0; k + 1 < items.size(); k += 2) {
        const auto key = arena.string(items[k]);
        if (!key || key->starts_with("_")) continue;  // _is_param and other bookkeeping
        const PickleObject* value = arena.get(items[k + 1]);
        if (value && (value->kind == Kind::Tensor || value->kind == Kind::Subclass)) {
            d.parts.emplace_back(*key);
            continue;
        }
        std::string text;
        printValue(arena, items[k + 1], text, 0);
        if (*key == "block_size" && value && (value->kind == Kind::List || value->kind == Kind::Tuple)) {
            for (const auto& dim : value->items())
                if (dim.kind == PickleValue::Kind::Int) d.blockSize.push_back(dim.i);
            if (d.blockSize.size() != value->items().size()) d.blockSize.clear();
        }
        d.attributes.emplace_back(*key, std::move(text));
    }
    return d;
}

}  // namespace irscope::io
