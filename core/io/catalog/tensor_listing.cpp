#include "core/io/catalog/tensor_listing.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <optional>
#include <thread>

#include "core/io/catalog/stats_kernel.h"
#include "core/io/catalog/tensor_catalog.h"

namespace irscope::io {

namespace {

std::optional<StatsElement> kernelElement(const std::string& dtype) {
    if (dtype == "float32") return StatsElement::Float32;
    if (dtype == "float64") return StatsElement::Float64;
    if (dtype == "float16") return StatsElement::Float16;
    if (dtype == "bfloat16") return StatsElement::BFloat16;
    return std::nullopt;
}

// A tensor's elements in row-major order, in aligned memory of its own: for
// what the kernel cannot read in place (strided views, big-endian .npy, and
// data a legacy torch.save left misaligned). Strides were checked against
// the storage when the file was described.
std::vector<uint8_t> gather(const uint8_t* storage, const TensorRecord& r, int64_t numel) {
    const size_t elem = static_cast<size_t>(r.elementSize);
    std::vector<uint8_t> out(static_cast<size_t>(numel) * elem);
    if (r.contiguous()) {
        std::memcpy(out.data(), storage + static_cast<size_t>(r.storageOffset) * elem, out.size());
    } else {
        const size_t rank = r.shape.size();
        std::vector<int64_t> index(rank, 0);
        for (int64_t k = 0; k < numel; ++k) {
            int64_t at = r.storageOffset;
            for (size_t d = 0; d < rank; ++d) at += index[d] * r.strides[d];
            std::memcpy(out.data() + static_cast<size_t>(k) * elem, storage + static_cast<size_t>(at) * elem, elem);
            for (size_t d = rank; d-- > 0;) {
                if (++index[d] < r.shape[d]) break;
                index[d] = 0;
            }
        }
    }
    if (r.bigEndian)
        for (size_t k = 0; k < out.size(); k += elem) std::reverse(out.data() + k, out.data() + k + elem);
    return out;
}

TensorSummary summarizeRecord(const TensorCatalog& catalog, const TensorRecord& r, StatsElement element) {
    TensorSummary s;
    s.shape = r.shape;
    s.dtype = r.dtype;
    s.numel = 1;
    for (int64_t d : r.shape) s.numel *= d;  // checked when described
    s.bytes = static_cast<size_t>(s.numel) * static_cast<size_t>(r.elementSize);
    if (s.numel == 0) return s;
    const uint8_t* storage = catalog.storageOf(r);
    StatsAccumulator acc;
    const uint8_t* first = storage + static_cast<size_t>(r.storageOffset) * r.elementSize;
    const bool aligned = reinterpret_cast<uintptr_t>(first) % static_cast<uintptr_t>(r.elementSize) == 0;
    if (r.contiguous() && !r.bigEndian && aligned) {
        accumulateStats(first, s.numel, element, acc);
    } else {
        const std::vector<uint8_t> dense = gather(storage, r, s.numel);
        accumulateStats(dense.data(), s.numel, element, acc);
    }
    applyAccumulator(acc, s);
    // Read once: the pages need not stay resident (nothing else views this
    // catalog's fresh mappings, and nothing writes them).
    catalog.fileOf(r).dropResidentPages(r.storageBegin, r.storageBytes);
    return s;
}

// The statistics of every floating tensor, in parallel over the tensors on
// every core (each worker takes the next tensor; the big ones spread).
// irscope:threads
void summarizeAll(const TensorCatalog& catalog, std::vector<TensorListing>& out) {
    std::atomic<size_t> next{0};
    const size_t count = catalog.records.size();
    auto work = [&] {
        for (size_t k = next++; k < count; k = next++) {
            const TensorRecord& r = catalog.records[k];
            if (!r.supported() || r.subclass) continue;
            if (const auto element = kernelElement(r.dtype)) out[k].stats = summarizeRecord(catalog, r, *element);
        }
    };
    const size_t workers = std::min<size_t>(std::max(1u, std::thread::hardware_concurrency()), count);
    std::vector<std::thread> threads;
    for (size_t w = 1; w < workers; ++w) threads.emplace_back(work);
    work();
    for (auto& t : threads) t.join();
}

}  // namespace

std::vector<TensorListing> listTensorFile(const std::string& path, const ReadOptions& options, bool stats) {
    TensorCatalog catalog = describeTensorFile(path, options);
    std::vector<TensorListing> out(catalog.records.size());
    if (stats) summarizeAll(catalog, out);
    for (size_t k = 0; k < catalog.records.size(); ++k) {
        TensorRecord& r = catalog.records[k];
        out[k].name = std::move(r.name);
        out[k].dtype = std::move(r.dtype);
        out[k].shape = std::move(r.shape);
        out[k].supported = r.supported();
        out[k].note = std::move(r.unsupported);
        if (r.subclass) out[k].subclass = r.subclass->summary();
    }
    return out;
}

}  // namespace irscope::io
