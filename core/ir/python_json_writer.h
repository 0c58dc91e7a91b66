#pragma once
// Writes JSON exactly as Python's json.dump(obj, f, indent=2) does: same
// separators, same line breaks, ASCII-only strings with \uXXXX escapes, floats
// in repr() form, NaN/Infinity tokens. Used to save IRs (so torch_ir users can
// diff our output with theirs) and for `info --json`.
#include <cstdint>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace irscope::ir {

// Python's repr(float): "1.0", "0.1", "1e-05", "1e+16", "NaN", "Infinity".
std::string pythonFloatRepr(double value);
// A JSON string literal with Python's escaping (ensure_ascii=True).
void appendPythonJsonString(std::string& out, std::string_view text);

class PythonJsonWriter {
public:
    explicit PythonJsonWriter(std::string& out, int indent = 2) : out_(out), indent_(indent) {}

    void beginObject();
    void endObject();
    void beginArray();
    void endArray();
    void key(std::string_view name);  // inside an object, before each value
    void value(std::string_view text);
    void value(const char* text) { value(std::string_view(text)); }
    void value(const std::string& text) { value(std::string_view(text)); }
    void value(int64_t number);
    void value(double number);
    void value(bool flag);
    void null();
    void integerLiteral(std::string_view digits);   // an integer of any size, given as decimal digits
    void json(const nlohmann::ordered_json& json);  // any JSON value, recursively

private:
    void beforeValue();
    void newline();

    std::string& out_;
    int indent_;
    int depth_ = 0;
    bool first_ = true;  // no element written yet in the current container
    bool afterKey_ = false;
};

}  // namespace irscope::ir
