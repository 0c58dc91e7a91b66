// The zip reader over arbitrary bytes, then what readTorchSaveZip does with
// a parsed archive short of libtorch: find data.pkl, check its CRC, unpickle
// it, look up each storage record.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/io/catalog/crc32.h"
#include "core/io/catalog/pickle_tree.h"
#include "core/io/catalog/tensor_file_error.h"
#include "core/io/catalog/unpickler.h"
#include "core/io/catalog/zip_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace irscope::io;
    std::string_view bytes(reinterpret_cast<const char*>(data), size);
    try {
        ZipReader zip(bytes);
        volatile uint32_t sink = 0;
        for (const auto& r : zip.records()) {
            try {
                std::string_view d = zip.data(r);
                sink = sink + crc32(d.data(), d.size());
            } catch (const FormatError&) {}
        }
        const ZipRecord* pkl = zip.find(zip.topFolder() + "/data.pkl");
        if (!pkl) return 0;
        UnpickleResult p = unpickle(zip.data(*pkl));
        for (const auto& ref : collectTensors(p.arena, p.root, "", "x")) {
            const StorageDesc& s = p.arena.at(p.arena.at(ref.tensor).tensor().storage).storage();
            if (const ZipRecord* rec = zip.find(zip.topFolder() + "/data/" + s.key)) (void)zip.data(*rec);
        }
    } catch (const FormatError&) {}
    return 0;
}
