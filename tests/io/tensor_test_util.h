#pragma once
// Helpers shared by the tensor-file suites: expected values come from
// tests/data/tensors/expected.json, written by PyTorch (make_tensor_fixtures.py).
#include <fstream>
#include <sstream>
#include <string>

// Torch before Qt: Qt's `slots` macro breaks ATen's headers.
#include <ATen/ATen.h>
#include <nlohmann/json.hpp>

#include <QtTest/QtTest>

#include "core/io/tensor_dtype.h"
#include "core/io/tensor_map.h"

namespace irscope::io::test {

// (Appended rather than std::string(...) + "/tensors/" + name: gcc 12 at -O3
// sees that expression's inlined memcpy as out of bounds, a false positive,
// once <string> comes in through the precompiled ATen.h.)
inline std::string fixture(const std::string& name) {
    std::string path = std::string(IRSCOPE_TEST_DATA) + "/tensors/";
    path += name;
    return path;
}

inline const nlohmann::ordered_json& expectedJson() {
    static const nlohmann::ordered_json j = [] {
        std::ifstream in(fixture("expected.json"));
        return nlohmann::ordered_json::parse(in);
    }();
    return j;
}

// Raw little-endian bytes of a tensor in row-major order, as hex.
inline std::string tensorHex(const at::Tensor& t) {
    at::Tensor c = t.contiguous();
    const auto* p = static_cast<const uint8_t*>(c.data_ptr());
    static const char* digits = "0123456789abcdef";
    std::string out;
    for (size_t k = 0; k < c.nbytes(); ++k) {
        out.push_back(digits[p[k] >> 4]);
        out.push_back(digits[p[k] & 15]);
    }
    return out;
}

inline std::string readBytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

inline void writeBytes(const std::string& path, const std::string& bytes) {
    // A new file rather than a truncated one: ext4 makes a truncate wait for
    // the previous contents' writeback, which made loops of writes crawl.
    std::remove(path.c_str());
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// Compares every tensor of a map with what PyTorch recorded for `file`, in order.
inline void compareWithExpected(const TensorMap& map, const std::string& file) {
    const auto& exp = expectedJson().at(file).at("tensors");
    QCOMPARE(map.size(), exp.size());
    size_t k = 0;
    for (auto it = exp.begin(); it != exp.end(); ++it, ++k) {
        const std::string& name = it.key();
        const NamedTensor& e = map.entries()[k];
        QCOMPARE(QString::fromStdString(e.name), QString::fromStdString(name));
        QCOMPARE(QString::fromStdString(scalarTypeName(e.tensor.scalar_type())),
                 QString::fromStdString(it.value().at("dtype").get<std::string>()));
        QCOMPARE(e.tensor.sizes().vec(), it.value().at("shape").get<std::vector<int64_t>>());
        QCOMPARE(QString::fromStdString(tensorHex(e.tensor)),
                 QString::fromStdString(it.value().at("hex").get<std::string>()));
    }
}

}  // namespace irscope::io::test
