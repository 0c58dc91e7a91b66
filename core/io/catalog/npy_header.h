#pragma once
// The header of a NumPy .npy file: magic, version, and the Python dict
// literal {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }.
// No libtorch: fuzzable alone.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace irscope::io {

struct NpyHeader {
    std::string descr;  // "<f4", "|b1"
    bool fortranOrder = false;
    std::vector<int64_t> shape;
    uint64_t dataOffset = 0;  // where the array's bytes start
};

struct NpyDType {
    std::string torchName;  // "float32"; empty when torch has no such dtype
    int elementSize = 0;
    bool bigEndian = false;
};

bool looksLikeNpy(std::string_view file);
// Throws FormatError.
NpyHeader parseNpyHeader(std::string_view file);
// Throws FormatError for descrs irscope cannot hold (objects, structs, strings, uint16...).
NpyDType npyDType(const std::string& descr);
// "float32" -> "<f4"; "" when NumPy has no such dtype (bfloat16).
std::string npyDescrFor(std::string_view torchName);

}  // namespace irscope::io
