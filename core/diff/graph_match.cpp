#include "core/diff/graph_match.h"

#include "core/diff/attr_compare.h"

#include <algorithm>
#include <climits>
#include <string_view>

namespace irscope::diff {
namespace {

using ir::GraphIndex;
using ir::ValueSource;

// Where one input slot reads from, in A's numbering: a matched graph input,
// weight or node output; a name (a value nothing in the file defines); or
// unknown, when the B value has no partner in A yet.
struct SourceKey {
    enum Kind : uint8_t { Unknown, Input, Node, Weight, Named } kind = Unknown;
    int64_t index = -1;
    int64_t output = 0;
    bool operator==(const SourceKey&) const = default;
};

uint64_t mix(uint64_t h, uint64_t v) {
    // splitmix64 finaliser over the running hash: cheap and well spread.
    uint64_t z = h ^ (v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2));
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

uint64_t hashText(std::string_view s) { return std::hash<std::string_view>{}(s); }

uint64_t hashKeys(const std::vector<SourceKey>& keys) {
    uint64_t h = keys.size();
    for (const auto& k : keys)
        h = mix(mix(mix(h, k.kind), static_cast<uint64_t>(k.index)), static_cast<uint64_t>(k.output));
    return h;
}

// A nodes by a hash of what they compute, sorted: one allocation for 100,000
// nodes where a hash map of buckets made 100,000. `next` (per run of equal
// hashes, kept at the run's first slot) skips the entries already matched, so
// a long run of look-alike nodes (384 experts' identical ops) is not rescanned.
class HashIndex {
public:
    void add(uint64_t hash, int64_t node) { entries_.emplace_back(hash, node); }
    void finish() {
        std::sort(entries_.begin(), entries_.end());
        next_.assign(entries_.size(), 0);
    }
    // [first, last) of the entries with this hash.
    std::pair<size_t, size_t> range(uint64_t hash) const {
        auto lo = std::lower_bound(entries_.begin(), entries_.end(), std::pair<uint64_t, int64_t>(hash, INT64_MIN));
        auto hi = std::upper_bound(lo, entries_.end(), std::pair<uint64_t, int64_t>(hash, INT64_MAX));
        return {static_cast<size_t>(lo - entries_.begin()), static_cast<size_t>(hi - entries_.begin())};
    }
    int64_t node(size_t i) const { return entries_[i].second; }
    size_t& next(size_t first) { return next_[first]; }

private:
    std::vector<std::pair<uint64_t, int64_t>> entries_;
    std::vector<size_t> next_;
};

// Rounds of passes before giving up on what is left (reported added / removed).
// Real edits settle in a handful; a deep chain with every op swapped needs one per layer.
constexpr int kMaxRounds = 256;

class Matcher {
public:
    Matcher(const GraphIndex& a, const GraphIndex& b, MatchMode mode) : a_(a), b_(b), mode_(mode) {
        const auto& ga = a.graph();
        const auto& gb = b.graph();
        m_.aToB.assign(ga.nodes.size(), -1);
        m_.bToA.assign(gb.nodes.size(), -1);
        m_.reasonB.assign(gb.nodes.size(), MatchReason::None);
        m_.inputAToB.assign(ga.graphInputs.size(), -1);
        m_.inputBToA.assign(gb.graphInputs.size(), -1);
        m_.weightAToB.assign(ga.weights.size(), -1);
        m_.weightBToA.assign(gb.weights.size(), -1);
    }

    NodeMatch run() {
        matchAnchors();
        if (mode_ == MatchMode::Names) {
            namePass(/*requireSameOp=*/false);
            return std::move(m_);
        }
        indexA();
        // Each pass only adds pairs; stop when none adds any. The strongest
        // evidence first (same op, same attrs, same matched inputs; producers
        // of matched consumers), then weaker evidence one kind at a time, each
        // time letting the strong passes follow up. Nodes that read nothing
        // (an arange, a full) carry no context of their own: they wait for
        // their consumers, and only what is left pairs by attrs and order.
        for (int round = 0; round < kMaxRounds; ++round) {
            int64_t found = forwardPass(Evidence::Exact) + backwardPass();
            if (found == 0) found = forwardPass(Evidence::Structural);
            if (found == 0 && mode_ == MatchMode::Auto) found = namePass(/*requireSameOp=*/true);
            if (found == 0) found = opSwapPass();
            if (found == 0) found = forwardPass(Evidence::ContextFree);
            if (found == 0) break;
        }
        return std::move(m_);
    }

private:
    void matchAnchors() {
        const auto& ga = a_.graph();
        const auto& gb = b_.graph();
        for (size_t i = 0; i < gb.graphInputs.size(); ++i) {
            if (auto ai = a_.graphInputIndex(gb.graphInputs[i].name)) {
                m_.inputBToA[i] = *ai;
                m_.inputAToB[static_cast<size_t>(*ai)] = static_cast<int64_t>(i);
            }
        }
        // A renamed sole input (x -> input) is still the input.
        if (ga.graphInputs.size() == 1 && gb.graphInputs.size() == 1 && m_.inputBToA[0] < 0) {
            m_.inputBToA[0] = 0;
            m_.inputAToB[0] = 0;
        }
        for (size_t w = 0; w < gb.weights.size(); ++w) {
            if (auto aw = a_.weightIndex(gb.weights[w].name)) {
                m_.weightBToA[w] = *aw;
                m_.weightAToB[static_cast<size_t>(*aw)] = static_cast<int64_t>(w);
            }
        }
    }

    SourceKey keyOf(const ValueSource& s, const ir::OpNode& node, size_t slot) const {
        switch (s.kind) {
        case ValueSource::Kind::GraphInput: return {SourceKey::Input, s.index, 0};
        case ValueSource::Kind::NodeOutput: return {SourceKey::Node, s.index, s.outputIndex};
        case ValueSource::Kind::Weight:
            if (s.index >= 0) return {SourceKey::Weight, s.index, 0};
            return {SourceKey::Named, static_cast<int64_t>(hashText(s.placeholder)), 0};
        case ValueSource::Kind::Missing: break;
        }
        return {SourceKey::Named, static_cast<int64_t>(hashText(node.inputs[slot].name)), 0};
    }

    std::vector<SourceKey> keysA(int64_t n) const {
        const auto& node = a_.graph().nodes[static_cast<size_t>(n)];
        std::vector<SourceKey> keys(node.inputs.size());
        for (size_t i = 0; i < keys.size(); ++i) keys[i] = keyOf(a_.source(n, static_cast<int64_t>(i)), node, i);
        return keys;
    }

    // B's sources in A's numbering; false while one of them has no partner.
    bool keysB(int64_t n, std::vector<SourceKey>& keys) const {
        const auto& node = b_.graph().nodes[static_cast<size_t>(n)];
        keys.resize(node.inputs.size());
        for (size_t i = 0; i < keys.size(); ++i) {
            SourceKey k = keyOf(b_.source(n, static_cast<int64_t>(i)), node, i);
            const std::vector<int64_t>* map = nullptr;
            if (k.kind == SourceKey::Input) map = &m_.inputBToA;
            if (k.kind == SourceKey::Node) map = &m_.bToA;
            if (k.kind == SourceKey::Weight) map = &m_.weightBToA;
            if (map) {
                k.index = (*map)[static_cast<size_t>(k.index)];
                if (k.index < 0) return false;
            }
            keys[i] = k;
        }
        return true;
    }

    // Equal attrs hash equal: dump() spells NaN and ±Inf alike (null), which
    // only puts such nodes in one bucket; sameAttrValue tells them apart.
    uint64_t attrsHash(const ir::OpNode& node) const { return node.attrs.empty() ? 0 : hashText(node.attrs.dump()); }

    void indexA() {
        const auto& nodes = a_.graph().nodes;
        for (size_t n = 0; n < nodes.size(); ++n) {
            const auto keys = keysA(static_cast<int64_t>(n));
            const uint64_t sources = hashKeys(keys);
            const uint64_t structural = mix(sources, hashText(nodes[n].opType));
            const auto id = static_cast<int64_t>(n);
            structural_.add(structural, id);
            full_.add(mix(structural, attrsHash(nodes[n])), id);
            if (!keys.empty()) sources_.add(sources, id);
        }
        structural_.finish();
        full_.finish();
        sources_.finish();
    }

    void match(int64_t a, int64_t b, MatchReason why) {
        m_.aToB[static_cast<size_t>(a)] = b;
        m_.bToA[static_cast<size_t>(b)] = a;
        m_.reasonB[static_cast<size_t>(b)] = why;
    }
    bool freeA(int64_t a) const { return m_.aToB[static_cast<size_t>(a)] < 0; }
    bool freeB(int64_t b) const { return m_.bToA[static_cast<size_t>(b)] < 0; }
    const ir::OpNode& nodeA(int64_t n) const { return a_.graph().nodes[static_cast<size_t>(n)]; }
    const ir::OpNode& nodeB(int64_t n) const { return b_.graph().nodes[static_cast<size_t>(n)]; }

    // The first free A node of the bucket that passes `fits`, the one named
    // like B's node first (unless names are ignored); -1 when none.
    template <typename Fits>
    int64_t pick(HashIndex& index, uint64_t hash, int64_t b, Fits fits) {
        const auto [first, last] = index.range(hash);
        if (first == last) return -1;
        if (mode_ != MatchMode::Structure) {
            if (auto same = a_.nodeIndex(nodeB(b).name); same && freeA(*same) && fits(*same)) return *same;
        }
        size_t& next = index.next(first);
        while (first + next < last && !freeA(index.node(first + next))) ++next;
        for (size_t i = first + next; i < last; ++i) {
            const int64_t a = index.node(i);
            if (freeA(a) && fits(a)) return a;
        }
        return -1;
    }

    // Exact: same op, attrs and matched inputs. Structural: same op and
    // inputs, attrs may differ (an attr edit). ContextFree: also nodes that
    // read nothing, by attrs (then op alone) and order.
    enum class Evidence { Exact, Structural, ContextFree };

    int64_t forwardPass(Evidence evidence) {
        int64_t found = 0;
        std::vector<SourceKey> keys;
        const auto count = static_cast<int64_t>(b_.graph().nodes.size());
        for (int64_t b = 0; b < count; ++b) {
            if (!freeB(b) || !keysB(b, keys)) continue;
            if (keys.empty() && evidence != Evidence::ContextFree) continue;
            const auto& node = nodeB(b);
            const uint64_t structural = mix(hashKeys(keys), hashText(node.opType));
            auto sameSources = [&](int64_t a) { return nodeA(a).opType == node.opType && keysA(a) == keys; };
            int64_t a = pick(full_, mix(structural, attrsHash(node)), b,
                             [&](int64_t c) { return sameAttrValue(nodeA(c).attrs, node.attrs) && sameSources(c); });
            if (a < 0 && evidence != Evidence::Exact) a = pick(structural_, structural, b, sameSources);
            if (a < 0) continue;
            match(a, b, MatchReason::Structure);
            ++found;
        }
        return found;
    }

    // Pairs two free nodes found by position (same slot of matched consumers,
    // same graph output) if their ops agree (sameOp) or differ (an op swap).
    bool tryPair(int64_t a, int64_t b, bool sameOp) {
        if (!freeA(a) || !freeB(b) || (nodeA(a).opType == nodeB(b).opType) != sameOp) return false;
        match(a, b, sameOp ? MatchReason::Backward : MatchReason::OpSwap);
        return true;
    }

    // Pairs the free producers of two matched consumers, slot by slot.
    // sameOp false pairs producers running different ops (OpSwap).
    int64_t pairProducers(int64_t a, int64_t b, bool sameOp) {
        int64_t found = 0;
        const size_t slots = std::min(nodeA(a).inputs.size(), nodeB(b).inputs.size());
        for (size_t i = 0; i < slots; ++i) {
            const auto& sa = a_.source(a, static_cast<int64_t>(i));
            const auto& sb = b_.source(b, static_cast<int64_t>(i));
            if (sa.kind != ValueSource::Kind::NodeOutput || sb.kind != ValueSource::Kind::NodeOutput) continue;
            if (sa.outputIndex == sb.outputIndex && tryPair(sa.index, sb.index, sameOp)) ++found;
        }
        return found;
    }

    // The producers of the graph outputs, paired by output position.
    int64_t pairOutputProducers(bool sameOp) {
        int64_t found = 0;
        const auto& outsA = a_.graph().graphOutputs;
        const auto& outsB = b_.graph().graphOutputs;
        for (size_t k = 0; k < std::min(outsA.size(), outsB.size()); ++k) {
            const auto pa = a_.producerOfTensor(outsA[k].name);
            const auto pb = b_.producerOfTensor(outsB[k].name);
            if (pa && pb && pa->second == pb->second && tryPair(pa->first, pb->first, sameOp)) ++found;
        }
        return found;
    }

    int64_t backwardPass() {
        int64_t found = pairOutputProducers(true);
        // Reverse execution order: a pair made here is visited later in this pass.
        for (auto b = static_cast<int64_t>(b_.graph().nodes.size()) - 1; b >= 0; --b) {
            const int64_t a = m_.bToA[static_cast<size_t>(b)];
            if (a >= 0) found += pairProducers(a, b, true);
        }
        return found;
    }

    // Some input slot reads the same matched value, or some consumer is matched to a consumer.
    bool sharesNeighbour(int64_t a, int64_t b) const {
        const auto keys = keysA(a);
        const auto& node = nodeB(b);
        for (size_t i = 0; i < std::min(keys.size(), node.inputs.size()); ++i) {
            const auto& src = b_.source(b, static_cast<int64_t>(i));
            if (src.kind != ValueSource::Kind::NodeOutput) continue;
            const int64_t partner = m_.bToA[static_cast<size_t>(src.index)];
            if (partner >= 0 && keys[i] == SourceKey{SourceKey::Node, partner, src.outputIndex}) return true;
        }
        const auto consumersA = a_.consumerNodes(a);
        for (int64_t consumer : b_.consumerNodes(b)) {
            const int64_t partner = m_.bToA[static_cast<size_t>(consumer)];
            if (partner >= 0 && std::binary_search(consumersA.begin(), consumersA.end(), partner)) return true;
        }
        return false;
    }

    int64_t namePass(bool requireSameOp) {
        int64_t found = 0;
        const auto count = static_cast<int64_t>(b_.graph().nodes.size());
        for (int64_t b = 0; b < count; ++b) {
            if (!freeB(b)) continue;
            const auto a = a_.nodeIndex(nodeB(b).name);
            if (!a || !freeA(*a) || (requireSameOp && nodeA(*a).opType != nodeB(b).opType)) continue;
            // FX's counters shift after an insertion: the same name alone may
            // be an unrelated node. Ask for one matched neighbour in common.
            if (requireSameOp && !sharesNeighbour(*a, b)) continue;
            match(*a, b, MatchReason::Name);
            ++found;
        }
        return found;
    }

    // A node replaced in place: it reads the same values as a free A node, or
    // feeds the same slot of a matched consumer. Nodes reading nothing (an
    // arange, a full) are left alone: any two of those would "match".
    int64_t opSwapPass() {
        int64_t found = pairOutputProducers(false);
        for (auto b = static_cast<int64_t>(b_.graph().nodes.size()) - 1; b >= 0; --b) {
            const int64_t a = m_.bToA[static_cast<size_t>(b)];
            if (a >= 0) found += pairProducers(a, b, false);
        }
        std::vector<SourceKey> keys;
        const auto count = static_cast<int64_t>(b_.graph().nodes.size());
        for (int64_t b = 0; b < count; ++b) {
            if (!freeB(b) || !keysB(b, keys) || keys.empty()) continue;
            const int64_t a = pick(sources_, hashKeys(keys), b, [&](int64_t c) {
                return nodeA(c).outputs.size() == nodeB(b).outputs.size() && keysA(c) == keys;
            });
            if (a < 0) continue;
            match(a, b, MatchReason::OpSwap);
            ++found;
        }
        return found;
    }

    const GraphIndex& a_;
    const GraphIndex& b_;
    MatchMode mode_;
    NodeMatch m_;
    HashIndex full_;        // op + sources + attrs
    HashIndex structural_;  // op + sources
    HashIndex sources_;     // sources only (op swaps)
};

}  // namespace

NodeMatch matchGraphs(const GraphIndex& a, const GraphIndex& b, MatchMode mode) { return Matcher(a, b, mode).run(); }

}  // namespace irscope::diff
