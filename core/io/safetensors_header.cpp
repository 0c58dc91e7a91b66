#include "core/io/safetensors_header.h"

#include <algorithm>
#include <array>
#include <set>

#include <nlohmann/json.hpp>

#include "core/io/byte_reader.h"

namespace irscope::io {

namespace {

struct STDType {
    const char* name;
    int bits;
    const char* torchName;
};

constexpr std::array<STDType, 22> kDTypes{{
    {"BOOL", 8, "bool"},
    {"U8", 8, "uint8"},
    {"I8", 8, "int8"},
    {"I16", 16, "int16"},
    {"U16", 16, "uint16"},
    {"F16", 16, "float16"},
    {"BF16", 16, "bfloat16"},
    {"I32", 32, "int32"},
    {"U32", 32, "uint32"},
    {"F32", 32, "float32"},
    {"F64", 64, "float64"},
    {"I64", 64, "int64"},
    {"U64", 64, "uint64"},
    {"C64", 64, "complex64"},
    {"F8_E5M2", 8, "float8_e5m2"},
    {"F8_E4M3", 8, "float8_e4m3fn"},
    {"F8_E8M0", 8, "float8_e8m0fnu"},
    {"F8_E4M3FNUZ", 8, "float8_e4m3fnuz"},
    {"F8_E5M2FNUZ", 8, "float8_e5m2fnuz"},
    {"F4", 4, "float4_e2m1fn_x2"},
    {"F6_E2M3", 6, nullptr},
    {"F6_E3M2", 6, nullptr},
}};

const STDType* findDType(std::string_view name) {
    for (const auto& d : kDTypes)
        if (name == d.name) return &d;
    return nullptr;
}

using Json = nlohmann::ordered_json;

uint64_t nonNegativeInt(const Json& v, const std::string& what) {
    if (v.is_number_unsigned()) return v.get<uint64_t>();
    if (v.is_number_integer() && v.get<int64_t>() >= 0) return static_cast<uint64_t>(v.get<int64_t>());
    // dump() recurses: only print scalars, a hostile header may nest deeply.
    throw FormatError(what + " must be a non-negative integer, got " +
                      (v.is_primitive() ? v.dump() : std::string(v.type_name())));
}

}  // namespace

int safetensorsDTypeBits(std::string_view dtype) {
    const STDType* d = findDType(dtype);
    return d ? d->bits : 0;
}

std::string safetensorsDTypeTorchName(std::string_view dtype) {
    const STDType* d = findDType(dtype);
    return d && d->torchName ? d->torchName : std::string(dtype);
}

std::string safetensorsDTypeFromTorchName(std::string_view name) {
    for (const auto& d : kDTypes)
        if (d.torchName && name == d.torchName) return d.name;
    return {};
}

namespace {

// The JSON text after the 8-byte little-endian size, checked against the
// size limit and the file's length.
std::string_view headerText(std::string_view file) {
    if (file.size() < 8) throw FormatError("truncated: too short for a safetensors header size");
    const uint64_t n = readLE<uint64_t>(file, 0, "header size");
    if (n > kSafetensorsMaxHeader)
        throw FormatError("safetensors header size " + std::to_string(n) + " exceeds the limit of " +
                          std::to_string(kSafetensorsMaxHeader) + " bytes");
    if (n > file.size() - 8)
        throw FormatError("truncated: safetensors header claims " + std::to_string(n) + " bytes, the file has " +
                          std::to_string(file.size() - 8) + " after the size");
    std::string_view text = file.substr(8, n);
    if (text.empty() || text.front() != '{') throw FormatError("safetensors header does not start with '{'");
    return text;
}

// Parses the header's JSON object, refusing a name given twice in any object,
// which a JSON object would silently collapse (the last one winning).
Json parseWithoutDuplicateKeys(std::string_view text) {
    std::vector<std::set<std::string>> open;  // keys per open object
    std::string duplicate;
    auto callback = [&](int, Json::parse_event_t event, Json& parsed) {
        switch (event) {
        case Json::parse_event_t::object_start: open.emplace_back(); break;
        case Json::parse_event_t::object_end:
            if (!open.empty()) open.pop_back();
            break;
        case Json::parse_event_t::key:
            if (!open.empty() && !open.back().insert(parsed.get<std::string>()).second && duplicate.empty())
                duplicate = parsed.get<std::string>();
            break;
        default: break;
        }
        return true;
    };
    Json header;
    try {
        header = Json::parse(text.begin(), text.end(), callback);
    } catch (const Json::exception& e) {
        throw FormatError(std::string("safetensors header is not valid JSON: ") + e.what());
    }
    if (!duplicate.empty()) throw FormatError("safetensors header names '" + duplicate + "' twice");
    if (!header.is_object()) throw FormatError("safetensors header is not a JSON object");
    return header;
}

void readMetadata(const Json& v, std::vector<std::pair<std::string, std::string>>& metadata) {
    if (!v.is_object()) throw FormatError("safetensors __metadata__ is not an object");
    for (auto m = v.begin(); m != v.end(); ++m) {
        if (!m.value().is_string())
            throw FormatError("safetensors __metadata__ value of '" + m.key() + "' is not a string");
        metadata.emplace_back(m.key(), m.value().get<std::string>());
    }
}

// One tensor's description: dtype, shape and data offsets, each checked.
SafetensorsEntry readEntry(const std::string& name, const Json& v) {
    const std::string where = "tensor '" + name + "'";
    if (!v.is_object()) throw FormatError(where + " is not described by an object");
    if (!v.contains("dtype") || !v["dtype"].is_string()) throw FormatError(where + " has no dtype");
    if (!v.contains("shape") || !v["shape"].is_array()) throw FormatError(where + " has no shape");
    if (!v.contains("data_offsets") || !v["data_offsets"].is_array() || v["data_offsets"].size() != 2)
        throw FormatError(where + " has no data_offsets pair");
    SafetensorsEntry e;
    e.name = name;
    e.dtype = v["dtype"].get<std::string>();
    if (!findDType(e.dtype)) throw FormatError(where + " has unknown dtype '" + e.dtype + "'");
    for (const auto& dim : v["shape"]) {
        uint64_t d = nonNegativeInt(dim, where + " shape entry");
        if (d > static_cast<uint64_t>(INT64_MAX))
            throw FormatError(where + " has an absurd dimension " + std::to_string(d));
        e.shape.push_back(static_cast<int64_t>(d));
    }
    e.begin = nonNegativeInt(v["data_offsets"][0], where + " data offset");
    e.end = nonNegativeInt(v["data_offsets"][1], where + " data offset");
    return e;
}

// Bytes a tensor needs (overflow-checked); `where` names it in errors.
uint64_t byteSize(const SafetensorsEntry& e, const std::string& where) {
    uint64_t count = 1;
    for (int64_t d : e.shape)
        if (__builtin_mul_overflow(count, static_cast<uint64_t>(d), &count))
            throw FormatError(where + " has an element count that overflows");
    uint64_t bits;
    if (__builtin_mul_overflow(count, static_cast<uint64_t>(safetensorsDTypeBits(e.dtype)), &bits))
        throw FormatError(where + " has a byte size that overflows");
    if (bits % 8 != 0) throw FormatError(where + " does not fill a whole number of bytes");
    return bits / 8;
}

// The data must be tiled exactly: sorted by offset, each tensor starts
// where the previous ended, its span is exactly its size, and the last
// one ends at the end of the file.
void checkTiling(const std::vector<SafetensorsEntry>& tensors, uint64_t dataSize) {
    std::vector<const SafetensorsEntry*> sorted;
    for (const auto& e : tensors) sorted.push_back(&e);
    std::sort(sorted.begin(), sorted.end(), [](const auto* a, const auto* b) {
        return a->begin != b->begin ? a->begin < b->begin : a->end < b->end;
    });
    uint64_t expected = 0;
    for (const auto* e : sorted) {
        const std::string where = "tensor '" + e->name + "'";
        if (e->begin != expected || e->end < e->begin)
            throw FormatError(where + " has data offsets [" + std::to_string(e->begin) + ", " + std::to_string(e->end) +
                              "], expected to start at " + std::to_string(expected) + " (gap or overlap)");
        const uint64_t bytes = byteSize(*e, where);
        if (bytes != e->end - e->begin)
            throw FormatError(where + " needs " + std::to_string(bytes) + " bytes but its data offsets span " +
                              std::to_string(e->end - e->begin));
        expected = e->end;
    }
    if (expected != dataSize)
        throw FormatError("safetensors data is " + std::to_string(dataSize) + " bytes but the tensors cover " +
                          std::to_string(expected) + (expected > dataSize ? " (truncated)" : " (trailing bytes)"));
}

}  // namespace

SafetensorsHeader parseSafetensorsHeader(std::string_view file) {
    const std::string_view text = headerText(file);
    const Json header = parseWithoutDuplicateKeys(text);
    SafetensorsHeader out;
    out.dataStart = 8 + text.size();
    for (auto it = header.begin(); it != header.end(); ++it) {
        if (it.key() == "__metadata__")
            readMetadata(it.value(), out.metadata);
        else
            out.tensors.push_back(readEntry(it.key(), it.value()));
    }
    checkTiling(out.tensors, file.size() - out.dataStart);
    return out;
}

}  // namespace irscope::io
