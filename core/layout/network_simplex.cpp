#include "core/layout/network_simplex.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <queue>
#include <stdexcept>
#include <utility>

namespace irscope::layout::detail {

namespace {

// Negative tree constraints a pivot weighs before it takes the most
// negative: taking the first makes many small pivots, weighing all of them
// costs a pass per pivot. dot weighs 30; on our x placements 100 took a
// third fewer pivots (a 824-item MoE: 548 -> 377).
constexpr int kLeaveSearch = 100;
// Passes of centre() at most: each moves a free part within its room, which
// can free another's.
constexpr int kCentrePasses = 3;

class Simplex {
public:
    Simplex(const std::vector<DifferenceConstraint>& c, std::vector<int64_t>& r) : r_(r), start_(r) {
        n_ = static_cast<int32_t>(r.size());
        // A constraint from a node to itself holds or never can; it would
        // count twice in its node's cut values.
        c_.reserve(c.size());
        for (const auto& k : c) {
            if (k.tail != k.head) {
                c_.push_back(k);
                continue;
            }
            if (k.minLength > 0)
                throw std::invalid_argument("network simplex: a node at least its own value plus more");
        }
        incidence();
    }

    // balance: after the optimum, centre each part that could move at no
    // cost (a tree constraint of cut value 0) in the room it has.
    bool balance_ = false;

    SimplexReport run(int64_t budget, const SimplexWork& onWork) {
        SimplexReport report;
        if (n_ <= 1) {
            report.optimal = true;
            return report;
        }
        joinComponents();
        feasibleTree();
        initialCutValues();
        int64_t work = 0;
        while (work < budget) {
            const int64_t before = work;
            const int32_t leave = leavingConstraint(work);
            if (leave < 0) {
                report.optimal = true;
                break;
            }
            const int32_t enter = enteringConstraint(leave, work);
            if (enter < 0) break;  // unbounded: cannot happen on a feasible placement
            exchange(leave, enter, work);
            ++report.pivots;
            if (onWork) onWork(work - before);
        }
        // The budget may run out just as the last pivot needed was made.
        if (!report.optimal) report.optimal = !anyNegativeCut();
        if (report.optimal && balance_)
            for (int pass = 0; pass < kCentrePasses && centre(work, budget); ++pass) {}
        report.work = work;
        return report;
    }

private:
    // The caller's constraints (self-loops left out), then zero-weight links
    // between disconnected parts.
    std::vector<DifferenceConstraint> c_;
    std::vector<int64_t>& r_;
    const std::vector<int64_t> start_;  // the caller's start, for centre()
    int32_t n_ = 0, root_ = 0;
    // Per node: the constraints it is the tail (out) or head (in) of, flat.
    std::vector<int32_t> outStart_, outList_, inStart_, inList_;
    std::vector<char> inTree_;  // per constraint
    std::vector<int64_t> cut_;  // per tree constraint
    // Per node: its tree constraints, in a slot of treeList_ as large as
    // its incidence (a tree constraint is one of its constraints), the
    // first treeCount_[v] in use.
    std::vector<int32_t> treeStart_, treeCount_, treeList_;
    std::vector<int32_t> parent_, low_, lim_;  // per node: parent constraint (-1 at the root), subtree range
    std::vector<int32_t> byLim_;               // node of each postorder number
    // Tree constraints whose cut value went negative (some since mended:
    // checked when taken), so a pivot need not scan every constraint.
    std::vector<int32_t> negative_;
    std::vector<char> queued_;
    std::vector<int32_t> taken_;  // scratch for the leaving search
    struct Frame {
        int32_t node;
        int32_t next;
    };
    std::vector<Frame> frames_;  // scratch for numbering

    const DifferenceConstraint& at(int32_t e) const { return c_[e]; }
    int32_t constraintCount() const { return static_cast<int32_t>(c_.size()); }
    int64_t slack(int32_t e) const { return r_[at(e).head] - r_[at(e).tail] - at(e).minLength; }
    bool inSubtree(int32_t v, int32_t w) const { return low_[v] <= lim_[w] && lim_[w] <= lim_[v]; }

    void incidence() {
        const int32_t m = constraintCount();
        outStart_.assign(static_cast<size_t>(n_) + 1, 0);
        inStart_.assign(static_cast<size_t>(n_) + 1, 0);
        for (int32_t e = 0; e < m; ++e) {
            ++outStart_[at(e).tail + 1];
            ++inStart_[at(e).head + 1];
        }
        for (int32_t v = 0; v < n_; ++v) {
            outStart_[v + 1] += outStart_[v];
            inStart_[v + 1] += inStart_[v];
        }
        outList_.resize(m);
        inList_.resize(m);
        std::vector<int32_t> o(outStart_.begin(), outStart_.end() - 1), i(inStart_.begin(), inStart_.end() - 1);
        for (int32_t e = 0; e < m; ++e) {
            outList_[o[at(e).tail]++] = e;
            inList_[i[at(e).head]++] = e;
        }
    }

    template <typename F>
    void forEachIncident(int32_t v, F&& f) const {
        for (int32_t k = outStart_[v]; k < outStart_[v + 1]; ++k) f(outList_[k]);
        for (int32_t k = inStart_[v]; k < inStart_[v + 1]; ++k) f(inList_[k]);
    }

    // Depth first from s: take(w, e) for each node w reached over constraint
    // e, which returns whether to go on from w (it marks w as it likes).
    template <typename Take>
    void flood(int32_t s, std::vector<int32_t>& stack, Take&& take) const {
        stack.push_back(s);
        while (!stack.empty()) {
            const int32_t v = stack.back();
            stack.pop_back();
            forEachIncident(v, [&](int32_t e) {
                const int32_t w = at(e).tail == v ? at(e).head : at(e).tail;
                if (take(w, e)) stack.push_back(w);
            });
        }
    }

    // A spanning tree needs a connected graph: parts with no constraint
    // between them get a zero-weight one, tight where they are now, which
    // costs nothing and so never leaves the tree.
    void joinComponents() {
        std::vector<int32_t> part(n_, -1);
        std::vector<int32_t> stack;
        int32_t previous = -1;
        const size_t given = c_.size();
        for (int32_t s = 0; s < n_; ++s) {
            if (part[s] >= 0) continue;
            part[s] = s;
            flood(s, stack, [&](int32_t w, int32_t) {
                if (part[w] >= 0) return false;
                part[w] = s;
                return true;
            });
            if (previous >= 0) c_.push_back({previous, s, r_[s] - r_[previous], 0});
            previous = s;
        }
        if (c_.size() != given) incidence();
    }

    // The first tree: components of tight constraints, each joined to
    // another by shifting the smaller one by the least slack between them.
    void feasibleTree() {
        const int32_t m = constraintCount();
        inTree_.assign(m, 0);
        cut_.assign(m, 0);
        treeStart_.resize(static_cast<size_t>(n_) + 1);
        for (int32_t v = 0; v <= n_; ++v) treeStart_[v] = outStart_[v] + inStart_[v];
        treeCount_.assign(n_, 0);
        treeList_.assign(static_cast<size_t>(2) * m, -1);
        // Components as linked lists of their nodes (head, next, size): a
        // merge splices the smaller one in front of the larger.
        std::vector<int32_t> comp(n_, -1), next(n_, -1), head, tail, size;
        std::vector<int32_t> stack;
        for (int32_t s = 0; s < n_; ++s) {
            if (comp[s] >= 0) continue;
            const auto id = static_cast<int32_t>(head.size());
            head.push_back(s);
            tail.push_back(s);
            size.push_back(1);
            comp[s] = id;
            flood(s, stack, [&](int32_t w, int32_t e) {
                if (comp[w] >= 0 || slack(e) != 0) return false;
                comp[w] = id;
                next[tail[id]] = w;
                tail[id] = w;
                ++size[id];
                addToTree(e);
                return true;
            });
        }
        using Entry = std::pair<int32_t, int32_t>;  // size, component
        std::priority_queue<Entry, std::vector<Entry>, std::greater<>> smallest;
        for (int32_t id = 0; id < static_cast<int32_t>(head.size()); ++id) smallest.push({size[id], id});
        size_t left = head.size();
        while (left > 1) {
            const auto [sz, t] = smallest.top();
            smallest.pop();
            if (size[t] != sz) continue;  // merged since (0), or grown (pushed again)
            // The least slack to another component, and the way to shift.
            int32_t best = -1;
            int64_t bestSlack = std::numeric_limits<int64_t>::max();
            for (int32_t v = head[t]; v >= 0; v = next[v])
                forEachIncident(v, [&](int32_t e) {
                    if (comp[at(e).tail] == comp[at(e).head]) return;
                    const int64_t s = slack(e);
                    if (s < bestSlack) {
                        bestSlack = s;
                        best = e;
                    }
                });
            // Tail inside: the component moves up (towards the head) by the slack.
            const bool tailInside = comp[at(best).tail] == t;
            const int64_t shift = tailInside ? bestSlack : -bestSlack;
            const int32_t into = tailInside ? comp[at(best).head] : comp[at(best).tail];
            for (int32_t v = head[t]; v >= 0; v = next[v]) {
                r_[v] += shift;
                comp[v] = into;
            }
            addToTree(best);
            next[tail[t]] = head[into];
            head[into] = head[t];
            size[into] += size[t];
            size[t] = 0;
            smallest.push({size[into], into});
            --left;
        }
        root_ = 0;
    }

    void addToTree(int32_t e) {
        inTree_[e] = 1;
        for (int32_t v : {at(e).tail, at(e).head}) treeList_[treeStart_[v] + treeCount_[v]++] = e;
    }

    void removeFromTree(int32_t e) {
        inTree_[e] = 0;
        for (int32_t v : {at(e).tail, at(e).head}) {
            int32_t* first = treeList_.data() + treeStart_[v];
            int32_t* last = first + treeCount_[v];
            *std::find(first, last, e) = *(last - 1);
            --treeCount_[v];
        }
    }

    // Postorder numbers for the subtree of v (its parent constraint
    // `parentEdge`), starting at `low`. Returns the nodes in postorder
    // (children before parents) through `order` when given. Without
    // `order`, a child's subtree that already has this parent constraint
    // and this low number is kept as it is (as Graphviz's dfs_range does):
    // its shape did not change (exchange() marks the nodes whose shape may
    // have, low -1), so its numbers would come out the same.
    void number(int32_t v, int32_t parentEdge, int32_t low, std::vector<int32_t>* order = nullptr) {
        if (byLim_.size() != static_cast<size_t>(n_)) {
            byLim_.assign(n_, 0);
            parent_.assign(n_, -1);
            low_.assign(n_, 0);
            lim_.assign(n_, 0);
        }
        std::vector<Frame>& stack = frames_;
        stack.assign(1, {v, 0});
        parent_[v] = parentEdge;
        low_[v] = low;
        int32_t counter = low;
        while (!stack.empty()) {
            Frame& f = stack.back();
            if (f.next < treeCount_[f.node]) {
                const int32_t e = treeList_[treeStart_[f.node] + f.next++];
                if (e == parent_[f.node]) continue;
                const int32_t w = at(e).tail == f.node ? at(e).head : at(e).tail;
                if (order == nullptr && parent_[w] == e && low_[w] == counter) {
                    counter = lim_[w] + 1;
                    continue;
                }
                parent_[w] = e;
                low_[w] = counter;
                stack.push_back({w, 0});
                continue;
            }
            lim_[f.node] = counter;
            byLim_[counter] = f.node;
            ++counter;
            if (order != nullptr) order->push_back(f.node);
            stack.pop_back();
        }
    }

    // Marks the nodes from v up to (not including) `top` as renumbered
    // (low -1), by the parent constraints as they are.
    void invalidatePath(int32_t v, int32_t top) {
        while (v != top) {
            low_[v] = -1;
            const int32_t e = parent_[v];
            v = at(e).tail == v ? at(e).head : at(e).tail;
        }
    }

    // One constraint's term in the cut value of v's parent constraint.
    int64_t termOf(int32_t e, int32_t v, int dir) const {
        const int32_t other = at(e).tail == v ? at(e).head : at(e).tail;
        bool outside = false;
        int64_t rv = 0;
        if (!inSubtree(v, other)) {
            outside = true;
            rv = at(e).weight;
        } else {
            rv = (inTree_[e] ? cut_[e] : 0) - at(e).weight;
        }
        int d = 0;
        if (dir > 0)
            d = at(e).head == v ? 1 : -1;
        else
            d = at(e).tail == v ? 1 : -1;
        if (outside) d = -d;
        return d < 0 ? -rv : rv;
    }

    // The cut value of tree constraint f from those below it: the weight
    // of constraints from its tail's side to its head's, less the reverse.
    int64_t cutValueOf(int32_t f) const {
        int32_t v = 0;
        int dir = 0;
        if (parent_[at(f).tail] == f) {
            v = at(f).tail;
            dir = 1;
        } else {
            v = at(f).head;
            dir = -1;
        }
        int64_t sum = 0;
        forEachIncident(v, [&](int32_t e) { sum += termOf(e, v, dir); });
        return sum;
    }

    void initialCutValues() {
        std::vector<int32_t> order;
        order.reserve(n_);
        number(root_, -1, 0, &order);
        // Rooted at a centroid (no subtree larger than half the tree), the
        // subtrees a pivot renumbers are smaller: that renumbering was half
        // of the solver's time.
        int32_t c = root_;
        for (bool moved = true; moved;) {
            moved = false;
            for (int32_t k = 0; k < treeCount_[c]; ++k) {
                const int32_t e = treeList_[treeStart_[c] + k];
                if (e == parent_[c]) continue;
                const int32_t w = at(e).tail == c ? at(e).head : at(e).tail;
                if (2 * (lim_[w] - low_[w] + 1) > n_) {
                    c = w;
                    moved = true;
                    break;
                }
            }
        }
        if (c != root_) {
            root_ = c;
            order.clear();
            number(root_, -1, 0, &order);
        }
        queued_.assign(constraintCount(), 0);
        for (int32_t v : order)
            if (parent_[v] >= 0) {
                cut_[parent_[v]] = cutValueOf(parent_[v]);
                noteCut(parent_[v]);
            }
    }

    void noteCut(int32_t e) {
        if (cut_[e] < 0 && queued_[e] == 0) {
            queued_[e] = 1;
            negative_.push_back(e);
        }
    }

    bool anyNegativeCut() const {
        return std::any_of(negative_.begin(), negative_.end(), [&](int32_t e) { return inTree_[e] && cut_[e] < 0; });
    }

    // The most negative of the first kLeaveSearch tree constraints with a
    // negative cut value; -1 when none is left (the solution is optimal).
    int32_t leavingConstraint(int64_t& work) {
        taken_.clear();
        int32_t best = -1;
        while (!negative_.empty() && static_cast<int>(taken_.size()) < kLeaveSearch) {
            const int32_t e = negative_.back();
            negative_.pop_back();
            queued_[e] = 0;
            ++work;
            if (inTree_[e] == 0 || cut_[e] >= 0) continue;
            taken_.push_back(e);
            if (best < 0 || cut_[e] < cut_[best]) best = e;
        }
        for (int32_t e : taken_)
            if (e != best) noteCut(e);
        return best;
    }

    // The non-tree constraint of least slack from the leaving constraint's
    // head side to its tail side; the side below it in the tree is a range
    // of postorder numbers.
    int32_t enteringConstraint(int32_t leave, int64_t& work) {
        const int32_t t = at(leave).tail, h = at(leave).head;
        const bool tailBelow = lim_[t] < lim_[h];
        const int32_t v = tailBelow ? t : h;
        int32_t best = -1;
        int64_t bestSlack = std::numeric_limits<int64_t>::max();
        for (int32_t l = low_[v]; l <= lim_[v] && bestSlack > 0; ++l) {
            const int32_t u = byLim_[l];
            ++work;
            if (tailBelow) {  // constraints into the tail side from outside
                for (int32_t k = inStart_[u]; k < inStart_[u + 1]; ++k) {
                    const int32_t e = inList_[k];
                    if (inTree_[e] || inSubtree(v, at(e).tail)) continue;
                    const int64_t s = slack(e);
                    if (s < bestSlack) bestSlack = s, best = e;
                }
            } else {  // constraints out of the head side
                for (int32_t k = outStart_[u]; k < outStart_[u + 1]; ++k) {
                    const int32_t e = outList_[k];
                    if (inTree_[e] || inSubtree(v, at(e).head)) continue;
                    const int64_t s = slack(e);
                    if (s < bestSlack) bestSlack = s, best = e;
                }
            }
        }
        return best;
    }

    // An optimum is seldom unique: where a tree constraint has cut value 0,
    // the side below it can move within the slack of the constraints around
    // it at no cost. Where the first tree's shifts and the pivots left it is
    // arbitrary: a fork's join under one branch, a repeated block a little
    // further aside each time (a 100-layer residual stack drew 7x as wide as
    // a 10-layer one). So each such side moves, within its room, back
    // towards where the caller's start had it (on average): among the
    // optima, the one nearest the start, which for x placement is the
    // balanced Brandes-Koepf drawing.
    bool centre(int64_t& work, int64_t budget) {
        const int32_t m = constraintCount();
        bool moved = false;
        constexpr int64_t kUnbounded = std::numeric_limits<int64_t>::max();
        for (int32_t e = 0; e < m && work < budget; ++e) {
            if (!inTree_[e] || cut_[e] != 0) continue;
            const int32_t t = at(e).tail, h = at(e).head;
            const int32_t v = lim_[t] < lim_[h] ? t : h;
            // The room of the side below e: how far it can move down (the
            // least slack of the constraints into it) and up (out of it).
            int64_t down = kUnbounded, up = kUnbounded;
            double away = 0;  // summed start - now over the side
            for (int32_t l = low_[v]; l <= lim_[v]; ++l) {
                const int32_t u = byLim_[l];
                away += static_cast<double>(start_[u] - r_[u]);
                for (int32_t k = inStart_[u]; k < inStart_[u + 1]; ++k) {
                    const int32_t c = inList_[k];
                    if (!inSubtree(v, at(c).tail)) down = std::min(down, slack(c));
                }
                for (int32_t k = outStart_[u]; k < outStart_[u + 1]; ++k) {
                    const int32_t c = outList_[k];
                    if (!inSubtree(v, at(c).head)) up = std::min(up, slack(c));
                }
            }
            const int32_t size = lim_[v] - low_[v] + 1;
            work += size;
            const auto wanted = static_cast<int64_t>(std::llround(away / size));
            const int64_t lowest = down == kUnbounded ? std::numeric_limits<int64_t>::min() : -down;
            const int64_t highest = up == kUnbounded ? kUnbounded : up;
            const int64_t move = std::clamp(wanted, lowest, highest);
            if (move == 0) continue;
            for (int32_t l = low_[v]; l <= lim_[v]; ++l) r_[byLim_[l]] += move;
            work += size;
            moved = true;
        }
        return moved;
    }

    // Walks from v up the tree until w is below, moving the cut values of
    // the constraints passed by `cutValue` (dir: which way they count).
    int32_t updatePath(int32_t v, int32_t w, int64_t cutValue, bool dir, int64_t& work) {
        while (!inSubtree(v, w)) {
            const int32_t e = parent_[v];
            const bool d = v == at(e).tail ? dir : !dir;
            cut_[e] += d ? cutValue : -cutValue;
            noteCut(e);
            v = lim_[at(e).tail] > lim_[at(e).head] ? at(e).tail : at(e).head;
            ++work;
        }
        return v;
    }

    void exchange(int32_t leave, int32_t enter, int64_t& work) {
        const int64_t delta = slack(enter);
        if (delta > 0) {
            // Make `enter` tight: the side below `leave` moves (the tail's
            // side down, the head's side up), or equivalently, when that
            // side is the larger, everything else moves the other way.
            const int32_t t = at(leave).tail, h = at(leave).head;
            const bool tailBelow = lim_[t] < lim_[h];
            const int32_t v = tailBelow ? t : h;
            const int64_t move = tailBelow ? -delta : delta;
            const int32_t size = lim_[v] - low_[v] + 1;
            if (size * 2 <= n_) {
                for (int32_t l = low_[v]; l <= lim_[v]; ++l) r_[byLim_[l]] += move;
            } else {
                for (int32_t l = 0; l < low_[v]; ++l) r_[byLim_[l]] -= move;
                for (int32_t l = lim_[v] + 1; l < n_; ++l) r_[byLim_[l]] -= move;
            }
            work += std::min(size, n_ - size);
        }
        const int64_t cutValue = cut_[leave];
        const int32_t lca = updatePath(at(enter).tail, at(enter).head, cutValue, true, work);
        updatePath(at(enter).head, at(enter).tail, cutValue, false, work);
        cut_[enter] = -cutValue;
        cut_[leave] = 0;
        noteCut(enter);
        // The nodes whose subtrees change: the paths from enter's ends up
        // to lca, before the tree changes (leave's ends are on them, or one
        // is lca, which is numbered again whole). The work counted is lca's
        // whole subtree, as before the unchanged subtrees were skipped, so
        // the budget stops a run where it always did.
        const int32_t lcaLow = low_[lca];
        invalidatePath(at(enter).tail, lca);
        invalidatePath(at(enter).head, lca);
        removeFromTree(leave);
        addToTree(enter);
        work += lim_[lca] - lcaLow + 1;
        number(lca, parent_[lca], lcaLow);
    }
};

}  // namespace

SimplexReport solveNetworkSimplex(const std::vector<DifferenceConstraint>& constraints, std::vector<int64_t>& r,
                                  int64_t workBudget, bool balance, const SimplexWork& onWork) {
    Simplex s(constraints, r);
    s.balance_ = balance;
    return s.run(workBudget, onWork);
}

}  // namespace irscope::layout::detail
