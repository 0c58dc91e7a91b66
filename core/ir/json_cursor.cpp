#include "core/ir/json_cursor.h"

#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>

#include "core/ir/json_io.h"

namespace irscope::ir {
namespace {

std::string describeByte(char c) {
    const auto u = static_cast<unsigned char>(c);
    if (u >= 0x20 && u < 0x7f) return std::string("'") + c + "'";
    char buffer[16];
    std::snprintf(buffer, sizeof buffer, "byte 0x%02x", u);
    return buffer;
}

// Length of a valid UTF-8 sequence starting at p (first byte >= 0x80), or 0.
size_t utf8SequenceLength(const unsigned char* p, const unsigned char* end) {
    const unsigned char c = p[0];
    size_t length;
    uint32_t minimum;
    if (c >= 0xC2 && c <= 0xDF) {
        length = 2;
        minimum = 0x80;
    } else if (c >= 0xE0 && c <= 0xEF) {
        length = 3;
        minimum = 0x800;
    } else if (c >= 0xF0 && c <= 0xF4) {
        length = 4;
        minimum = 0x10000;
    } else
        return 0;
    if (static_cast<size_t>(end - p) < length) return 0;
    uint32_t codepoint = c & (0x7F >> length);
    for (size_t i = 1; i < length; ++i) {
        if ((p[i] & 0xC0) != 0x80) return 0;
        codepoint = (codepoint << 6) | (p[i] & 0x3F);
    }
    if (codepoint < minimum || codepoint > 0x10FFFF || (codepoint >= 0xD800 && codepoint <= 0xDFFF)) return 0;
    return length;
}

}  // namespace

JsonCursor::JsonCursor(std::string_view text, std::string fileName, int maxDepth)
    : begin_(text.data()),
      p_(text.data()),
      end_(text.data() + text.size()),
      fileName_(std::move(fileName)),
      maxDepth_(maxDepth) {
    // Python's json.load of a file opened as UTF-8 rejects a BOM, but
    // json.loads(bytes) and many editors accept it: tolerate it.
    if (text.size() >= 3 && std::memcmp(p_, "\xEF\xBB\xBF", 3) == 0) p_ += 3;
    path_.reserve(16);
    containerStarted_.reserve(16);
}

std::pair<int64_t, int64_t> JsonCursor::lineColumn(size_t offset) const {
    int64_t line = 1;
    const char* lineStart = begin_;
    const char* stop = begin_ + std::min(offset, size());
    for (const char* q = begin_; q < stop; ++q)
        if (*q == '\n') {
            ++line;
            lineStart = q + 1;
        }
    return {line, static_cast<int64_t>(stop - lineStart) + 1};
}

void JsonCursor::failAt(const char* where, const std::string& reason) const {
    auto [line, column] = lineColumn(static_cast<size_t>(where - begin_));
    throw LoadError(fileName_, path(), line, column, reason);
}

void JsonCursor::fail(const std::string& reason) const { failAt(p_, reason); }

void JsonCursor::seek(size_t offset) {
    if (offset > size() || !containerStarted_.empty()) fail("internal: seek inside a container or past the end");
    p_ = begin_ + offset;
    depth_ = 0;
    path_.clear();
}

std::string JsonCursor::path() const {
    std::string text;
    for (const auto& segment : path_) {
        if (segment.index >= 0) {
            text += '[' + std::to_string(segment.index) + ']';
        } else {
            if (!text.empty()) text += '.';
            text += segment.key;
        }
    }
    return text;
}

void JsonCursor::pushKey(std::string_view key) { path_.push_back({key, -1}); }
void JsonCursor::pushIndex(int64_t index) { path_.push_back({{}, index}); }
void JsonCursor::pop() { path_.pop_back(); }
void JsonCursor::setIndex(int64_t index) { path_.back().index = index; }

void JsonCursor::skipWhitespace() {
    while (p_ < end_) {
        const char c = *p_;
        if (c == ' ' || c == '\n' || c == '\r' || c == '\t')
            ++p_;
        else
            break;
    }
}

char JsonCursor::peek() {
    skipWhitespace();
    return p_ < end_ ? *p_ : '\0';
}

bool JsonCursor::atEnd() {
    skipWhitespace();
    return p_ >= end_;
}

void JsonCursor::expect(char c, const char* what) {
    skipWhitespace();
    if (p_ >= end_) fail(std::string("unexpected end of file, expected ") + what);
    if (*p_ != c) fail(std::string("expected ") + what + ", found " + describeByte(*p_));
    ++p_;
}

bool JsonCursor::tryConsume(char c) {
    skipWhitespace();
    if (p_ < end_ && *p_ == c) {
        ++p_;
        return true;
    }
    return false;
}

void JsonCursor::enter() {
    if (++depth_ > maxDepth_) fail("nesting deeper than " + std::to_string(maxDepth_) + " levels");
}

void JsonCursor::beginObject() {
    skipWhitespace();
    if (p_ >= end_) fail("unexpected end of file, expected an object");
    if (*p_ != '{') fail("expected an object, found " + describeByte(*p_));
    ++p_;
    enter();
    containerStarted_.push_back(false);
}

bool JsonCursor::nextKey(std::string& key) {
    skipWhitespace();
    if (p_ >= end_) fail("unexpected end of file inside an object");
    if (*p_ == '}') {
        ++p_;
        containerStarted_.pop_back();
        leave();
        return false;
    }
    if (containerStarted_.back()) {
        if (*p_ != ',') fail("expected ',' or '}' in object, found " + describeByte(*p_));
        ++p_;
        skipWhitespace();
        if (p_ < end_ && *p_ == '}') fail("trailing comma in object");
    }
    containerStarted_.back() = true;
    skipWhitespace();
    if (p_ >= end_) fail("unexpected end of file, expected a key");
    if (*p_ != '"') fail("expected a key in double quotes, found " + describeByte(*p_));
    readString(key);
    expect(':', "':' after key");
    return true;
}

void JsonCursor::beginArray() {
    skipWhitespace();
    if (p_ >= end_) fail("unexpected end of file, expected an array");
    if (*p_ != '[') fail("expected an array, found " + describeByte(*p_));
    ++p_;
    enter();
    containerStarted_.push_back(false);
}

bool JsonCursor::nextElement() {
    skipWhitespace();
    if (p_ >= end_) fail("unexpected end of file inside an array");
    if (*p_ == ']') {
        ++p_;
        containerStarted_.pop_back();
        leave();
        return false;
    }
    if (containerStarted_.back()) {
        if (*p_ != ',') fail("expected ',' or ']' in array, found " + describeByte(*p_));
        ++p_;
        skipWhitespace();
        if (p_ < end_ && *p_ == ']') fail("trailing comma in array");
    }
    containerStarted_.back() = true;
    return true;
}

uint32_t JsonCursor::readHex4() {
    if (end_ - p_ < 4) fail("unexpected end of file in \\u escape");
    uint32_t value = 0;
    for (int i = 0; i < 4; ++i) {
        const char c = *p_;
        value <<= 4;
        if (c >= '0' && c <= '9')
            value |= static_cast<uint32_t>(c - '0');
        else if (c >= 'a' && c <= 'f')
            value |= static_cast<uint32_t>(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F')
            value |= static_cast<uint32_t>(c - 'A' + 10);
        else
            fail("invalid \\u escape: " + describeByte(c) + " is not a hex digit");
        ++p_;
    }
    return value;
}

void JsonCursor::appendUtf8(std::string& out, uint32_t cp) {
    if (cp < 0x80) {
        out += static_cast<char>(cp);
    } else if (cp < 0x800) {
        out += static_cast<char>(0xC0 | (cp >> 6));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out += static_cast<char>(0xE0 | (cp >> 12));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | (cp >> 18));
        out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    }
}

void JsonCursor::readString(std::string& out) {
    skipWhitespace();
    if (p_ >= end_) fail("unexpected end of file, expected a string");
    if (*p_ != '"') fail("expected a string, found " + describeByte(*p_));
    const char* start = p_;
    ++p_;
    out.clear();
    for (;;) {
        // Copy the run of plain ASCII in one go: the common case by far.
        const char* run = p_;
        while (p_ < end_) {
            const auto c = static_cast<unsigned char>(*p_);
            if (c == '"' || c == '\\' || c < 0x20 || c >= 0x80) break;
            ++p_;
        }
        out.append(run, static_cast<size_t>(p_ - run));
        if (p_ >= end_) failAt(start, "unterminated string");
        const auto c = static_cast<unsigned char>(*p_);
        if (c == '"') {
            ++p_;
            return;
        }
        if (c < 0x20) fail("control character " + describeByte(*p_) + " in string (escape it)");
        if (c >= 0x80) {
            const size_t length = utf8SequenceLength(reinterpret_cast<const unsigned char*>(p_),
                                                     reinterpret_cast<const unsigned char*>(end_));
            if (!length) fail("invalid UTF-8 (" + describeByte(*p_) + ") in string");
            out.append(p_, length);
            p_ += length;
            continue;
        }
        // Escape sequence.
        ++p_;
        if (p_ >= end_) failAt(start, "unterminated string");
        const char e = *p_++;
        switch (e) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
            uint32_t cp = readHex4();
            if (cp >= 0xD800 && cp <= 0xDBFF) {
                if (end_ - p_ >= 6 && p_[0] == '\\' && p_[1] == 'u') {
                    p_ += 2;
                    const uint32_t low = readHex4();
                    if (low < 0xDC00 || low > 0xDFFF) fail("invalid UTF-16 surrogate pair in \\u escape");
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
                } else {
                    fail("lone UTF-16 surrogate in \\u escape (not representable as UTF-8)");
                }
            } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
                fail("lone UTF-16 surrogate in \\u escape (not representable as UTF-8)");
            }
            appendUtf8(out, cp);
            break;
        }
        default: failAt(p_ - 2, "invalid escape '\\" + std::string(1, e) + "' in string");
        }
    }
}

JsonCursor::Number JsonCursor::readNumber() {
    skipWhitespace();
    Number number;
    const char* start = p_;
    auto matchWord = [&](std::string_view word) {
        if (static_cast<size_t>(end_ - p_) >= word.size() && std::string_view(p_, word.size()) == word) {
            p_ += word.size();
            return true;
        }
        return false;
    };
    if (matchWord("NaN")) {
        number.real = std::numeric_limits<double>::quiet_NaN();
        return number;
    }
    if (matchWord("Infinity")) {
        number.real = std::numeric_limits<double>::infinity();
        return number;
    }
    if (matchWord("-Infinity")) {
        number.real = -std::numeric_limits<double>::infinity();
        return number;
    }
    // Validate the JSON number grammar: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
    const char* q = p_;
    if (q < end_ && *q == '-') ++q;
    if (q >= end_ || !(*q >= '0' && *q <= '9')) {
        if (p_ >= end_) fail("unexpected end of file, expected a value");
        fail("expected a value, found " + describeByte(*p_));
    }
    if (*q == '0')
        ++q;
    else
        while (q < end_ && *q >= '0' && *q <= '9') ++q;
    bool integral = true;
    if (q < end_ && *q == '.') {
        integral = false;
        ++q;
        if (q >= end_ || !(*q >= '0' && *q <= '9')) failAt(q, "expected a digit after the decimal point");
        while (q < end_ && *q >= '0' && *q <= '9') ++q;
    }
    if (q < end_ && (*q == 'e' || *q == 'E')) {
        integral = false;
        ++q;
        if (q < end_ && (*q == '+' || *q == '-')) ++q;
        if (q >= end_ || !(*q >= '0' && *q <= '9')) failAt(q, "expected a digit in the exponent");
        while (q < end_ && *q >= '0' && *q <= '9') ++q;
    }
    p_ = q;
    if (integral) {
        auto [ptr, ec] = std::from_chars(start, q, number.integer);
        if (ec == std::errc()) {
            number.isInteger = true;
            return number;
        }
        number.integerOverflow = true;
    }
    // from_chars for double: exact rounding, and overflow gives result_out_of_range;
    // Python then yields +-inf (for huge exponents) or 0.0 (underflow).
    auto [ptr, ec] = std::from_chars(start, q, number.real);
    if (ec == std::errc::result_out_of_range) {
        const bool negative = *start == '-';
        const char* exp = std::find_if(start, q, [](char c) { return c == 'e' || c == 'E'; });
        const bool tiny = exp != q && exp + 1 < q && exp[1] == '-';
        number.real =
            tiny ? (negative ? -0.0 : 0.0)
                 : (negative ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity());
    }
    return number;
}

bool JsonCursor::readBool() {
    skipWhitespace();
    if (end_ - p_ >= 4 && std::string_view(p_, 4) == "true") {
        p_ += 4;
        return true;
    }
    if (end_ - p_ >= 5 && std::string_view(p_, 5) == "false") {
        p_ += 5;
        return false;
    }
    if (p_ >= end_) fail("unexpected end of file, expected true or false");
    fail("expected true or false, found " + describeByte(*p_));
}

void JsonCursor::readNull() {
    skipWhitespace();
    if (end_ - p_ >= 4 && std::string_view(p_, 4) == "null") {
        p_ += 4;
        return;
    }
    fail("expected null");
}

nlohmann::ordered_json JsonCursor::readValue() { return readValueAt(); }

nlohmann::ordered_json JsonCursor::readValueAt() {
    switch (peek()) {
    case '{': {
        beginObject();
        auto object = nlohmann::ordered_json::object();
        std::string key;
        while (nextKey(key)) {
            pushKey(key);
            object[key] = readValueAt();  // duplicate keys: last wins, as in Python
            pop();
        }
        return object;
    }
    case '[': {
        beginArray();
        auto array = nlohmann::ordered_json::array();
        int64_t index = 0;
        pushIndex(0);
        while (nextElement()) {
            setIndex(index++);
            array.push_back(readValueAt());
        }
        pop();
        return array;
    }
    case '"': {
        std::string text;
        readString(text);
        return text;
    }
    case 't':
    case 'f': return readBool();
    case 'n': readNull(); return nullptr;
    default: {
        const Number number = readNumber();
        if (number.isInteger) return number.integer;
        return number.real;
    }
    }
}

void JsonCursor::skipValue() {
    // Same checks as readValue (the file must be valid JSON throughout), no DOM.
    switch (peek()) {
    case '{': {
        beginObject();
        std::string key;
        while (nextKey(key)) skipValue();
        return;
    }
    case '[':
        beginArray();
        while (nextElement()) skipValue();
        return;
    case '"': {
        std::string text;
        readString(text);
        return;
    }
    case 't':
    case 'f': readBool(); return;
    case 'n': readNull(); return;
    default: readNumber(); return;
    }
}

void JsonCursor::finish() {
    skipWhitespace();
    if (p_ < end_) fail("extra data after the top-level object");
}

}  // namespace irscope::ir
