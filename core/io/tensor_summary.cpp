#include "core/io/tensor_summary.h"

#include <cmath>
#include <limits>

#include <ATen/ATen.h>

#include "core/io/tensor_dtype.h"
#include "core/io/tensor_file.h"

namespace irscope::io {

namespace {

// Min, max and mean in float64, a million elements at a time so that a
// large half tensor never needs a full float64 copy.
void addStats(const at::Tensor& t, TensorSummary& s) {
    const int64_t n = t.numel();
    if (n == 0) return;
    at::Tensor flat = t.reshape(-1);
    constexpr int64_t kChunk = 1 << 20;
    double lo = std::numeric_limits<double>::infinity(), hi = -lo, sum = 0;
    bool nan = false;
    for (int64_t start = 0; start < n; start += kChunk) {
        at::Tensor chunk = flat.slice(0, start, std::min(n, start + kChunk)).to(at::kDouble);
        if (chunk.isnan().any().item<bool>()) nan = true;
        lo = std::min(lo, chunk.min().item<double>());
        hi = std::max(hi, chunk.max().item<double>());
        sum += chunk.sum().item<double>();
    }
    const double qnan = std::numeric_limits<double>::quiet_NaN();
    s.min = nan ? qnan : lo;
    s.max = nan ? qnan : hi;
    s.mean = sum / static_cast<double>(n);
}

}  // namespace

std::vector<TensorSummary> summarizeTensorFile(const std::string& path, const ReadOptions& options, bool stats) {
    TensorMap map = readTensorFile(path, options);
    std::vector<TensorSummary> out;
    for (const auto& e : map) {
        TensorSummary s;
        s.name = e.name;
        s.dtype = scalarTypeName(e.tensor.scalar_type());
        s.shape = e.tensor.sizes().vec();
        if (stats && at::isFloatingType(e.tensor.scalar_type())) {
            try {
                addStats(e.tensor, s);
            } catch (const c10::Error& err) {
                throw TensorFileError(path, "tensor '" + e.name + "': " + err.what_without_backtrace());
            }
        }
        out.push_back(std::move(s));
    }
    for (const auto& k : map.skipped()) {
        TensorSummary s;
        s.name = k.name;
        s.dtype = k.dtype;
        s.shape = k.shape;
        s.supported = false;
        s.note = k.reason;
        out.push_back(std::move(s));
    }
    return out;
}

size_t convertTensorFile(const std::string& in, const std::string& out, const ReadOptions& options) {
    ReadOptions checked = options;
    checked.verifyChecksums = true;
    TensorMap map = readTensorFile(in, checked);
    writeTensorFile(map, out);
    return map.size();
}

}  // namespace irscope::io
