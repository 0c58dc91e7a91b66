#include "core/io/catalog/npy_header.h"

#include <array>
#include <cctype>
#include <charconv>

#include "core/io/catalog/byte_reader.h"

namespace irscope::io {

namespace {

constexpr std::string_view kMagic("\x93NUMPY", 6);

// A tiny reader for the dict literal NumPy writes. Accepts only what NumPy
// writes: string keys, string / bool / int-tuple values.
class DictLiteral {
public:
    explicit DictLiteral(std::string_view text) : s_(text) {}

    NpyHeader parse() {
        NpyHeader h;
        bool haveDescr = false, haveOrder = false, haveShape = false;
        expect('{');
        while (true) {
            skipSpace();
            if (peek() == '}') {
                ++pos_;
                break;
            }
            std::string key = readString();
            expect(':');
            skipSpace();
            if (key == "descr") {
                if (peek() != '\'' && peek() != '"')
                    throw FormatError("npy descr is not a simple dtype string (structured arrays are not supported)");
                h.descr = readString();
                haveDescr = true;
            } else if (key == "fortran_order") {
                h.fortranOrder = readBool();
                haveOrder = true;
            } else if (key == "shape") {
                h.shape = readShape();
                haveShape = true;
            } else {
                throw FormatError("npy header has unexpected key '" + key + "'");
            }
            skipSpace();
            if (peek() == ',') ++pos_;
        }
        if (!haveDescr || !haveOrder || !haveShape) throw FormatError("npy header lacks descr, fortran_order or shape");
        return h;
    }

private:
    std::string_view s_;
    size_t pos_ = 0;

    char peek() const { return pos_ < s_.size() ? s_[pos_] : '\0'; }
    void skipSpace() {
        while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
    }
    void expect(char c) {
        skipSpace();
        if (peek() != c) throw FormatError(std::string("npy header: expected '") + c + "'");
        ++pos_;
    }
    std::string readString() {
        skipSpace();
        char q = peek();
        if (q != '\'' && q != '"') throw FormatError("npy header: expected a string");
        size_t end = s_.find(q, pos_ + 1);
        if (end == std::string_view::npos) throw FormatError("npy header: unterminated string");
        std::string out(s_.substr(pos_ + 1, end - pos_ - 1));
        pos_ = end + 1;
        return out;
    }
    bool readBool() {
        if (s_.substr(pos_, 4) == "True") {
            pos_ += 4;
            return true;
        }
        if (s_.substr(pos_, 5) == "False") {
            pos_ += 5;
            return false;
        }
        throw FormatError("npy header: fortran_order is not True or False");
    }
    std::vector<int64_t> readShape() {
        expect('(');
        std::vector<int64_t> shape;
        while (true) {
            skipSpace();
            if (peek() == ')') {
                ++pos_;
                break;
            }
            int64_t v = 0;
            const char* begin = s_.data() + pos_;
            auto [end, ec] = std::from_chars(begin, s_.data() + s_.size(), v);
            if (ec != std::errc() || v < 0) throw FormatError("npy header: shape entry is not a non-negative integer");
            pos_ += static_cast<size_t>(end - begin);
            if (s_.substr(pos_, 1) == "L") ++pos_;  // Python 2 long
            shape.push_back(v);
            if (shape.size() > 64) throw FormatError("npy header: more than 64 dimensions");
            skipSpace();
            if (peek() == ',')
                ++pos_;
            else if (peek() != ')')
                throw FormatError("npy header: malformed shape");
        }
        return shape;
    }
};

struct DescrRow {
    char kind;
    int size;
    const char* torchName;
};

constexpr std::array<DescrRow, 14> kDescrs{{
    {'f', 2, "float16"},
    {'f', 4, "float32"},
    {'f', 8, "float64"},
    {'i', 1, "int8"},
    {'i', 2, "int16"},
    {'i', 4, "int32"},
    {'i', 8, "int64"},
    {'u', 1, "uint8"},
    {'b', 1, "bool"},
    {'c', 8, "complex64"},
    {'c', 16, "complex128"},
    {'u', 2, ""},
    {'u', 4, ""},
    {'u', 8, ""},
}};

}  // namespace

bool looksLikeNpy(std::string_view file) { return file.substr(0, 6) == kMagic; }

NpyHeader parseNpyHeader(std::string_view file) {
    if (!looksLikeNpy(file)) throw FormatError("not an npy file (no \\x93NUMPY magic)");
    uint8_t major = readLE<uint8_t>(file, 6, "npy version");
    uint64_t length, start;
    if (major == 1) {
        length = readLE<uint16_t>(file, 8, "npy header length");
        start = 10;
    } else if (major == 2 || major == 3) {
        length = readLE<uint32_t>(file, 8, "npy header length");
        start = 12;
    } else {
        throw FormatError("unsupported npy version " + std::to_string(major));
    }
    if (!fitsIn(start, length, file.size())) throw FormatError("truncated: npy header runs past the end of the file");
    NpyHeader h = DictLiteral(file.substr(start, length)).parse();
    h.dataOffset = start + length;
    return h;
}

NpyDType npyDType(const std::string& descr) {
    if (descr.size() >= 2 && descr[1] == 'O') throw FormatError("npy object arrays need pickle and are refused");
    if (descr.size() < 3) throw FormatError("npy dtype '" + descr + "' is not supported");
    char order = descr[0];
    char kind = descr[1];
    int size = 0;
    auto [end, ec] = std::from_chars(descr.data() + 2, descr.data() + descr.size(), size);
    if (ec != std::errc() || end != descr.data() + descr.size() ||
        (order != '<' && order != '>' && order != '|' && order != '='))
        throw FormatError("npy dtype '" + descr + "' is not supported");
    for (const auto& row : kDescrs) {
        if (row.kind == kind && row.size == size) {
            if (!*row.torchName)
                throw FormatError("npy dtype '" + descr + "' (unsigned " + std::to_string(size * 8) +
                                  "-bit) is not supported by libtorch 1.13");
            return {row.torchName, size, order == '>' && size > 1};
        }
    }
    throw FormatError("npy dtype '" + descr + "' is not supported");
}

std::string npyDescrFor(std::string_view torchName) {
    for (const auto& row : kDescrs) {
        if (*row.torchName && torchName == row.torchName)
            return std::string(row.size == 1 ? "|" : "<") + row.kind + std::to_string(row.size);
    }
    return {};
}

}  // namespace irscope::io
