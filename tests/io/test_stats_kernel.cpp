// The statistics kernel (core/io/catalog/stats_kernel.h) on hand-checked values: half
// and bfloat16 widened exactly (subnormals, infinities, NaN), counts of
// zeros / NaN / +Inf / -Inf, min / max / mean / unbiased std over the finite
// values only, and the same answers whether the values fill whole 8-wide
// vectors, a tail, or several blocks.
#include <cmath>
#include <cstring>
#include <vector>

#include "core/io/catalog/stats_kernel.h"
#include "core/io/catalog/tensor_listing.h"
#include "core/io/tensor_file.h"
#include "core/io/tensor_stats.h"
#include "tensor_test_util.h"

#include <QtTest/QtTest>

using namespace irscope::io;

namespace {
constexpr float kInf = std::numeric_limits<float>::infinity();

StatsAccumulator over(const std::vector<float>& v) {
    StatsAccumulator a;
    accumulateStats(v.data(), static_cast<int64_t>(v.size()), StatsElement::Float32, a);
    return a;
}
double stdOf(const StatsAccumulator& a) { return std::sqrt(a.m2 / static_cast<double>(a.n - 1)); }
}  // namespace

class TestStatsKernel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void halfWidensExactly() {
        // 1.0, -2.0, 2^-24 (smallest subnormal), 1023 * 2^-24 (largest subnormal),
        // 65504 (largest normal), +Inf, -Inf, NaN, -0.0
        const std::vector<uint16_t> bits{0x3C00, 0xC000, 0x0001, 0x03FF, 0x7BFF, 0x7C00, 0xFC00, 0x7E00, 0x8000};
        StatsAccumulator a;
        accumulateStats(bits.data(), static_cast<int64_t>(bits.size()), StatsElement::Float16, a);
        QCOMPARE(a.n, int64_t(6));
        QCOMPARE(a.nans, int64_t(1));
        QCOMPARE(a.posInfs, int64_t(1));
        QCOMPARE(a.negInfs, int64_t(1));
        QCOMPARE(a.zeros, int64_t(1));  // -0.0
        QCOMPARE(a.lo, -2.0);
        QCOMPARE(a.hi, 65504.0);
        const double sum = 1.0 - 2.0 + std::ldexp(1.0, -24) + 1023 * std::ldexp(1.0, -24) + 65504.0;
        QCOMPARE(a.sum, sum);
    }

    void bfloat16IsTheTopHalfOfAFloat() {
        const std::vector<uint16_t> bits{0x3F80, 0xC040, 0x0000, 0x7F80, 0x7FC0};  // 1, -3, 0, +Inf, NaN
        StatsAccumulator a;
        accumulateStats(bits.data(), 5, StatsElement::BFloat16, a);
        QCOMPARE(a.n, int64_t(3));
        QCOMPARE(a.lo, -3.0);
        QCOMPARE(a.hi, 1.0);
        QCOMPARE(a.sum, -2.0);
        QCOMPARE(a.zeros, int64_t(1));
        QCOMPARE(a.posInfs, int64_t(1));
        QCOMPARE(a.nans, int64_t(1));
    }

    // 1..19 with NaN and both infinities mixed in, at positions that fall in the
    // vector part and in the tail: mean 10, unbiased std sqrt(31.666...).
    void nonFiniteValuesAreLeftOut() {
        std::vector<float> v;
        for (int k = 1; k <= 19; ++k) v.push_back(float(k));
        v.insert(v.begin() + 3, NAN);
        v.insert(v.begin() + 9, kInf);
        v.push_back(-kInf);
        const StatsAccumulator a = over(v);
        QCOMPARE(a.n, int64_t(19));
        QCOMPARE(a.nans + a.posInfs + a.negInfs, int64_t(3));
        QCOMPARE(a.lo, 1.0);
        QCOMPARE(a.hi, 19.0);
        QCOMPARE(a.sum / double(a.n), 10.0);
        QVERIFY(std::abs(stdOf(a) - std::sqrt(190.0 / 6.0)) < 1e-12);  // sum of (k-10)^2 = 570, / 18
    }

    // Three blocks and a bit (the kernel works 4,096 at a time): k mod 7 for
    // k < 13,000 has mean 2.99915..., counted by hand below.
    void blocksCombine() {
        std::vector<float> v(13000);
        double sum = 0, sq = 0;
        int64_t zeros = 0;
        for (size_t k = 0; k < v.size(); ++k) {
            v[k] = float(k % 7);
            sum += k % 7;
            zeros += k % 7 == 0;
        }
        const double mean = sum / 13000.0;
        for (float x : v) sq += (x - mean) * (x - mean);
        const StatsAccumulator a = over(v);
        QCOMPARE(a.n, int64_t(13000));
        QCOMPARE(a.zeros, zeros);
        QCOMPARE(a.sum, sum);
        QVERIFY(std::abs(a.m2 - sq) < 1e-6 * sq);
        QCOMPARE(a.hi, 6.0);
    }

    void onlyNonFinite() {
        const StatsAccumulator a = over({NAN, kInf, -kInf, NAN, NAN, NAN, NAN, NAN, NAN});
        QCOMPARE(a.n, int64_t(0));
        QCOMPARE(a.nans, int64_t(7));
        QCOMPARE(a.sum, 0.0);
    }

    // listTensorFile summarizes on every core (irscope:threads): each floating
    // tensor's figures are libtorch's own min / max / mean / std, views and
    // half / bfloat16 / float64 tensors included.
    void listingAgreesWithLibtorch_data() {
        QTest::addColumn<QString>("file");
        for (const char* f : {"dtypes.pt", "views.pt", "convnet_state_dict.pt", "small.safetensors"})
            QTest::newRow(f) << f;
    }
    void listingAgreesWithLibtorch() {
        QFETCH(QString, file);
        const std::string path = irscope::io::test::fixture(file.toStdString());
        const auto rows = listTensorFile(path, {}, true);
        const TensorMap map = readTensorFile(path);
        int checked = 0;
        for (size_t k = 0; k < map.size(); ++k) {
            const at::Tensor t = map.entries()[k].tensor.to(at::kDouble);
            if (!at::isFloatingType(map.entries()[k].tensor.scalar_type())) {
                QVERIFY(!rows[k].stats);
                continue;
            }
            QVERIFY(rows[k].stats);
            const TensorSummary& s = *rows[k].stats;
            if (t.numel() == 0) {
                QCOMPARE(s.finite, int64_t(0));
                continue;
            }
            QCOMPARE(s.torchMin(), t.min().item<double>());
            QCOMPARE(s.torchMax(), t.max().item<double>());
            const double mean = t.mean().item<double>();
            QVERIFY2((std::isnan(mean) && std::isnan(s.torchMean())) || s.torchMean() == mean ||
                         std::abs(s.torchMean() - mean) <= 1e-9 * (1 + std::abs(mean)),
                     map.entries()[k].name.c_str());
            // torch.std of a tensor holding NaN or Inf is NaN; ours is over the finite values.
            if (t.numel() > 1 && s.finite == s.numel)
                QVERIFY2(std::abs(s.std - t.std().item<double>()) <= 1e-9 * (1 + s.std), map.entries()[k].name.c_str());
            ++checked;
        }
        QVERIFY(checked > 0);
    }

    void doublesToo() {
        const std::vector<double> v{0.5, -1.5, std::numeric_limits<double>::infinity(), 3.0};
        StatsAccumulator a;
        accumulateStats(v.data(), 4, StatsElement::Float64, a);
        QCOMPARE(a.n, int64_t(3));
        QCOMPARE(a.sum, 2.0);
        QCOMPARE(a.lo, -1.5);
        QCOMPARE(a.hi, 3.0);
    }
};

#include "common/suite_registry.h"

IRSCOPE_TEST_APPLESS_MAIN(TestStatsKernel)
#include "test_stats_kernel.moc"
