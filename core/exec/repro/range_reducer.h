#pragma once
// RangeReducer: the search behind `irscope reduce`, over runs of
// consecutive nodes in execution order. It is given a test ("does the graph
// cut to nodes [lo, hi) still fail?") and finds a short range that does:
// bisection first (keep whichever half fails alone: O(log n) tests), then
// linear shrinking (drop nodes from either end while it still fails), as
// Polygraphy's `debug reduce` does. What a test runs (the cut in-process
// against a reference, or the user's command) is the caller's business;
// this is only the search, so it is tested with planted predicates.
// Torch-free.
#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace irscope::exec {

enum class ReduceMode { Bisect, Linear, Both };

struct ReduceStep {
    int64_t lo = 0, hi = 0;  // the range tested, [lo, hi)
    bool fails = false;
    std::string why;  // "bisect: first half", "linear: drop the first node"
};

struct ReduceResult {
    int64_t lo = 0, hi = 0;  // the smallest failing range found
    std::vector<ReduceStep> steps;
    bool outOfTime = false;  // the budget ran out: [lo, hi) fails but may not be the smallest
    bool cancelled = false;
};

struct ReduceOptions {
    ReduceMode mode = ReduceMode::Both;
    std::chrono::duration<double> budget{0};  // 0: none
    // Called after each test (progress); return false to stop (cancel).
    std::function<bool(const ReduceStep&)> onStep;
};

// `fails(lo, hi)` must be true for [0, nodeCount) (the caller checks that
// first). A test that throws stops the search and propagates.
ReduceResult reduceRange(int64_t nodeCount, const std::function<bool(int64_t lo, int64_t hi)>& fails,
                         const ReduceOptions& options = {});

}  // namespace irscope::exec
