#include "core/modules/module_level.h"

#include "core/modules/module_drawing.h"  // DrawingOptions

#include <algorithm>
#include <map>
#include <unordered_map>
#include <unordered_set>

namespace irscope::modules {

using layout::ItemKind;
using layout::LayoutEdge;
using layout::LayoutGraph;
using layout::LayoutNode;

namespace {

std::string thousands(int64_t v) {
    std::string digits = std::to_string(v), out;
    for (size_t i = 0; i < digits.size(); ++i) {
        if (i && (digits.size() - i) % 3 == 0 && digits[i - 1] != '-') out += ',';
        out += digits[i];
    }
    return out;
}

// A box big enough for its label lines (parallelograms and trapezoids a slant wider).
}  // namespace

void sizeItem(LayoutNode& node, const layout::GraphLayoutOptions& io) {
    double w = 0;
    for (const auto& l : node.lines) w = std::max(w, io.textWidth ? io.textWidth(l) : layout::defaultTextWidth(l));
    w += 2 * io.paddingX;
    if (node.kind != ItemKind::Op && node.kind != ItemKind::Module) w += io.slant;
    node.width = std::max(w, io.minWidth);
    node.height = static_cast<double>(std::max<size_t>(node.lines.size(), 1)) * io.lineHeight + 2 * io.paddingY;
}

namespace {

bool allDigits(std::string_view s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

std::vector<std::string_view> splitDots(std::string_view s) {
    std::vector<std::string_view> parts;
    size_t start = 0;
    for (size_t i = 0; i <= s.size(); ++i)
        if (i == s.size() || s[i] == '.') {
            parts.push_back(s.substr(start, i - start));
            start = i + 1;
        }
    return parts;
}

// Names that differ only in integer components share this key.
std::string bundleKey(std::string_view name) {
    std::string key;
    for (auto part : splitDots(name)) {
        if (!key.empty()) key += '.';
        key += allDigits(part) ? std::string_view("#") : part;
    }
    return key;
}

}  // namespace

bool isSingleOp(const ModuleTree& tree, const ir::Graph& graph, ModuleId m) {
    const Module& mod = tree.module(m);
    if (m == kRootModule || mod.opCount != static_cast<int64_t>(mod.nodes.size())) return false;
    int64_t real = 0;
    for (int64_t n : mod.nodes) real += !graph.nodes[static_cast<size_t>(n)].isGetitem();
    return real <= 1;
}

std::string bundlePattern(const std::vector<std::string>& names) {
    if (names.empty()) return {};
    const auto first = splitDots(names.front());
    std::vector<std::vector<std::string_view>> split;
    split.reserve(names.size());
    for (const auto& n : names) {
        split.push_back(splitDots(n));
        if (split.back().size() != first.size()) return {};
    }
    int varying = -1;
    for (size_t c = 0; c < first.size(); ++c)
        for (const auto& s : split)
            if (s[c] != first[c]) {
                if (varying >= 0 && varying != static_cast<int>(c)) return {};
                varying = static_cast<int>(c);
                break;
            }
    if (varying < 0) return names.front();
    std::string range = "*";
    bool numeric = true;
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (const auto& s : split) {
        const auto part = s[static_cast<size_t>(varying)];
        if (!allDigits(part) || part.size() > 12) {
            numeric = false;
            break;
        }
        const int64_t v = std::stoll(std::string(part));
        lo = std::min(lo, v);
        hi = std::max(hi, v);
    }
    if (numeric && hi - lo + 1 == static_cast<int64_t>(names.size())) {
        // Appended piecewise: GCC 12 warns (-Wrestrict, falsely) on "{" + std::to_string(...).
        range.assign(1, '{');
        range.append(std::to_string(lo)).append("..").append(std::to_string(hi)).push_back('}');
    }
    std::string out;
    for (size_t c = 0; c < first.size(); ++c) {
        if (c) out += '.';
        out += static_cast<int>(c) == varying ? std::string_view(range) : first[c];
    }
    return out;
}

namespace {

class LevelBuilder {
public:
    LevelBuilder(const ir::Graph& g, const ir::GraphIndex& idx, const ModuleTree& t,
                 const std::vector<std::string>& kinds, const DrawingOptions& o, ModuleId m,
                 const std::vector<ModuleId>& inputHome, const std::vector<ModuleId>& outputHome)
        : graph_(g),
          index_(idx),
          tree_(t),
          kinds_(kinds),
          opt_(o),
          m_(m),
          inputHome_(inputHome),
          outputHome_(outputHome) {}

    void build(LayoutGraph& out, std::vector<ModuleId>& itemModule) {
        out_ = &out;
        itemModule_ = &itemModule;
        const Module& mod = tree_.module(m_);
        for (size_t i = 0; i < graph_.graphInputs.size(); ++i)
            if (inputHome_[i] == m_) {
                const auto& t = graph_.graphInputs[i];
                inputItem_[static_cast<int64_t>(i)] = add(ItemKind::GraphInput, static_cast<int64_t>(i), t.name,
                                                          {"Input: " + t.name, ir::shapeToX(t.shape)});
            }
        // Direct ops and child boxes, interleaved in execution order.
        std::vector<std::pair<int64_t, ModuleId>> entries;  // (first node, child or kNoModule for a node)
        for (int64_t n : mod.nodes) entries.emplace_back(n, kNoModule);
        for (ModuleId c : mod.children)
            if (tree_.module(c).opCount > 0) entries.emplace_back(tree_.module(c).firstNode, c);
        std::stable_sort(entries.begin(), entries.end(),
                         [](const auto& a, const auto& b) { return a.first < b.first; });
        for (const auto& [n, c] : entries) {
            if (c == kNoModule) {
                nodeItem_[n] = addOp(n);
            } else if (isSingleOp(tree_, graph_, c)) {
                // A module of one op (a Linear, a BatchNorm and its getitem) is
                // drawn as that op: a box or frame around it says nothing more.
                for (int64_t only : tree_.module(c).nodes) nodeItem_[only] = addOp(only);
            } else {
                childItem_[c] = add(ItemKind::Module, c, tree_.module(c).path, collapsedLines(c));
                (*itemModule_)[static_cast<size_t>(childItem_[c])] = c;
            }
        }
        // Edges into every node of the subtree, seen from this level.
        std::vector<ModuleId> stack{m_};
        while (!stack.empty()) {
            const ModuleId cur = stack.back();
            stack.pop_back();
            for (int64_t n : tree_.module(cur).nodes) addInputEdges(n);
            for (ModuleId c : tree_.module(cur).children) stack.push_back(c);
        }
        addOutputs();
        // A graph input only one box reads (a layer's KV cache) sits just above
        // it, like a weight, instead of in a row of 120 at the top.
        std::vector<int> readers(out_->nodes.size(), 0);
        std::vector<int32_t> reader(out_->nodes.size(), -1);
        for (const auto& e : out_->edges)
            if (out_->nodes[static_cast<size_t>(e.source)].kind == ItemKind::GraphInput &&
                reader[static_cast<size_t>(e.source)] != e.target) {
                ++readers[static_cast<size_t>(e.source)];
                reader[static_cast<size_t>(e.source)] = e.target;
            }
        for (size_t i = 0; i < out_->nodes.size(); ++i)
            if (out_->nodes[i].kind == ItemKind::GraphInput && readers[i] == 1 &&
                out_->nodes[static_cast<size_t>(reader[i])].kind == ItemKind::Module)
                out_->nodes[i].satellite = true;
    }

    std::vector<std::string> collapsedLines(ModuleId c) const {
        const Module& cm = tree_.module(c);
        std::string facts = kinds_[static_cast<size_t>(c)];
        if (cm.isList) facts = std::to_string(cm.children.size()) + " × " + childKind(c);
        facts += " · " + thousands(cm.opCount) + (cm.opCount == 1 ? " op" : " ops");
        if (cm.weightCount) facts += " · " + thousands(cm.weightCount) + (cm.weightCount == 1 ? " weight" : " weights");
        return {cm.path, facts};
    }

private:
    std::string childKind(ModuleId list) const {
        const auto& ch = tree_.module(list).children;
        return ch.empty() ? std::string("module") : kinds_[static_cast<size_t>(ch.front())];
    }

    int32_t add(ItemKind kind, int64_t irIndex, std::string name, std::vector<std::string> lines,
                layout::OpFamily family = layout::OpFamily::Other) {
        LayoutNode node;
        node.kind = kind;
        node.family = family;
        node.irIndex = irIndex;
        node.name = std::move(name);
        node.lines = std::move(lines);
        sizeItem(node, opt_.items);
        itemModule_->push_back(kNoModule);
        return out_->addNode(std::move(node));
    }

    // An op as the flat drawing shows it: its name and its first output's shape.
    int32_t addOp(int64_t n) {
        const auto& node = graph_.nodes[static_cast<size_t>(n)];
        std::vector<std::string> lines{layout::opLabel(node)};
        if (!node.outputs.empty()) lines.push_back(ir::shapeToX(node.outputs[0].shape));
        return add(ItemKind::Op, n, node.name, std::move(lines), layout::classifyOp(node.opType));
    }

    // This level's item for a node inside it; -1 when the node is outside.
    int32_t repOf(int64_t node) const {
        if (auto it = nodeItem_.find(node); it != nodeItem_.end()) return it->second;
        const ModuleId mod = tree_.moduleOfNode(node);
        if (mod == m_) return -1;
        const ModuleId c = tree_.childToward(m_, mod);
        if (c == kNoModule) return -1;
        auto it = childItem_.find(c);
        return it == childItem_.end() ? -1 : it->second;
    }

    // irIndex: the producing node, or -2 - graph input index.
    int32_t port(int64_t key, int64_t irIndex, const std::string& tensor) {
        auto [it, fresh] = ports_.try_emplace(key, -1);
        if (fresh) it->second = add(ItemKind::Port, irIndex, tensor, {tensor});  // the edge label gives the shape
        return it->second;
    }

    void addEdge(int32_t source, int32_t target, int64_t input, std::string label, layout::EdgeStyle style) {
        if (source < 0 || target < 0 || source == target) return;
        const uint64_t key =
            (static_cast<uint64_t>(static_cast<uint32_t>(source)) << 32) | static_cast<uint32_t>(target);
        if (!seen_.insert(key).second) return;
        LayoutEdge e;
        e.source = source;
        e.target = target;
        e.targetInput = input;
        e.label = std::move(label);
        e.style = style;
        out_->addEdge(std::move(e));
    }

    void addInputEdges(int64_t n) {
        const auto& node = graph_.nodes[static_cast<size_t>(n)];
        const int32_t target = repOf(n);
        const bool direct = nodeItem_.count(n) != 0;  // drawn as itself here: its weights too
        struct WeightUse {
            int64_t input;
            std::string placeholder, original;
        };
        std::vector<WeightUse> weights;
        for (int64_t i = 0; i < static_cast<int64_t>(node.inputs.size()); ++i) {
            const ir::ValueSource& src = index_.source(n, i);
            const auto& meta = node.inputs[static_cast<size_t>(i)];
            switch (src.kind) {
            case ir::ValueSource::Kind::NodeOutput: {
                int32_t s = repOf(src.index);
                if (s < 0) s = port(src.index * 4096 + src.outputIndex, src.index, meta.name);
                addEdge(s, target, i, ir::shapeToX(meta.shape), layout::EdgeStyle::Solid);
                break;
            }
            case ir::ValueSource::Kind::GraphInput: {
                // Drawn at its home level (where all its readers meet); below it
                // the value enters frames through ports; above it, it is inside a box.
                const ModuleId home = inputHome_[static_cast<size_t>(src.index)];
                int32_t s = -1;
                if (home == m_) {
                    auto it = inputItem_.find(src.index);
                    if (it != inputItem_.end()) s = it->second;
                } else if (tree_.isAncestorOrSelf(home, m_)) {
                    s = port(-1 - src.index, -2 - src.index, meta.name);
                }
                addEdge(s, target, i, ir::shapeToX(meta.shape), layout::EdgeStyle::Solid);
                break;
            }
            case ir::ValueSource::Kind::Weight:
                if (direct && opt_.items.includeWeights) {
                    std::string ph = src.placeholder.empty() ? meta.name : src.placeholder;
                    const std::string* orig = index_.originalName(ph);
                    weights.push_back({i, ph, orig ? *orig : ph});
                }
                break;
            case ir::ValueSource::Kind::Missing: break;
            }
        }
        if (!weights.empty()) addWeights(n, target, weights);
    }

    template <typename Uses>
    void addWeights(int64_t n, int32_t target, const Uses& weights) {
        const auto& node = graph_.nodes[static_cast<size_t>(n)];
        std::map<std::string, std::vector<size_t>> groups;  // bundle key -> uses
        if (static_cast<int>(weights.size()) >= opt_.bundleMinimum)
            for (size_t k = 0; k < weights.size(); ++k) groups[bundleKey(weights[k].original)].push_back(k);
        std::vector<char> bundled(weights.size(), 0);
        std::vector<std::pair<size_t, std::vector<size_t>>> bundles;  // first use -> members
        for (auto& [key, members] : groups)
            if (static_cast<int>(members.size()) >= opt_.bundleMinimum) {
                std::vector<std::string> names;
                for (size_t k : members) names.push_back(weights[k].original);
                if (bundlePattern(names).empty()) continue;
                for (size_t k : members) bundled[k] = 1;
                bundles.emplace_back(members.front(), members);
            }
        std::sort(bundles.begin(), bundles.end());
        size_t nextBundle = 0;
        for (size_t k = 0; k < weights.size(); ++k) {
            const auto& w = weights[k];
            const auto& meta = node.inputs[static_cast<size_t>(w.input)];
            const auto weightIndex = index_.source(n, w.input).index;
            const ItemKind kind = layout::weightItemKind(index_.kindOf(w.placeholder));
            if (!bundled[k]) {
                const int32_t item = add(kind, weightIndex, w.placeholder, {w.placeholder, ir::shapeToX(meta.shape)});
                addEdge(item, target, w.input, {}, layout::EdgeStyle::Dashed);
                continue;
            }
            if (nextBundle >= bundles.size() || bundles[nextBundle].first != k) continue;
            const auto& members = bundles[nextBundle++].second;
            std::vector<std::string> names;
            for (size_t j : members) names.push_back(weights[j].original);
            const std::string label = std::to_string(members.size()) + " × " + bundlePattern(names);
            const int32_t item = add(kind, weightIndex, w.placeholder, {label, ir::shapeToX(meta.shape)});
            out_->nodes[static_cast<size_t>(item)].count = static_cast<int32_t>(members.size());
            addEdge(item, target, w.input, {}, layout::EdgeStyle::Dashed);
        }
    }

    void addOutputs() {
        for (size_t i = 0; i < graph_.graphOutputs.size(); ++i) {
            if (outputHome_[i] != m_) continue;  // drawn beside its producer's level
            const auto& t = graph_.graphOutputs[i];
            const int32_t item =
                add(ItemKind::Output, static_cast<int64_t>(i), t.name, {"Output", ir::shapeToX(t.shape)});
            int32_t s = -1;
            if (auto p = index_.producerOfTensor(t.name))
                s = repOf(p->first);
            else if (auto in = index_.graphInputIndex(t.name)) {
                auto it = inputItem_.find(*in);
                if (it != inputItem_.end()) s = it->second;
            }
            if (s >= 0) {
                LayoutEdge e;
                e.source = s;
                e.target = item;
                out_->addEdge(std::move(e));
            }
        }
    }

    const ir::Graph& graph_;
    const ir::GraphIndex& index_;
    const ModuleTree& tree_;
    const std::vector<std::string>& kinds_;
    const DrawingOptions& opt_;
    ModuleId m_;
    const std::vector<ModuleId>& inputHome_;
    const std::vector<ModuleId>& outputHome_;
    LayoutGraph* out_ = nullptr;
    std::vector<ModuleId>* itemModule_ = nullptr;
    std::unordered_map<int64_t, int32_t> nodeItem_, inputItem_, ports_;
    std::unordered_map<ModuleId, int32_t> childItem_;
    std::unordered_set<uint64_t> seen_;
};

}  // namespace

void buildLevel(const LevelContext& c, ModuleId m, LayoutGraph& out, std::vector<ModuleId>& itemModule) {
    LevelBuilder(c.graph, c.index, c.tree, c.kinds, c.options, m, c.inputHome, c.outputHome).build(out, itemModule);
}

std::vector<std::string> collapsedLines(const LevelContext& c, ModuleId child) {
    return LevelBuilder(c.graph, c.index, c.tree, c.kinds, c.options, kRootModule, c.inputHome, c.outputHome)
        .collapsedLines(child);
}

}  // namespace irscope::modules
