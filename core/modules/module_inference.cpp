#include "core/modules/module_inference.h"

#include "core/modules/recorded_modules.h"

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
    for (size_t n = 0; n < nodes; ++n) {  // ascending n: every row comes out sorted
        auto [b, e] = producers.of(static_cast<int64_t>(n));
        for (auto* p = b; p != e; ++p)
            c.target[static_cast<size_t>(fill[static_cast<size_t>(*p)]++)] = static_cast<int64_t>(n);
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
        for (size_t m = 1; m < tree_.size(); ++m) {  // parents come before children
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

    ModuleId lift(ModuleId m) const {  // ops never sit in a ModuleList
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
        readersIn_.assign(tree_.size(), 0);
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
                    // Only a result no other op reads pulls the op along: each layer's
                    // unsqueeze of a shared cos/sin row is that layer's.
                    auto [cb, ce] = consumers_.of(s.index);
                    if (at(s.index) != kNoModule && ce - cb == 1) anchor = tree_.commonAncestor(anchor, at(s.index));
                } else {
                    onlyWeights = false;
                }
            }
            weightOnly_[n] = onlyWeights;
            // An op mixing activations with weight-only results is anchored like a
            // weight reader, by what only it reads: its own weights, and weight-only
            // results no other op reads (an einsum over its stack of experts), not a
            // shared table (a RoPE cos/sin indexed once and read by every layer).
            if (!onlyWeights) {
                anchor = kNoModule;
                for (size_t i = 0; i < node.inputs.size(); ++i) {
                    const ValueSource& s = index_.source(static_cast<int64_t>(n), static_cast<int64_t>(i));
                    if (s.kind == ValueSource::Kind::Weight && s.index >= 0 &&
                        readers_[static_cast<size_t>(s.index)] == 1)
                        anchor = tree_.commonAncestor(anchor, weightModule_[static_cast<size_t>(s.index)]);
                    if (s.kind == ValueSource::Kind::NodeOutput && weightOnly_[static_cast<size_t>(s.index)] &&
                        at(s.index) != kNoModule) {
                        auto [cb, ce] = consumers_.of(s.index);
                        if (ce - cb == 1) anchor = tree_.commonAncestor(anchor, at(s.index));
                    }
                }
            }
            anchor = lift(anchor);
            if (anchor == kNoModule) continue;
            assign(static_cast<int64_t>(n), anchor);
            anchoredIn_[static_cast<size_t>(anchor)] = 1;
            if (!onlyWeights) ++readersIn_[static_cast<size_t>(anchor)];  // a transpose of a weight is not a reader
            if (isWholeLayerOp(node.opType)) sealed_[static_cast<size_t>(anchor)] = 1;
        }
        // Sealed: a leaf whose one weight reader is a whole layer (a Linear). A
        // router with a linear and a bias add of its own (MoEGate) computes more.
        for (size_t m = 0; m < tree_.size(); ++m)
            if (readersIn_[m] > 1) sealed_[m] = 0;
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
        std::vector<char> inChain(n_, 0);
        std::vector<int64_t> chain;
        for (size_t k = n_; k-- > 0;) {
            const auto n = static_cast<int64_t>(k);
            if (at(n) != kNoModule || feedsOutput[k]) continue;
            auto [b, e] = consumers_.of(n);
            if (b == e) continue;
            const ModuleId m = at(*b);
            if (!absorbent(m) || !std::all_of(b, e, [&](int64_t c) { return at(c) == m; })) continue;
            if (closeChain(n, m, feedsOutput, inChain, chain))
                for (int64_t c : chain) assign(c, m);
            for (int64_t c : chain) inChain[static_cast<size_t>(c)] = 0;
        }
    }

    // The chain that joining n to m would pull in: n and, backwards, every
    // unassigned producer that feeds only the chain or m. It may join when it
    // reads one value from outside (the hidden state a norm normalizes): the
    // residual add before the model's final norm, or an MoE's weighted sum,
    // read two and stay out. Bounded: a norm's chain is a handful of ops.
    bool closeChain(int64_t n, ModuleId m, const std::vector<char>& feedsOutput, std::vector<char>& inChain,
                    std::vector<int64_t>& chain) const {
        constexpr size_t kMaxChain = 64;
        chain.assign(1, n);
        inChain[static_cast<size_t>(n)] = 1;
        std::vector<int64_t> external;  // producing nodes, or -1 - graph input
        auto addExternal = [&](int64_t v) {
            if (std::find(external.begin(), external.end(), v) == external.end()) external.push_back(v);
            return external.size() <= 1;
        };
        for (size_t k = 0; k < chain.size(); ++k) {
            const int64_t c = chain[k];
            const auto& node = graph_.nodes[static_cast<size_t>(c)];
            for (size_t i = 0; i < node.inputs.size(); ++i) {
                const ValueSource& s = index_.source(c, static_cast<int64_t>(i));
                if (s.kind == ValueSource::Kind::GraphInput && !addExternal(-1 - s.index)) return false;
                if (s.kind != ValueSource::Kind::NodeOutput) continue;
                const int64_t p = s.index;
                if (inChain[static_cast<size_t>(p)] || at(p) == m) continue;
                if (std::find(external.begin(), external.end(), p) != external.end()) continue;  // stays outside
                auto [cb, ce] = consumers_.of(p);
                const bool joins =
                    at(p) == kNoModule && !feedsOutput[static_cast<size_t>(p)] &&
                    std::all_of(cb, ce, [&](int64_t x) { return inChain[static_cast<size_t>(x)] || at(x) == m; });
                if (!joins) {
                    if (!addExternal(p)) return false;
                    continue;
                }
                if (chain.size() >= kMaxChain) return false;
                inChain[static_cast<size_t>(p)] = 1;
                chain.push_back(p);
            }
        }
        return true;
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

    // A sealed module (a Linear) holds only its own op: its neighbours are its caller's.
    ModuleId seen(ModuleId m) const {
        return m != kNoModule && sealed_[static_cast<size_t>(m)] ? lift(tree_.module(m).parent) : m;
    }

    // The module for an op whose assigned producers sit in prod_ and assigned consumers in cons_.
    ModuleId decide() {
        if (prod_.empty() && cons_.empty()) return kNoModule;
        // Inside a layer, model-level neighbours (a shared RoPE table, the
        // embedding, the final norm) do not pull an op out of it.
        auto inside = [&](ModuleId m) { return inListElement_[static_cast<size_t>(m)] != 0; };
        const bool anyInside =
            std::any_of(prod_.begin(), prod_.end(), inside) || std::any_of(cons_.begin(), cons_.end(), inside);
        if (anyInside) {
            std::erase_if(prod_, [&](ModuleId m) { return !inside(m); });
            std::erase_if(cons_, [&](ModuleId m) { return !inside(m); });
        }
        ModuleId l = kNoModule;
        for (ModuleId m : prod_) l = tree_.commonAncestor(l, m);
        for (ModuleId m : cons_) l = tree_.commonAncestor(l, m);
        // One input from outside, read only inside one submodule of the common
        // module: that submodule's first op (the MoE's hidden_states.view before
        // its router), not glue of the caller.
        if (producerCount_ == 1 && prod_.size() == 1 && !cons_.empty()) {
            ModuleId lc = kNoModule;
            for (ModuleId m : cons_) lc = tree_.commonAncestor(lc, m);
            const ModuleId child = tree_.childToward(l, lc);
            if (child != kNoModule && !tree_.module(child).isList) return child;
        }
        // From one list element into another (layers.3 -> layers.4, or ResNet's
        // layer1.0 -> layer2.0): the op ends the producer's element.
        if (!prod_.empty() && !cons_.empty()) {
            ModuleId lp = kNoModule;
            for (ModuleId m : prod_) lp = tree_.commonAncestor(lp, m);
            const ModuleId element = elementOf(lp);
            if (element != kNoModule && l != element && tree_.isAncestorOrSelf(l, element)) return element;
        }
        while (tree_.module(l).isList) {  // producers in several elements: the consumers' element
            ModuleId e = prod_.empty() ? kNoModule : commonElement(prod_, l);
            if (e == kNoModule && !cons_.empty()) e = commonElement(cons_, l);
            l = e != kNoModule ? e : tree_.module(l).parent;
        }
        return l;
    }

    // The innermost ModuleList element m lies in (m itself if it is one), or kNoModule.
    ModuleId elementOf(ModuleId m) const {
        for (; m != kNoModule && m != kRootModule; m = tree_.module(m).parent)
            if (tree_.module(tree_.module(m).parent).isList) return m;
        return kNoModule;
    }

    void gather(int64_t n) {
        prod_.clear();
        cons_.clear();
        auto [pb, pe] = producers_.of(n);
        auto [cb, ce] = consumers_.of(n);
        // The residual add that starts layer 4 reads layer 3's output, which
        // layer 4's first ops read too: that value is an input of layer 4
        // here, not a pull towards layer 3. (Two experts' outputs feed no
        // common element, so a combining op still lands above them.)
        int64_t latest = -1;
        producerCount_ = 0;
        for (auto* p = pb; p != pe; ++p)
            if (at(*p) != kNoModule) latest = *p, ++producerCount_;
        const auto& node = graph_.nodes[static_cast<size_t>(n)];
        for (size_t i = 0; i < node.inputs.size(); ++i)  // a graph input is a value from outside too
            producerCount_ += index_.source(n, static_cast<int64_t>(i)).kind == ValueSource::Kind::GraphInput;
        const ModuleId latestElement = latest >= 0 ? elementOf(seen(at(latest))) : kNoModule;
        for (auto* p = pb; p != pe; ++p) {
            if (at(*p) == kNoModule) continue;
            const ModuleId m = seen(at(*p));
            if (latestElement != kNoModule && !tree_.isAncestorOrSelf(latestElement, m)) {
                auto [qb, qe] = consumers_.of(*p);
                const bool feedsElement = std::any_of(qb, qe, [&](int64_t c) {
                    return c != n && at(c) != kNoModule && tree_.isAncestorOrSelf(latestElement, at(c));
                });
                if (feedsElement) continue;
            }
            prod_.push_back(m);
        }
        for (auto* c = cb; c != ce; ++c)
            if (at(*c) != kNoModule) cons_.push_back(seen(at(*c)));
    }

    // Every placed producer sits outside all ModuleList elements and is read by
    // several ops (the cos/sin rows indexed once at model level, then
    // unsqueezed in each layer's attention).
    bool readsOnlySharedModelValues(int64_t n) const {
        auto [pb, pe] = producers_.of(n);
        bool any = false;
        for (auto* p = pb; p != pe; ++p) {
            if (at(*p) == kNoModule) continue;
            auto [cb, ce] = consumers_.of(*p);
            if (inListElement_[static_cast<size_t>(at(*p))] || ce - cb < 2) return false;
            any = true;
        }
        return any;
    }

    // Forward in execution order: by then every producer is placed, and the
    // consumers known so far are weight readers and norm chains. An op with
    // neither waits for the backward pass, which places it by its consumers.
    void spreadFromNeighbours() {
        placedByNeighbours_.assign(n_, 0);
        std::vector<int64_t> waiting;
        for (size_t k = 0; k < n_; ++k) {
            const auto n = static_cast<int64_t>(k);
            if (at(n) != kNoModule) continue;
            // A getitem is part of the call that made the tuple it reads.
            if (graph_.nodes[k].isGetitem()) {
                auto [pb, pe] = producers_.of(n);
                if (pe - pb == 1 && at(*pb) != kNoModule) {
                    assign(n, at(*pb));
                    continue;
                }
            }
            gather(n);
            placedByNeighbours_[k] = 1;
            if (readsOnlySharedModelValues(n)) {  // a per-layer view of the RoPE table: its consumers say where
                waiting.push_back(n);
                continue;
            }
            const ModuleId m = decide();
            if (m == kNoModule)
                waiting.push_back(n);
            else
                assign(n, m);
        }
        for (auto it = waiting.rbegin(); it != waiting.rend(); ++it) {
            gather(*it);
            const ModuleId m = decide();
            assign(*it, m == kNoModule ? kRootModule : m);
        }
        // Backwards: a one-input reshape or reduction that leaves a ModuleList
        // element for model-level code only (ResNet's pooling and flatten after
        // its last block) is that code's; an activation there (the block's last
        // relu) stays in the block.
        for (size_t k = n_; k-- > 0;) {
            const auto n = static_cast<int64_t>(k);
            if (!placedByNeighbours_[k] || !inListElement_[static_cast<size_t>(at(n))]) continue;
            auto [pb, pe] = producers_.of(n);
            auto [cb, ce] = consumers_.of(n);
            if (pe - pb != 1 || cb == ce) continue;
            const auto family = layout::classifyOp(graph_.nodes[k].opType);
            if (family != layout::OpFamily::Shape && family != layout::OpFamily::Reduction &&
                family != layout::OpFamily::Other)
                continue;
            ModuleId outside = kNoModule;
            bool allOutside = true;
            for (auto* c = cb; c != ce && allOutside; ++c) {
                const ModuleId cm = seen(at(*c));
                allOutside = !inListElement_[static_cast<size_t>(cm)];
                outside = tree_.commonAncestor(outside, cm);
            }
            if (allOutside) assign(n, tree_.commonAncestor(outside, at(n)));
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
    std::vector<char> weightOnly_, sealed_, inListElement_, placedByNeighbours_;
    std::vector<char> anchoredIn_;
    std::vector<int32_t> readersIn_;  // ops placed in each module by the weights they read (weight-only ops aside)
    std::vector<ModuleId> prod_, cons_;
    int producerCount_ = 0;  // placed producers of the op being decided, before any is set aside
};

}  // namespace

ModuleTree inferModuleTree(const ir::Graph& graph, const ir::GraphIndex& index) {
    // Recorded beats inferred: a .pt2 names each node's module.
    if (hasRecordedModules(graph)) return recordedModuleTree(graph, index);
    return Inference(graph, index).run();
}

}  // namespace irscope::modules
