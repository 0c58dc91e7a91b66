#include "core/io/catalog/safetensors_fast_scan.h"

#include <algorithm>
#include <unordered_set>

namespace irscope::io {

namespace {

// A cursor over the header text. Every method returns false to decline.
class Scanner {
public:
    explicit Scanner(std::string_view text) : p_(text.data()), end_(text.data() + text.size()) {}

    void skipSpace() {
        while (p_ < end_ && (*p_ == ' ' || *p_ == '\n' || *p_ == '\r' || *p_ == '\t')) ++p_;
    }
    bool atEnd() {
        skipSpace();
        return p_ == end_;
    }
    bool take(char c) {
        skipSpace();
        if (p_ == end_ || *p_ != c) return false;
        ++p_;
        return true;
    }
    bool peek(char c) {
        skipSpace();
        return p_ < end_ && *p_ == c;
    }
    // A string of printable ASCII without escapes.
    bool string(std::string_view& out) {
        if (!take('"')) return false;
        const char* start = p_;
        while (p_ < end_ && *p_ != '"') {
            const auto c = static_cast<unsigned char>(*p_);
            if (c < 0x20 || c >= 0x80 || c == '\\') return false;
            ++p_;
        }
        if (p_ == end_) return false;
        out = std::string_view(start, static_cast<size_t>(p_ - start));
        ++p_;
        return true;
    }
    // A non-negative integer of at most 18 digits, no leading zeros: always
    // exact in both int64 and uint64, as the JSON reader would read it.
    bool integer(uint64_t& out) {
        skipSpace();
        const char* start = p_;
        out = 0;
        while (p_ < end_ && *p_ >= '0' && *p_ <= '9') out = out * 10 + static_cast<uint64_t>(*p_++ - '0');
        const auto digits = p_ - start;
        if (digits == 0 || digits > 18 || (digits > 1 && *start == '0')) return false;
        // "1.5", "1e3" are numbers of another kind: decline.
        return !(p_ < end_ && (*p_ == '.' || *p_ == 'e' || *p_ == 'E'));
    }
    template <class Each>
    bool integers(Each&& each) {
        if (!take('[')) return false;
        if (take(']')) return true;
        do {
            uint64_t v;
            if (!integer(v)) return false;
            each(v);
        } while (take(','));
        return take(']');
    }

private:
    const char* p_;
    const char* end_;
};

bool scanEntry(Scanner& s, SafetensorsEntry& e) {
    if (!s.take('{')) return false;
    bool dtype = false, shape = false, offsets = false;
    do {
        std::string_view key;
        if (!s.string(key) || !s.take(':')) return false;
        if (key == "dtype" && !dtype) {
            std::string_view value;
            if (!s.string(value) || safetensorsDTypeBits(value) == 0) return false;
            e.dtype = value;
            dtype = true;
        } else if (key == "shape" && !shape) {
            if (!s.integers([&](uint64_t v) { e.shape.push_back(static_cast<int64_t>(v)); })) return false;
            shape = true;
        } else if (key == "data_offsets" && !offsets) {
            uint64_t v[2];
            size_t n = 0;
            if (!s.integers([&](uint64_t x) {
                    if (n < 2) v[n] = x;
                    ++n;
                }) ||
                n != 2)
                return false;
            e.begin = v[0];
            e.end = v[1];
            offsets = true;
        } else {
            return false;  // another key, or one given twice
        }
    } while (s.take(','));
    return s.take('}') && dtype && shape && offsets;
}

bool scanMetadata(Scanner& s, SafetensorsHeader& out) {
    if (!s.take('{')) return false;
    if (s.take('}')) return true;
    do {
        std::string_view key, value;
        if (!s.string(key) || !s.take(':') || !s.string(value)) return false;
        for (const auto& kv : out.metadata)
            if (kv.first == key) return false;
        out.metadata.emplace_back(std::string(key), std::string(value));
    } while (s.take(','));
    return s.take('}');
}

}  // namespace

std::optional<SafetensorsHeader> scanCanonicalHeader(std::string_view text) {
    Scanner s(text);
    SafetensorsHeader out;
    out.tensors.reserve(text.size() / 64);  // a tensor's entry is ~70 bytes and up
    bool metadata = false;
    if (!s.take('{')) return std::nullopt;
    if (!s.take('}')) {
        do {
            std::string_view name;
            if (!s.string(name) || !s.take(':')) return std::nullopt;
            if (name == "__metadata__") {
                if (metadata || !scanMetadata(s, out)) return std::nullopt;
                metadata = true;
                continue;
            }
            SafetensorsEntry e;
            e.name = name;
            if (!scanEntry(s, e)) return std::nullopt;
            out.tensors.push_back(std::move(e));
        } while (s.take(','));
        if (!s.take('}')) return std::nullopt;
    }
    if (!s.atEnd()) return std::nullopt;
    // A name given twice: the JSON reader says which.
    std::unordered_set<std::string_view> names;
    names.reserve(out.tensors.size());
    for (const auto& e : out.tensors)
        if (!names.insert(e.name).second) return std::nullopt;
    return out;
}

}  // namespace irscope::io
