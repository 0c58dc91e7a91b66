#include "core/exec/values/value_text.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <stdexcept>

namespace irscope::exec {

namespace {

// A message from its parts, appended one by one. (gcc 12 sees the inlined
// copies of a `std::string("...") + c + "..."` chain as out of bounds, a
// false positive that the precompiled ATen.h brings out under -O1 and up.)
template <typename... Parts>
std::string joined(const Parts&... parts) {
    std::string s;
    (s += ... += parts);
    return s;
}

// Recursive descent over the text. The shape is fixed by the first path down
// to a number (or an empty list); every later list must agree with it.
class NestedListParser {
public:
    explicit NestedListParser(const std::string& text) : text_(text) {}

    ParsedValues parse() {
        value(0);
        skipSpace();
        if (pos_ != text_.size()) fail(joined("unexpected '", text_[pos_], "' after the value"));
        for (auto& d : shape_)
            if (d < 0) d = 0;
        out_.shape = shape_;
        if (!out_.allIntegers) out_.integers.clear();
        return out_;
    }

private:
    [[noreturn]] void fail(const std::string& why) const {
        throw std::invalid_argument("at character " + std::to_string(pos_ + 1) + ": " + why);
    }
    void skipSpace() {
        while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
    }
    bool at(char c) const { return pos_ < text_.size() && text_[pos_] == c; }

    void value(size_t depth) {
        skipSpace();
        if (at('[') || at('('))
            list(depth);
        else
            number(depth);
    }

    void list(size_t depth) {
        const char close = text_[pos_] == '[' ? ']' : ')';
        ++pos_;
        int64_t n = 0;
        skipSpace();
        if (at(close))
            ++pos_;
        else
            n = elements(depth, close);
        if (n == 0 && !shapeFixed_) {
            shapeFixed_ = true;
            shape_.resize(depth + 1, -1);
        }
        if (depth >= shape_.size()) fail("ragged list: a list where a number was expected");
        if (shape_[depth] < 0)
            shape_[depth] = n;
        else if (shape_[depth] != n)
            fail("ragged list: " + std::to_string(n) + " elements where " + std::to_string(shape_[depth]) +
                 " were expected");
    }

    // The elements of a non-empty list up to and including `close`; a trailing comma is allowed.
    int64_t elements(size_t depth, char close) {
        int64_t n = 0;
        while (true) {
            value(depth + 1);
            ++n;
            skipSpace();
            if (at(',')) {
                ++pos_;
                skipSpace();
                if (at(close)) {
                    ++pos_;
                    return n;
                }
                continue;
            }
            if (at(close)) {
                ++pos_;
                return n;
            }
            fail(pos_ < text_.size() ? joined("expected ',' or '", close, "', found '", text_[pos_], "'")
                                     : joined("missing '", close, "'"));
        }
    }

    void number(size_t depth) {
        if (!shapeFixed_) {
            shapeFixed_ = true;
            shape_.resize(depth, -1);
        }
        if (depth != shape_.size()) fail("ragged list: a number where a list was expected");
        const size_t start = pos_;
        while (pos_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '.' ||
                                       text_[pos_] == '-' || text_[pos_] == '+' || text_[pos_] == '_'))
            ++pos_;
        const std::string token = text_.substr(start, pos_ - start);
        if (token.empty()) {
            pos_ = start;
            fail(start < text_.size() ? std::string("unexpected '") + text_[start] + "'" : "a value is missing");
        }
        if (!word(token) && !numeral(token)) {
            pos_ = start;
            fail("'" + token + "' is not a number");
        }
    }

    // true / false / nan / inf in any case.
    bool word(const std::string& token) {
        std::string low = token;
        std::transform(low.begin(), low.end(), low.begin(), [](unsigned char c) { return std::tolower(c); });
        const double inf = std::numeric_limits<double>::infinity();
        if (low == "true" || low == "false") return push(low == "true" ? 1 : 0, true, low == "true" ? 1 : 0);
        if (low == "nan" || low == "+nan" || low == "-nan") return push(std::numeric_limits<double>::quiet_NaN());
        if (low == "inf" || low == "+inf" || low == "infinity") return push(inf);
        if (low == "-inf" || low == "-infinity") return push(-inf);
        return false;
    }

    // An integer (kept exact) or a floating-point number; '_' separators are allowed.
    bool numeral(const std::string& token) {
        std::string clean;
        for (char c : token)
            if (c != '_') clean += c;
        if (clean.empty()) return false;
        char* end = nullptr;
        errno = 0;
        const long long integer = std::strtoll(clean.c_str(), &end, 10);
        if (end && *end == 0 && errno == 0) return push(static_cast<double>(integer), true, integer);
        end = nullptr;
        const double real = std::strtod(clean.c_str(), &end);
        return end && *end == 0 && push(real);
    }

    bool push(double value, bool isInteger = false, int64_t integer = 0) {
        out_.values.push_back(value);
        if (isInteger)
            out_.integers.push_back(integer);
        else
            out_.allIntegers = false;
        return true;
    }

    const std::string& text_;
    size_t pos_ = 0;
    std::vector<int64_t> shape_;
    bool shapeFixed_ = false;
    ParsedValues out_;
};

}  // namespace

ParsedValues parseNestedList(const std::string& text) { return NestedListParser(text).parse(); }

const std::vector<std::string>& enterableDtypes() {
    static const std::vector<std::string> dtypes{"float32", "float64", "float16", "bfloat16", "int64",
                                                 "int32",   "int16",   "int8",    "uint8",    "bool"};
    return dtypes;
}

std::string formatBytes(size_t bytes) {
    const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    double v = static_cast<double>(bytes);
    int u = 0;
    while (v >= 1024 && u < 4) {
        v /= 1024;
        ++u;
    }
    char buf[32];
    if (u == 0)
        std::snprintf(buf, sizeof buf, "%zu B", bytes);
    else
        std::snprintf(buf, sizeof buf, "%.1f %s", v, units[u]);
    return buf;
}

}  // namespace irscope::exec

namespace irscope::exec {

namespace {

// One element: alternating so the example shows a valid spelling of each kind.
std::string exampleElement(const std::string& dtype, size_t i) {
    if (dtype == "bool") return i % 2 ? "false" : "true";
    if (dtype.find("int") != std::string::npos) return i % 2 ? "0" : "1";
    return i % 2 ? "0.0" : "0.5";
}

std::string nested(const std::vector<int64_t>& shape, size_t dim, const std::string& dtype, size_t& counter) {
    if (dim == shape.size()) return exampleElement(dtype, counter++);
    std::string s = "[";
    for (int64_t i = 0; i < shape[dim]; ++i) s += (i ? ", " : "") + nested(shape, dim + 1, dtype, counter);
    return s + "]";
}

}  // namespace

std::string exampleValueText(const ir::Shape& irShape, const std::string& dtype) {
    const auto sizes = ir::staticSizes(irShape);
    if (!sizes) return {};  // a symbol's size is the run's
    const std::vector<int64_t>& shape = *sizes;
    int64_t count = 1;
    for (int64_t d : shape) {
        if (d < 0) return {};
        count *= d;
        if (count > 1'000'000) break;
    }
    size_t counter = 0;
    if (count <= 12) return nested(shape, 0, dtype, counter);
    std::string outline = "[";
    for (size_t i = 0; i < shape.size(); ++i) outline += (i ? ", " : "") + std::to_string(shape[i]);
    outline += "]";
    std::string first = exampleElement(dtype, 0);
    for (size_t i = 0; i < shape.size(); ++i) first = "[" + first + ", …]";
    return "a " + outline + " nested list, e.g. " + first;
}

}  // namespace irscope::exec
