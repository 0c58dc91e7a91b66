#include "core/layout/candidate_pool.h"

#include <algorithm>
#include <tuple>

namespace irscope::layout::detail {

void CandidatePool::add(int start, SweptOrder order, bool weigh) {
    const std::lock_guard<std::mutex> hold(lock_);
    auto e = std::make_unique<Entry>();
    e->start = start;
    e->seq = static_cast<int>(std::count_if(entries_.begin(), entries_.end(),
                                            [&](const std::unique_ptr<Entry>& o) { return o->start == start; }));
    e->order = std::move(order);
    e->taken = !weigh;
    entries_.push_back(std::move(e));
}

CandidatePool::Entry* CandidatePool::next() {
    const std::lock_guard<std::mutex> hold(lock_);
    for (;;) {
        Entry* pick = nullptr;
        for (const auto& e : entries_)
            if (!e->taken && (pick == nullptr || std::tie(e->order.crossings, e->start, e->seq) <
                                                     std::tie(pick->order.crossings, pick->start, pick->seq)))
                pick = e.get();
        if (pick == nullptr) return nullptr;
        pick->taken = true;
        // A length is never negative: an order whose crossings alone cost
        // more than one measured cannot win (strictly more: at equal cost
        // it could still win the tie on sweep order, and which thread
        // measured first would decide); a twin of one measured would only
        // tie with it.
        if (static_cast<double>(pick->order.crossings) * kCrossingWorth > best_) continue;
        if (std::any_of(entries_.begin(), entries_.end(), [&](const std::unique_ptr<Entry>& o) {
                return o->measuring && o->order.order == pick->order.order;
            }))
            continue;
        pick->measuring = true;
        return pick;
    }
}

void CandidatePool::measureWaiting(LayeredGraph& own) {
    if (measure_ == nullptr) return;
    while (Entry* e = next()) {
        // Only this thread touches a taken entry's order until it sets the cost.
        own.setOrder(e->order.order);
        const double cost = static_cast<double>(e->order.crossings) * kCrossingWorth + (*measure_)(own);
        const std::lock_guard<std::mutex> hold(lock_);
        e->order.cost = cost;
        best_ = std::min(best_, cost);
    }
}

bool CandidatePool::anyUncrossed(int start) {
    const std::lock_guard<std::mutex> hold(lock_);
    return std::any_of(entries_.begin(), entries_.end(),
                       [&](const std::unique_ptr<Entry>& e) { return e->start == start && e->order.crossings == 0; });
}

std::vector<SweptOrder> CandidatePool::orders(bool withMirror) {
    const std::lock_guard<std::mutex> hold(lock_);
    std::vector<Entry*> sorted;
    for (const auto& e : entries_)
        if (e->start == 0 || withMirror) sorted.push_back(e.get());
    std::sort(sorted.begin(), sorted.end(),
              [](const Entry* a, const Entry* b) { return std::tie(a->start, a->seq) < std::tie(b->start, b->seq); });
    std::vector<SweptOrder> out;
    out.reserve(sorted.size());
    for (Entry* e : sorted) out.push_back(std::move(e->order));
    return out;
}

}  // namespace irscope::layout::detail
