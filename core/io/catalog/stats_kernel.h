#pragma once
// The statistics pass itself, over raw contiguous memory: no libtorch, no
// temporaries. One read of the data: each block of a few thousand elements
// is summed, counted (zeros, NaN, +/-Inf) and bounded, then, still in cache,
// its squared deviations from the block mean are added; blocks combine as
// Chan et al.'s parallel variance does. Several accumulators per pass let the
// compiler vectorize, and the kernels are compiled for AVX2 as well as the
// baseline, chosen at load time. half and bfloat16 are widened to float a
// block at a time. tensor_stats.cpp calls it for float, double, half and
// bfloat16 tensors; other dtypes go through ATen.
#include <cstdint>
#include <limits>

namespace irscope::io {

struct StatsAccumulator {
    int64_t n = 0;  // finite values
    int64_t zeros = 0, nans = 0, posInfs = 0, negInfs = 0;
    double sum = 0, mean = 0, m2 = 0;
    double lo = std::numeric_limits<double>::infinity(), hi = -std::numeric_limits<double>::infinity();
};

enum class StatsElement { Float32, Float64, Float16, BFloat16 };

// Adds `count` contiguous elements at `data` to `acc`.
void accumulateStats(const void* data, int64_t count, StatsElement element, StatsAccumulator& acc);

}  // namespace irscope::io
