#pragma once
// JsonCursor: a strict, allocation-light pull parser over a JSON text in memory.
// Grammar is Python's json module's: standard JSON plus NaN, Infinity and
// -Infinity; strings must be valid UTF-8 without raw control characters.
// It tracks the JSON path of what it is reading so that errors can say
// "nodes[12].inputs[0].shape[1]"; line and column are computed only on error.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace irscope::ir {

class JsonCursor {
public:
    JsonCursor(std::string_view text, std::string fileName, int maxDepth);

    // A number as read: integers that fit int64 stay exact.
    struct Number {
        bool isInteger = false;
        int64_t integer = 0;
        double real = 0;
        bool integerOverflow = false;  // an integer literal beyond int64 (held in `real`)
        double asDouble() const { return isInteger ? static_cast<double>(integer) : real; }
    };

    char peek();  // next significant character, '\0' at end
    bool atEnd();
    void expect(char c, const char* what);
    bool tryConsume(char c);

    // Objects: beginObject(); while (nextKey(key)) { ...value... } - nextKey handles commas and '}'.
    void beginObject();
    bool nextKey(std::string& key);
    // Arrays: beginArray(); while (nextElement()) { ...value... }
    void beginArray();
    bool nextElement();

    void readString(std::string& out);
    Number readNumber();  // also NaN / Infinity / -Infinity
    bool readBool();
    void readNull();
    nlohmann::ordered_json readValue();  // any value, as a DOM (for attrs)
    void skipValue();
    void finish();  // only whitespace may follow the top-level value

    // Path bookkeeping: callers push a segment before reading a nested value.
    void pushKey(std::string_view key);
    void pushIndex(int64_t index);
    void pop();
    void setIndex(int64_t index);  // update the innermost index segment
    std::string path() const;

    size_t offset() const { return static_cast<size_t>(p_ - begin_); }
    // Back (or on) to a value's offset, for a second pass over part of the
    // text; only between top-level reads (no container open), with the path
    // then pushed by the caller.
    void seek(size_t offset);
    size_t size() const { return static_cast<size_t>(end_ - begin_); }
    std::string_view text() const { return {begin_, size()}; }

    [[noreturn]] void fail(const std::string& reason) const;  // at the current position
    [[noreturn]] void failAt(const char* where, const std::string& reason) const;
    // Line and column (1-based) of a byte offset.
    std::pair<int64_t, int64_t> lineColumn(size_t offset) const;
    const std::string& fileName() const { return fileName_; }

private:
    void skipWhitespace();
    void enter();
    void leave() { --depth_; }
    nlohmann::ordered_json readValueAt();
    void appendUtf8(std::string& out, uint32_t codepoint);
    uint32_t readHex4();

    const char* begin_;
    const char* p_;
    const char* end_;
    std::string fileName_;
    int maxDepth_;
    int depth_ = 0;
    struct Segment {
        std::string_view key;  // points at the caller's key string, alive while pushed
        int64_t index = -1;    // >= 0 for array elements
    };
    std::vector<Segment> path_;
    // Per open container: has an element been read yet (for comma handling).
    std::vector<bool> containerStarted_;
};

}  // namespace irscope::ir
