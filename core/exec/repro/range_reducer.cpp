#include "core/exec/repro/range_reducer.h"

namespace irscope::exec {

namespace {

struct Search {
    const std::function<bool(int64_t, int64_t)>& fails;
    const ReduceOptions& options;
    ReduceResult result;
    std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();

    // False when the search must stop (budget, cancel).
    bool test(int64_t lo, int64_t hi, const char* why, bool& failed) {
        if (options.budget.count() > 0 && std::chrono::steady_clock::now() - start > options.budget) {
            result.outOfTime = true;
            return false;
        }
        failed = fails(lo, hi);
        result.steps.push_back({lo, hi, failed, why});
        if (options.onStep && !options.onStep(result.steps.back())) {
            result.cancelled = true;
            return false;
        }
        return true;
    }

    bool bisect() {
        while (result.hi - result.lo > 1) {
            const int64_t lo = result.lo, hi = result.hi, mid = lo + (hi - lo) / 2;
            bool failed = false;
            if (!test(lo, mid, "bisect: first half", failed)) return false;
            if (failed) {
                result.hi = mid;
                continue;
            }
            if (!test(mid, hi, "bisect: second half", failed)) return false;
            if (failed) {
                result.lo = mid;
                continue;
            }
            break;  // it takes nodes from both halves: linear shrinking goes on from here
        }
        return true;
    }

    bool linear() {
        bool failed = false;
        while (result.hi - result.lo > 1) {
            if (!test(result.lo + 1, result.hi, "linear: drop the first node", failed)) return false;
            if (!failed) break;
            ++result.lo;
        }
        while (result.hi - result.lo > 1) {
            if (!test(result.lo, result.hi - 1, "linear: drop the last node", failed)) return false;
            if (!failed) break;
            --result.hi;
        }
        return true;
    }
};

}  // namespace

ReduceResult reduceRange(int64_t nodeCount, const std::function<bool(int64_t, int64_t)>& fails,
                         const ReduceOptions& options) {
    Search s{fails, options, {}};
    s.result.lo = 0;
    s.result.hi = nodeCount;
    if (nodeCount <= 1) return s.result;
    if (options.mode != ReduceMode::Linear && !s.bisect()) return s.result;
    if (options.mode != ReduceMode::Bisect) s.linear();
    return s.result;
}

}  // namespace irscope::exec
