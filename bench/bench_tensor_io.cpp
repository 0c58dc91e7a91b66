// Timed tensor-file reads, for bench/run_tensor_io.sh (which compares them
// with Python's torch.load of the same tensors). Prints one line per mode:
// "<mode> <best ms> <tensors> <bytes> <first-run ms>" (the first run also pays
// for fresh memory from the kernel; later ones reuse the allocator's pages).
//
//   bench_tensor_io list FILE   open + list names/dtypes/shapes (memory-mapped, reads no data)
//   bench_tensor_io read FILE   read everything into owned memory (what torch.load does)
//   bench_tensor_io touch FILE  memory-mapped, then read every byte of every tensor
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>

#include <ATen/ATen.h>

#include "core/io/tensor_file.h"

using namespace irscope::io;

namespace {

double msSince(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 3) {
        std::fprintf(stderr, "usage: bench_tensor_io list|read|touch FILE\n");
        return 2;
    }
    const std::string mode = argv[1], path = argv[2];
    double best = 1e300, first = 0;
    size_t tensors = 0, bytes = 0;
    const int repeats = mode == "list" ? 20 : 3;
    try {
        for (int r = 0; r < repeats; ++r) {
            auto start = std::chrono::steady_clock::now();
            ReadOptions options;
            options.copy = mode == "read";
            TensorMap map = readTensorFile(path, options);
            size_t listed = 0;
            volatile uint64_t sink = 0;
            for (const auto& e : map) {
                listed +=
                    e.name.size() + static_cast<size_t>(e.tensor.dim()) + static_cast<size_t>(e.tensor.scalar_type());
                if (mode == "touch") {
                    // One 8-byte load per 4 KiB page plus the tail: every page is read from the mapping.
                    const auto* p = static_cast<const uint8_t*>(e.tensor.data_ptr());
                    size_t n = e.tensor.nbytes();
                    uint64_t acc = 0;
                    for (size_t k = 0; k + 8 <= n; k += 4096) {
                        uint64_t v;
                        std::memcpy(&v, p + k, 8);
                        acc += v;
                    }
                    sink = sink + acc;
                }
            }
            const double ms = msSince(start);
            if (r == 0) first = ms;
            best = std::min(best, ms);
            tensors = map.size();
            bytes = 0;
            for (const auto& e : map) bytes += e.tensor.nbytes();
            (void)listed;
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "%s\n", e.what());
        return 2;
    }
    std::printf("%s %.3f %zu %zu %.3f\n", mode.c_str(), best, tensors, bytes, first);
    return 0;
}
