#include "core/io/catalog/stats_kernel.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <utility>

// The vector helpers below are internal and always inlined: the ABI of
// passing 32-byte vectors, which GCC warns about, never applies.
#pragma GCC diagnostic ignored "-Wpsabi"

namespace irscope::io {

namespace {

constexpr int64_t kBlock = 4096;
constexpr int kLanes = 8;

// One block's moments and counts.
struct Block {
    int64_t n = 0, zeros = 0, nans = 0, posInfs = 0, negInfs = 0;
    double sum = 0, m2 = 0, lo = 0, hi = 0;
};

// Compiled twice (AVX2 and the baseline); the loader picks one per machine
// through an ifunc resolver. ThreadSanitizer cannot run such a resolver (it is
// called during relocation, before the TSan runtime is up), so a TSan build
// keeps the baseline only.
#if defined(__SANITIZE_THREAD__)
#define IRSCOPE_STATS_CLONES
#else
#define IRSCOPE_STATS_CLONES __attribute__((target_clones("avx2", "default")))
#endif

// Adds the per-lane counts into `b`; returns the smallest and largest lane bounds.
template <typename Counts, typename Bounds>
__attribute__((always_inline)) inline auto foldLanes(Block& b, int lanes, const Counts& n, const Counts& zeros,
                                                     const Counts& nans, const Counts& pos, const Counts& neg,
                                                     const Bounds& lo, const Bounds& hi) {
    auto blo = lo[0], bhi = hi[0];
    for (int l = 0; l < lanes; ++l) {
        b.n += n[l];
        b.zeros += zeros[l];
        b.nans += nans[l];
        b.posInfs += pos[l];
        b.negInfs += neg[l];
        blo = std::min(blo, lo[l]);
        bhi = std::max(bhi, hi[l]);
    }
    return std::pair{blo, bhi};
}

template <typename T>
__attribute__((always_inline)) inline Block blockStats(const T* x, int64_t count) {
    constexpr T inf = std::numeric_limits<T>::infinity();
    constexpr T big = std::numeric_limits<T>::max();
    double sum[kLanes] = {};
    T lo[kLanes], hi[kLanes];
    int64_t n[kLanes] = {}, zeros[kLanes] = {}, nans[kLanes] = {}, pos[kLanes] = {}, neg[kLanes] = {};
    for (int l = 0; l < kLanes; ++l) lo[l] = inf, hi[l] = -inf;
    int64_t i = 0;
    auto step = [&](int l, T v) {
        const bool finite = std::fabs(v) <= big;  // false for NaN and +/-Inf
        const T f = finite ? v : T(0);
        sum[l] += static_cast<double>(f);
        n[l] += finite;
        zeros[l] += v == T(0);
        nans[l] += v != v;
        pos[l] += v == inf;
        neg[l] += v == -inf;
        lo[l] = finite && v < lo[l] ? v : lo[l];
        hi[l] = finite && v > hi[l] ? v : hi[l];
    };
    for (; i + kLanes <= count; i += kLanes)
        for (int l = 0; l < kLanes; ++l) step(l, x[i + l]);
    for (int l = 0; i < count; ++i, ++l) step(l, x[i]);
    Block b;
    for (int l = 0; l < kLanes; ++l) b.sum += sum[l];
    const auto [blo, bhi] = foldLanes(b, kLanes, n, zeros, nans, pos, neg, lo, hi);
    b.lo = blo;
    b.hi = bhi;
    if (b.n == 0) return b;
    // Second look at the block, from cache: squared deviations from its mean.
    const double mean = b.sum / static_cast<double>(b.n);
    double m2[kLanes] = {};
    auto dev = [&](int l, T v) {
        const bool finite = std::fabs(v) <= big;
        const double d = finite ? static_cast<double>(v) - mean : 0.0;
        m2[l] += d * d;
    };
    i = 0;
    for (; i + kLanes <= count; i += kLanes)
        for (int l = 0; l < kLanes; ++l) dev(l, x[i + l]);
    for (int l = 0; i < count; ++i, ++l) dev(l, x[i]);
    for (int l = 0; l < kLanes; ++l) b.m2 += m2[l];
    return b;
}

// float32, eight at a time with GCC's vector types (lowered to AVX2 or SSE
// by the clone): the scalar form above does not vectorize, its conditions
// being branches to the compiler.
using V8f = float __attribute__((vector_size(32)));
using V8i = int32_t __attribute__((vector_size(32)));
using V4d = double __attribute__((vector_size(32)));

__attribute__((always_inline)) inline V4d lowHalf(V8f v) {
    return __builtin_convertvector(__builtin_shufflevector(v, v, 0, 1, 2, 3), V4d);
}
__attribute__((always_inline)) inline V4d highHalf(V8f v) {
    return __builtin_convertvector(__builtin_shufflevector(v, v, 4, 5, 6, 7), V4d);
}

IRSCOPE_STATS_CLONES Block floatBlock(const float* x, int64_t count) {
    const int64_t vectors = count / 8;
    if (vectors == 0) return blockStats(x, count);
    const float inf = std::numeric_limits<float>::infinity(), big = std::numeric_limits<float>::max();
    const V8i absMask = V8i{} + 0x7FFFFFFF;
    V4d sumLo{}, sumHi{};
    V8i n{}, zeros{}, nans{}, pos{}, neg{};
    V8f lo = V8f{} + inf, hi = V8f{} - inf;
    for (int64_t k = 0; k < vectors; ++k) {
        V8f v;
        std::memcpy(&v, x + 8 * k, sizeof v);
        const V8f a = reinterpret_cast<V8f>(reinterpret_cast<V8i>(v) & absMask);
        const V8i finite = a <= big;
        const V8f f = reinterpret_cast<V8f>(reinterpret_cast<V8i>(v) & finite);
        sumLo += lowHalf(f);
        sumHi += highHalf(f);
        n -= finite;
        zeros -= v == 0.0f;
        nans -= v != v;
        pos -= v == inf;
        neg -= v == -inf;
        lo = (finite & (v < lo)) ? v : lo;
        hi = (finite & (v > hi)) ? v : hi;
    }
    Block b;
    auto [blo, bhi] = foldLanes(b, 8, n, zeros, nans, pos, neg, lo, hi);
    for (int l = 0; l < 4; ++l) b.sum += sumLo[l] + sumHi[l];
    // The tail, scalar; then the block's squared deviations, from cache.
    const Block tail = blockStats(x + 8 * vectors, count - 8 * vectors);
    b.n += tail.n, b.zeros += tail.zeros, b.nans += tail.nans, b.posInfs += tail.posInfs, b.negInfs += tail.negInfs;
    b.sum += tail.sum;
    if (tail.n) blo = std::min<float>(blo, tail.lo), bhi = std::max<float>(bhi, tail.hi);
    b.lo = blo;
    b.hi = bhi;
    if (b.n == 0) return b;
    const double mean = b.sum / static_cast<double>(b.n);
    V4d m2Lo{}, m2Hi{};
    for (int64_t k = 0; k < count / 8; ++k) {
        V8f v;
        std::memcpy(&v, x + 8 * k, sizeof v);
        const V8i finite = reinterpret_cast<V8f>(reinterpret_cast<V8i>(v) & absMask) <= big;
        const V8f f = reinterpret_cast<V8f>(reinterpret_cast<V8i>(v) & finite);
        // A non-finite lane contributes (0 - mean)^2; taken out below.
        const V4d dLo = lowHalf(f) - mean, dHi = highHalf(f) - mean;
        m2Lo += dLo * dLo;
        m2Hi += dHi * dHi;
    }
    for (int l = 0; l < 4; ++l) b.m2 += m2Lo[l] + m2Hi[l];
    const int64_t nonFinite = 8 * vectors - (b.n - tail.n);
    b.m2 -= static_cast<double>(nonFinite) * mean * mean;
    for (int64_t i = 8 * vectors; i < count; ++i)
        if (std::fabs(x[i]) <= big) b.m2 += (x[i] - mean) * (x[i] - mean);
    return b;
}
IRSCOPE_STATS_CLONES Block doubleBlock(const double* x, int64_t count) { return blockStats(x, count); }

// bfloat16 is the top half of a float32.
IRSCOPE_STATS_CLONES void widenBFloat16(const uint16_t* in, float* out, int64_t count) {
    for (int64_t i = 0; i < count; ++i) {
        const uint32_t bits = static_cast<uint32_t>(in[i]) << 16;
        std::memcpy(&out[i], &bits, 4);
    }
}

// IEEE half to float, exactly (subnormals, Inf and NaN included), branch-free.
IRSCOPE_STATS_CLONES void widenFloat16(const uint16_t* in, float* out, int64_t count) {
    for (int64_t i = 0; i < count; ++i) {
        const uint32_t h = in[i];
        const uint32_t sign = (h & 0x8000u) << 16;
        const uint32_t rest = h & 0x7FFFu;
        // Normal and subnormal numbers: scale the bits by 2^112 as a float.
        uint32_t scaledBits = rest << 13;
        float scaled;
        std::memcpy(&scaled, &scaledBits, 4);
        scaled *= 0x1p112f;
        uint32_t bits;
        std::memcpy(&bits, &scaled, 4);
        // Inf and NaN: exponent all ones.
        bits = rest >= 0x7C00u ? (0x7F800000u | ((rest & 0x3FFu) << 13)) : bits;
        bits |= sign;
        std::memcpy(&out[i], &bits, 4);
    }
}

void merge(StatsAccumulator& acc, const Block& b) {
    acc.zeros += b.zeros;
    acc.nans += b.nans;
    acc.posInfs += b.posInfs;
    acc.negInfs += b.negInfs;
    if (b.n == 0) return;
    const double meanB = b.sum / static_cast<double>(b.n);
    const int64_t total = acc.n + b.n;
    const double delta = meanB - acc.mean;
    acc.mean += delta * static_cast<double>(b.n) / static_cast<double>(total);
    acc.m2 += b.m2 + delta * delta * static_cast<double>(acc.n) * static_cast<double>(b.n) / static_cast<double>(total);
    acc.sum += b.sum;
    acc.lo = std::min(acc.lo, b.lo);
    acc.hi = std::max(acc.hi, b.hi);
    acc.n = total;
}

}  // namespace

void accumulateStats(const void* data, int64_t count, StatsElement element, StatsAccumulator& acc) {
    float widened[kBlock];
    for (int64_t start = 0; start < count; start += kBlock) {
        const int64_t m = std::min(kBlock, count - start);
        switch (element) {
        case StatsElement::Float32: merge(acc, floatBlock(static_cast<const float*>(data) + start, m)); break;
        case StatsElement::Float64: merge(acc, doubleBlock(static_cast<const double*>(data) + start, m)); break;
        case StatsElement::Float16:
            widenFloat16(static_cast<const uint16_t*>(data) + start, widened, m);
            merge(acc, floatBlock(widened, m));
            break;
        case StatsElement::BFloat16:
            widenBFloat16(static_cast<const uint16_t*>(data) + start, widened, m);
            merge(acc, floatBlock(widened, m));
            break;
        }
    }
}

}  // namespace irscope::io
