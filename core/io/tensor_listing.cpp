#include "core/io/tensor_listing.h"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <thread>

#include <ATen/ATen.h>

#include "core/io/tensor_dtype.h"
#include "core/io/tensor_file.h"

namespace irscope::io {

namespace {

// The statistics of every floating tensor, in parallel over the tensors on
// every core (each worker takes the next tensor; the big ones spread).
// irscope:threads
void summarizeAll(const std::string& path, const TensorMap& map, std::vector<TensorListing>& out) {
    std::atomic<size_t> next{0};
    std::mutex failure;
    std::string error;
    auto work = [&] {
        for (size_t k = next++; k < map.size(); k = next++) {
            const at::Tensor& t = map.entries()[k].tensor;
            if (!at::isFloatingType(t.scalar_type())) continue;
            try {
                out[k].stats = summarize(t);
            } catch (const c10::Error& err) {
                std::lock_guard lock(failure);
                if (error.empty()) error = "tensor '" + map.entries()[k].name + "': " + err.what_without_backtrace();
            }
        }
    };
    const size_t workers = std::min<size_t>(std::max(1u, std::thread::hardware_concurrency()), map.size());
    std::vector<std::thread> threads;
    for (size_t w = 1; w < workers; ++w) threads.emplace_back(work);
    work();
    for (auto& t : threads) t.join();
    if (!error.empty()) throw TensorFileError(path, error);
}

}  // namespace

std::vector<TensorListing> listTensorFile(const std::string& path, const ReadOptions& options, bool stats) {
    TensorMap map = readTensorFile(path, options);
    std::vector<TensorListing> out;
    out.reserve(map.size() + map.skipped().size());
    for (const auto& e : map) {
        TensorListing s;
        s.name = e.name;
        s.dtype = scalarTypeName(e.tensor.scalar_type());
        s.shape = e.tensor.sizes().vec();
        out.push_back(std::move(s));
    }
    if (stats) summarizeAll(path, map, out);
    for (const auto& k : map.skipped()) {
        TensorListing s;
        s.name = k.name;
        s.dtype = k.dtype;
        s.shape = k.shape;
        s.supported = false;
        s.note = k.reason;
        out.push_back(std::move(s));
    }
    return out;
}

}  // namespace irscope::io
