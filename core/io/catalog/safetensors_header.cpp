#include "core/io/catalog/safetensors_header.h"

#include <algorithm>
#include <array>
#include <optional>
#include <unordered_set>

#include <nlohmann/json.hpp>

#include "core/io/catalog/byte_reader.h"
#include "core/io/catalog/safetensors_fast_scan.h"

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

// A JSON scalar as the header reader sees it: its kind, its value when it is
// an integer or a string, and how an error message shows it. Only strings
// and floats carry text (a view of the parser's, valid during the event):
// numbers are spelled out only when a message needs them.
struct Scalar {
    enum Kind { Null, Bool, Int, Unsigned, Float, String } kind = Null;
    uint64_t value = 0;  // Int (its magnitude) and Unsigned; Bool: 0 or 1
    bool negative = false;
    std::string_view text;  // String's value, Float as written
    std::string shown() const {
        switch (kind) {
        case Null: return "null";
        case Bool: return value ? "true" : "false";
        case Int:
        case Unsigned: return std::string(negative ? 1 : 0, '-').append(std::to_string(value));
        case Float: return std::string(text);
        case String: break;
        }
        std::string quoted(1, '"');
        quoted.append(text);
        quoted += '"';
        return quoted;
    }
};

// What the header's tensors accumulate while their object is read.
struct EntryState {
    std::string name;
    bool hasDtype = false, dtypeBad = false;
    std::string dtype;
    enum Part { Missing, Array, Wrong };
    Part shape = Missing, offsets = Missing;
    std::vector<int64_t> dims;
    std::vector<uint64_t> offsetValues;
    size_t offsetCount = 0;
    std::string badDim, badOffset;  // the first bad entry, as shown
    bool absurdDim = false;
    uint64_t absurdValue = 0;
};

// Reads the header's JSON as a stream of events (nlohmann's SAX interface)
// straight into SafetensorsEntry rows: no DOM, and no ordered map whose
// inserts scan every key (that made 70,000 tensors take seconds). Refuses a
// name given twice in an object, which a JSON object would silently collapse.
// The first problem in header order is reported, a duplicate name before it.
class HeaderReader {
public:
    using Json = nlohmann::json;
    SafetensorsHeader out;

    void expect(size_t tensors) {
        topKeys_.reserve(tensors);
        out.tensors.reserve(tensors);
    }

    void finish() const {
        if (!duplicate_.empty()) throw FormatError("safetensors header names '" + duplicate_ + "' twice");
        if (!firstError_.empty()) throw FormatError(firstError_);
    }

    // ---- nlohmann::json_sax interface
    bool null() { return scalar({Scalar::Null, 0, false, {}}); }
    bool boolean(bool v) { return scalar({Scalar::Bool, v ? 1u : 0u, false, {}}); }
    bool number_integer(Json::number_integer_t v) {
        // The magnitude of INT64_MIN does not fit an int64: negate as unsigned.
        return scalar({Scalar::Int, v < 0 ? 0 - uint64_t(v) : uint64_t(v), v < 0, {}});
    }
    bool number_unsigned(Json::number_unsigned_t v) { return scalar({Scalar::Unsigned, v, false, {}}); }
    bool number_float(Json::number_float_t, const Json::string_t& s) { return scalar({Scalar::Float, 0, false, s}); }
    bool string(Json::string_t& v) { return scalar({Scalar::String, 0, false, v}); }
    bool binary(Json::binary_t&) { return scalar({Scalar::Float, 0, false, "binary"}); }
    bool start_object(std::size_t) { return open(true); }
    bool start_array(std::size_t) { return open(false); }
    bool end_object() { return close(); }
    bool end_array() { return close(); }
    bool key(Json::string_t& k) {
        if (frames_.empty()) return true;
        switch (frames_.back()) {
        case Frame::Top: noteKey(topKeys_, k); break;
        case Frame::Entry:
        case Frame::Metadata: noteInnerKey(k); break;
        default: break;
        }
        key_ = std::move(k);
        return true;
    }
    bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& e) {
        throw FormatError(std::string("safetensors header is not valid JSON: ") + e.what());
    }

private:
    enum class Frame { Top, Metadata, Entry, Shape, Offsets, Skip };

    void fail(std::string message) {
        if (firstError_.empty()) firstError_ = std::move(message);
    }
    void noteKey(std::unordered_set<std::string>& seen, const std::string& k) {
        if (!seen.insert(k).second && duplicate_.empty()) duplicate_ = k;
    }
    // An entry has three keys and metadata a handful: a linear scan beats a
    // hash set (whose nodes cost three allocations per tensor).
    void noteInnerKey(const std::string& k) {
        if (std::find(innerKeys_.begin(), innerKeys_.end(), k) != innerKeys_.end()) {
            if (duplicate_.empty()) duplicate_ = k;
            return;
        }
        innerKeys_.push_back(k);
    }
    std::string where() const { return "tensor '" + entry_.name + "'"; }

    bool open(bool object) {
        if (frames_.empty()) {
            frames_.push_back(object ? Frame::Top : Frame::Skip);
            if (!object) fail("safetensors header is not a JSON object");
            return true;
        }
        frames_.push_back(containerFrame(object));
        if (frames_.back() == Frame::Entry || frames_.back() == Frame::Metadata) innerKeys_.clear();
        return true;
    }

    // The frame a container value opens, given where it stands.
    Frame containerFrame(bool object) {
        const std::string shown = object ? "object" : "array";
        switch (frames_.back()) {
        case Frame::Top:
            if (key_ == "__metadata__") {
                if (object) return Frame::Metadata;
                fail("safetensors __metadata__ is not an object");
                return Frame::Skip;
            }
            entry_ = EntryState{};
            entry_.name = key_;
            if (object) return Frame::Entry;
            fail(where() + " is not described by an object");
            return Frame::Skip;
        case Frame::Entry:
            if (key_ == "shape")
                return object ? (entry_.shape = EntryState::Wrong, Frame::Skip)
                              : (entry_.shape = EntryState::Array, Frame::Shape);
            if (key_ == "data_offsets")
                return object ? (entry_.offsets = EntryState::Wrong, Frame::Skip)
                              : (entry_.offsets = EntryState::Array, Frame::Offsets);
            if (key_ == "dtype") entry_.dtypeBad = true;
            return Frame::Skip;
        case Frame::Metadata: fail("safetensors __metadata__ value of '" + key_ + "' is not a string"); break;
        case Frame::Shape:
            if (entry_.badDim.empty()) entry_.badDim = shown;
            break;
        case Frame::Offsets:
            ++entry_.offsetCount;
            if (entry_.badOffset.empty()) entry_.badOffset = shown;
            break;
        case Frame::Skip: break;
        }
        return Frame::Skip;
    }

    bool close() {
        if (frames_.empty()) return true;
        const Frame closed = frames_.back();
        frames_.pop_back();
        if (closed == Frame::Entry) finishEntry();
        return true;
    }

    bool scalar(const Scalar& v) {
        if (frames_.empty()) return true;
        const bool count = v.kind == Scalar::Unsigned || (v.kind == Scalar::Int && !v.negative);
        switch (frames_.back()) {
        case Frame::Top:
            if (key_ == "__metadata__")
                fail("safetensors __metadata__ is not an object");
            else
                fail("tensor '" + key_ + "' is not described by an object");
            break;
        case Frame::Entry: entryField(v); break;
        case Frame::Metadata:
            if (v.kind == Scalar::String)
                out.metadata.emplace_back(key_, std::string(v.text));
            else
                fail("safetensors __metadata__ value of '" + key_ + "' is not a string");
            break;
        case Frame::Shape:
            if (!count) {
                if (entry_.badDim.empty()) entry_.badDim = v.shown();
            } else if (v.value > static_cast<uint64_t>(INT64_MAX)) {
                if (!entry_.absurdDim) entry_.absurdValue = v.value;
                entry_.absurdDim = true;
            } else {
                entry_.dims.push_back(static_cast<int64_t>(v.value));
            }
            break;
        case Frame::Offsets:
            ++entry_.offsetCount;
            if (!count && entry_.badOffset.empty()) entry_.badOffset = v.shown();
            if (count) entry_.offsetValues.push_back(v.value);
            break;
        case Frame::Skip: break;
        }
        return true;
    }

    void entryField(const Scalar& v) {
        if (key_ == "dtype") {
            entry_.hasDtype = v.kind == Scalar::String;
            entry_.dtypeBad = !entry_.hasDtype;
            entry_.dtype = std::string(v.text);
        } else if (key_ == "shape") {
            entry_.shape = EntryState::Wrong;
        } else if (key_ == "data_offsets") {
            entry_.offsets = EntryState::Wrong;
        }
    }

    // The checks of one tensor, in the order the reference reader makes them.
    void finishEntry() {
        EntryState& e = entry_;
        if (!e.hasDtype || e.dtypeBad) return fail(where() + " has no dtype");
        if (e.shape != EntryState::Array) return fail(where() + " has no shape");
        if (e.offsets != EntryState::Array || e.offsetCount != 2) return fail(where() + " has no data_offsets pair");
        if (!findDType(e.dtype)) return fail(where() + " has unknown dtype '" + e.dtype + "'");
        if (!e.badDim.empty()) return fail(where() + " shape entry must be a non-negative integer, got " + e.badDim);
        if (e.absurdDim) return fail(where() + " has an absurd dimension " + std::to_string(e.absurdValue));
        if (!e.badOffset.empty())
            return fail(where() + " data offset must be a non-negative integer, got " + e.badOffset);
        out.tensors.push_back(
            {std::move(e.name), std::move(e.dtype), std::move(e.dims), e.offsetValues[0], e.offsetValues[1]});
    }

    std::vector<Frame> frames_;
    std::string key_;
    EntryState entry_;
    std::unordered_set<std::string> topKeys_;
    std::vector<std::string> innerKeys_;
    std::string duplicate_, firstError_;
};

// Bytes a tensor needs (overflow-checked); `where` names it in errors.
uint64_t byteSize(const SafetensorsEntry& e, const auto& where) {
    uint64_t count = 1;
    for (int64_t d : e.shape)
        if (__builtin_mul_overflow(count, static_cast<uint64_t>(d), &count))
            throw FormatError(where() + " has an element count that overflows");
    uint64_t bits;
    if (__builtin_mul_overflow(count, static_cast<uint64_t>(safetensorsDTypeBits(e.dtype)), &bits))
        throw FormatError(where() + " has a byte size that overflows");
    if (bits % 8 != 0) throw FormatError(where() + " does not fill a whole number of bytes");
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
        const auto where = [e] { return "tensor '" + e->name + "'"; };
        if (e->begin != expected || e->end < e->begin)
            throw FormatError(where() + " has data offsets [" + std::to_string(e->begin) + ", " +
                              std::to_string(e->end) + "], expected to start at " + std::to_string(expected) +
                              " (gap or overlap)");
        const uint64_t bytes = byteSize(*e, where);
        if (bytes != e->end - e->begin)
            throw FormatError(where() + " needs " + std::to_string(bytes) + " bytes but its data offsets span " +
                              std::to_string(e->end - e->begin));
        expected = e->end;
    }
    if (expected != dataSize)
        throw FormatError("safetensors data is " + std::to_string(dataSize) + " bytes but the tensors cover " +
                          std::to_string(expected) + (expected > dataSize ? " (truncated)" : " (trailing bytes)"));
}

}  // namespace

SafetensorsHeader readHeaderJson(std::string_view text) {
    HeaderReader reader;
    reader.expect(text.size() / 64);  // a tensor's entry is ~70 bytes and up
    nlohmann::json::sax_parse(text.begin(), text.end(), &reader);
    reader.finish();
    return std::move(reader.out);
}

SafetensorsHeader parseSafetensorsHeader(std::string_view file) {
    const std::string_view text = headerText(file);
    std::optional<SafetensorsHeader> canonical = scanCanonicalHeader(text);
    SafetensorsHeader out = canonical ? std::move(*canonical) : readHeaderJson(text);
    out.dataStart = 8 + text.size();
    checkTiling(out.tensors, file.size() - out.dataStart);
    return out;
}

}  // namespace irscope::io
