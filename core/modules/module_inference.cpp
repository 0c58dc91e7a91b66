#include "core/modules/module_inference.h"

#include <algorithm>

#include "core/layout/op_family.h"

namespace irscope::modules {
namespace {

using ir::ValueSource;

// Node-to-node adjacency in compressed rows (distinct, ascending).
struct Adjacency {
    std::vector<int64_t> offset, target;
    std::pair<const int64_t*, const int64_t*> of(int64_t n) const {
        return {target.data() + offset[static_cast<size_t>(n)], target.data() + offset[static_cast<size_t>(n) + 1]};
    }
};

Adjacency buildProducers(const ir::Graph& graph, const ir::GraphIndex& index) {
    Adjacency a;
    a.offset.reserve(graph.nodes.size() + 1);
    a.offset.push_back(0);
    for (size_t n = 0; n < graph.nodes.size(); ++n) {
        const size_t start = a.target.size();
        for (size_t i = 0; i < graph.nodes[n].inputs.size(); ++i) {
            const ValueSource& s = index.source(static_cast<int64_t>(n), static_cast<int64_t>(i));
            if (s.kind == ValueSource::Kind::NodeOutput) a.target.push_back(s.index);
        }
        std::sort(a.target.begin() + static_cast<std::ptrdiff_t>(start), a.target.end());
        a.target.erase(std::unique(a.target.begin() + static_cast<std::ptrdiff_t>(start), a.target.end()),
                       a.target.end());
        a.offset.push_back(static_cast<int64_t>(a.target.size()));
    }
    return a;
}

Adjacency transpose(const Adjacency& producers, size_t nodes) {
    Adjacency c;
    c.offset.assign(nodes + 1, 0);
    for (int64_t p : producers.target) ++c.offset[static_cast<size_t>(p) + 1];
    for (size_t n = 0; n < nodes; ++n) c.offset[n + 1] += c.offset[n];
    c.target.resize(producers.target.size());
    std::vector<int64_t> fill(c.offset.begin(), c.offset.end() - 1);
    for (size_t n = 0; n < nodes; ++n) {   // ascending n: every row comes out sorted
        auto [b, e] = producers.of(static_cast<int64_t>(n));
        for (auto* p = b; p != e; ++p) c.target[static_cast<size_t>(fill[static_cast<size_t>(*p)]++)] = static_cast<int64_t>(n);
    }
    return c;
}

bool isWholeLayerOp(const std::string& opType) {
    const auto f = layout::classifyOp(opType);
    return f == layout::OpFamily::ConvLinear || f == layout::OpFamily::Normalization;
}

class Inference {
public:
    Inference(const ir::Graph& graph, const ir::GraphIndex& index)
        : graph_(graph), index_(index), n_(graph.nodes.size()) {}

    ModuleTree run() {
        tree_.setNodeCount(n_);
        createWeightModules();
        producers_ = buildProducers(graph_, index_);
        consumers_ = transpose(producers_, n_);
        assignByWeights();
        absorbChains();
        spreadFromNeighbours();
        tree_.finish(weightOwners_);
        return std::move(tree_);
    }

private:
    void createWeightModules() {
        weightModule_.resize(graph_.weights.size());
        for (size_t w = 0; w < graph_.weights.size(); ++w) {
            const auto& meta = graph_.weights[w];
            weightModule_[w] = tree_.ensure(weightModulePath(meta.name));
            weightOwners_.emplace_back(weightModule_[w], ir::elementCount(meta.shape).value_or(0));
        }
        tree_.markLists();
        inListElement_.assign(tree_.size(), 0);
        for (size_t m = 1; m < tree_.size(); ++m) {   // parents come before children
            const auto p = static_cast<size_t>(tree_.module(static_cast<ModuleId>(m)).parent);
            inListElement_[m] = inListElement_[p] || tree_.module(static_cast<ModuleId>(p)).isList;
        }
        // Distinct reading nodes per weight: only a weight read by one node anchors it.
        readers_.assign(graph_.weights.size(), 0);
        for (size_t w = 0; w < graph_.weights.size(); ++w) {
            int64_t last = -1;
            for (const auto& use : index_.usesOfWeight(static_cast<int64_t>(w)))
                if (use.node != last) ++readers_[w], last = use.node;
        }
    }

    ModuleId lift(ModuleId m) const {   // ops never sit in a ModuleList
        while (m != kNoModule && tree_.module(m).isList) m = tree_.module(m).parent;
        return m;
    }

    void assign(int64_t n, ModuleId m) {
        module_[static_cast<size_t>(n)] = m;
        tree_.assignNode(n, m);
    }
    ModuleId at(int64_t n) const { return module_[static_cast<size_t>(n)]; }

    void assignByWeights() {
        module_.assign(n_, kNoModule);
        weightOnly_.assign(n_, 0);
        sealed_.assign(tree_.size(), 0);
        anchoredIn_.assign(tree_.size(), 0);
        for (size_t n = 0; n < n_; ++n) {
            const auto& node = graph_.nodes[n];
            ModuleId anchor = kNoModule;
            bool onlyWeights = !node.inputs.empty();
            for (size_t i = 0; i < node.inputs.size(); ++i) {
                const ValueSource& s = index_.source(static_cast<int64_t>(n), static_cast<int64_t>(i));
                if (s.kind == ValueSource::Kind::Weight) {
                    if (s.index >= 0 && readers_[static_cast<size_t>(s.index)] == 1)
                        anchor = tree_.commonAncestor(anchor, weightModule_[static_cast<size_t>(s.index)]);
                } else if (s.kind == ValueSource::Kind::NodeOutput && weightOnly_[static_cast<size_t>(s.index)]) {
                    if (at(s.index) != kNoModule) anchor = tree_.commonAncestor(anchor, at(s.index));
                } else {
                    onlyWeights = false;
                }
            }
            weightOnly_[n] = onlyWeights;
            // An op mixing activations with weight-only results (einsum over stacked
            // experts) is placed by its neighbours: only direct weights anchor it.
            if (!onlyWeights) {
                anchor = kNoModule;
                for (size_t i = 0; i < node.inputs.size(); ++i) {
                    const ValueSource& s = index_.source(static_cast<int64_t>(n), static_cast<int64_t>(i));
                    if (s.kind == ValueSource::Kind::Weight && s.index >= 0 && readers_[static_cast<size_t>(s.index)] == 1)
                        anchor = tree_.commonAncestor(anchor, weightModule_[static_cast<size_t>(s.index)]);
                }
            }
            anchor = lift(anchor);
            if (anchor == kNoModule) continue;
            assign(static_cast<int64_t>(n), anchor);
            anchoredIn_[static_cast<size_t>(anchor)] = 1;
            if (isWholeLayerOp(node.opType)) sealed_[static_cast<size_t>(anchor)] = 1;
        }
        // Only a leaf can be sealed: a module with children is a composite whose
        // glue ops must be able to land in it.
        for (size_t m = 0; m < tree_.size(); ++m)
            if (!tree_.module(static_cast<ModuleId>(m)).children.empty() || m == kRootModule) sealed_[m] = 0;
    }

    bool absorbent(ModuleId m) const {
        return m != kNoModule && m != kRootModule && tree_.module(m).children.empty() &&
               anchoredIn_[static_cast<size_t>(m)] && !sealed_[static_cast<size_t>(m)];
    }

    void absorbChains() {
        std::vector<char> feedsOutput(n_, 0);
        for (const auto& out : graph_.graphOutputs)
            if (auto p = index_.producerOfTensor(out.name)) feedsOutput[static_cast<size_t>(p->first)] = 1;
        for (size_t k = n_; k-- > 0;) {
            const auto n = static_cast<int64_t>(k);
            if (at(n) != kNoModule || feedsOutput[k]) continue;
            auto [b, e] = consumers_.of(n);
            if (b == e) continue;
            const ModuleId m = at(*b);
            if (!absorbent(m)) continue;
            if (std::all_of(b, e, [&](int64_t c) { return at(c) == m; })) assign(n, m);
        }
    }

    // The one element of `list` that every module in `mods` lies in, or kNoModule.
    ModuleId commonElement(const std::vector<ModuleId>& mods, ModuleId list) const {
        ModuleId element = kNoModule;
        for (ModuleId m : mods) {
            const ModuleId c = tree_.childToward(list, m);
            if (c == kNoModule || (element != kNoModule && c != element)) return kNoModule;
            element = c;
        }
        return element;
    }

    ModuleId decide(int64_t n, bool fallback) {
        prod_.clear();
        cons_.clear();
        auto [pb, pe] = producers_.of(n);
        for (auto* p = pb; p != pe; ++p)
            if (at(*p) != kNoModule) prod_.push_back(at(*p));
        auto [cb, ce] = consumers_.of(n);
        for (auto* c = cb; c != ce; ++c)
            if (at(*c) != kNoModule) cons_.push_back(at(*c));
        if (prod_.empty() && cons_.empty()) return kNoModule;

        // Inside a layer, model-level neighbours (a shared RoPE table, the
        // embedding) do not pull an op out of it.
        auto inside = [&](ModuleId m) { return inListElement_[static_cast<size_t>(m)] != 0; };
        const bool anyInside = std::any_of(prod_.begin(), prod_.end(), inside) ||
                               std::any_of(cons_.begin(), cons_.end(), inside);
        if (anyInside) {
            std::erase_if(prod_, [&](ModuleId m) { return !inside(m); });
            std::erase_if(cons_, [&](ModuleId m) { return !inside(m); });
        }
        ModuleId l = kNoModule;
        for (ModuleId m : prod_) l = tree_.commonAncestor(l, m);
        for (ModuleId m : cons_) l = tree_.commonAncestor(l, m);
        while (tree_.module(l).isList) {   // a boundary between elements: the producer's side
            ModuleId e = prod_.empty() ? kNoModule : commonElement(prod_, l);
            if (e == kNoModule && !cons_.empty()) e = commonElement(cons_, l);
            l = e != kNoModule ? e : tree_.module(l).parent;
        }
        if (sealed_[static_cast<size_t>(l)]) {
            // Every neighbour is that one sealed module (q_proj's linear): the op is
            // its caller's, but wait until nothing else can move to say so.
            if (!fallback) return kNoModule;
            l = lift(tree_.module(l).parent);
        }
        return l;
    }

    void spreadFromNeighbours() {
        std::vector<char> queued(n_, 0);
        std::vector<int64_t> frontier;
        auto enqueueNeighbours = [&](int64_t n, std::vector<int64_t>& into) {
            for (const Adjacency* adj : {&producers_, &consumers_}) {
                auto [b, e] = adj->of(n);
                for (auto* x = b; x != e; ++x)
                    if (at(*x) == kNoModule && !queued[static_cast<size_t>(*x)]) {
                        queued[static_cast<size_t>(*x)] = 1;
                        into.push_back(*x);
                    }
            }
        };
        for (size_t n = 0; n < n_; ++n)
            if (at(static_cast<int64_t>(n)) != kNoModule) enqueueNeighbours(static_cast<int64_t>(n), frontier);

        bool fallback = false;
        while (!frontier.empty()) {
            std::sort(frontier.begin(), frontier.end());
            for (int64_t n : frontier) queued[static_cast<size_t>(n)] = 0;
            std::vector<int64_t> next;
            bool progress = false;
            for (int64_t n : frontier) {
                if (at(n) != kNoModule) continue;
                const ModuleId m = decide(n, fallback);
                if (m != kNoModule) {
                    assign(n, m);
                    progress = true;
                    enqueueNeighbours(n, next);
                } else if (!queued[static_cast<size_t>(n)]) {
                    queued[static_cast<size_t>(n)] = 1;
                    next.push_back(n);
                }
            }
            if (!progress && fallback) break;   // what is left stays at the root
            fallback = !progress;
            frontier = std::move(next);
        }
    }

    const ir::Graph& graph_;
    const ir::GraphIndex& index_;
    size_t n_;
    ModuleTree tree_;
    Adjacency producers_, consumers_;
    std::vector<ModuleId> weightModule_, module_;
    std::vector<std::pair<ModuleId, int64_t>> weightOwners_;
    std::vector<int64_t> readers_;
    std::vector<char> weightOnly_, sealed_, anchoredIn_, inListElement_;
    std::vector<ModuleId> prod_, cons_;
};

}  // namespace

ModuleTree inferModuleTree(const ir::Graph& graph, const ir::GraphIndex& index) {
    return Inference(graph, index).run();
}

}  // namespace irscope::modules
