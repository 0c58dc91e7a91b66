#include "core/io/catalog/pickle_tree.h"

#include "core/io/catalog/tensor_file_error.h"

namespace irscope::io {

namespace {

using Kind = PickleObject::Kind;
constexpr int kMaxDepth = 64;

// A dict key or list index as a name component; nullopt for keys that are
// not names (tuples, floats).
std::optional<std::string> keyText(const PickleArena& arena, const PickleValue& key) {
    if (key.kind == PickleValue::Kind::Int) return std::to_string(key.i);
    if (const PickleObject* o = arena.get(key); o && (o->kind == Kind::String || o->kind == Kind::Bytes))
        return std::string(o->text());
    return std::nullopt;
}

struct Child {
    std::string key;
    PickleValue value;
};

std::vector<Child> childrenOf(const PickleArena& arena, const PickleObject& o) {
    std::vector<Child> out;
    const auto items = o.items();
    if (o.kind == Kind::Dict) {
        for (size_t k = 0; k + 1 < items.size(); k += 2)
            if (auto key = keyText(arena, items[k])) out.push_back({*key, items[k + 1]});
    } else if (o.kind == Kind::Subclass) {
        if (const PickleObject* state = arena.get(o.items()[0])) return childrenOf(arena, *state);
    } else if (o.kind == Kind::List || o.kind == Kind::Tuple) {
        for (size_t k = 0; k < items.size(); ++k) out.push_back({std::to_string(k), items[k]});
    }
    return out;
}

// Each container is walked once: memo references can make a pickle's
// object graph a DAG with exponentially many paths, or a cycle.
void collect(const PickleArena& arena, const PickleValue& v, const std::string& prefix, int depth,
             std::vector<bool>& visited, std::vector<PickleTensorRef>& out) {
    const PickleObject* o = arena.get(v);
    if (!o) return;
    if (o->kind == Kind::Tensor) {
        out.push_back({prefix, static_cast<uint32_t>(v.i)});
        return;
    }
    if (o->kind == Kind::Subclass) out.push_back({prefix, static_cast<uint32_t>(v.i)});
    if (o->kind != Kind::Dict && o->kind != Kind::List && o->kind != Kind::Tuple && o->kind != Kind::Subclass) return;
    if (visited[static_cast<size_t>(v.i)]) return;
    visited[static_cast<size_t>(v.i)] = true;
    if (depth >= kMaxDepth) throw FormatError("objects nest deeper than " + std::to_string(kMaxDepth) + " levels");
    for (const auto& child : childrenOf(arena, *o))
        collect(arena, child.value, prefix.empty() ? child.key : prefix + "." + child.key, depth + 1, visited, out);
}

// Follows a dotted path; keys may themselves hold dots ("encoder.layer.0"),
// so at each level the whole remaining path is tried first, then its
// prefixes at dots.
std::optional<PickleValue> follow(const PickleArena& arena, const PickleValue& v, const std::string& path, int depth) {
    if (path.empty()) return v;
    const PickleObject* o = arena.get(v);
    if (!o || depth >= kMaxDepth || path.size() > 4096) return std::nullopt;
    for (const auto& child : childrenOf(arena, *o)) {
        if (child.key == path) return child.value;
        if (path.size() > child.key.size() && path.compare(0, child.key.size(), child.key) == 0 &&
            path[child.key.size()] == '.') {
            if (auto found = follow(arena, child.value, path.substr(child.key.size() + 1), depth + 1)) return found;
        }
    }
    return std::nullopt;
}

}  // namespace

std::vector<PickleTensorRef> collectTensors(const PickleArena& arena, const PickleValue& root,
                                            const std::string& select, const std::string& rootName) {
    PickleValue start = root;
    std::string prefix;
    if (!select.empty()) {
        auto found = follow(arena, root, select, 0);
        if (!found) {
            std::string keys;
            if (const PickleObject* o = arena.get(root)) {
                for (const auto& child : childrenOf(arena, *o)) {
                    if (keys.size() > 200) {
                        keys += ", ...";
                        break;
                    }
                    keys += (keys.empty() ? "" : ", ") + child.key;
                }
            }
            throw FormatError("no entry '" + select + "' to select" +
                              (keys.empty() ? std::string() : " (top-level keys: " + keys + ")"));
        }
        start = *found;
        prefix = select;
    }
    std::vector<PickleTensorRef> out;
    const PickleObject* o = arena.get(start);
    if (o && o->kind == Kind::Tensor) {
        out.push_back({select.empty() ? rootName : select, static_cast<uint32_t>(start.i)});
        return out;
    }
    std::vector<bool> visited(arena.size(), false);
    collect(arena, start, o && o->kind == Kind::Subclass ? (select.empty() ? rootName : select) : "", 0, visited, out);
    return out;
}

}  // namespace irscope::io
