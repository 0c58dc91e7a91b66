#include "core/ir/python_json_writer.h"

#include <charconv>
#include <cmath>
#include <cstdlib>

namespace irscope::ir {

std::string pythonFloatRepr(double value) {
    if (std::isnan(value)) return "NaN";
    if (std::isinf(value)) return value > 0 ? "Infinity" : "-Infinity";
    if (value == 0) return std::signbit(value) ? "-0.0" : "0.0";
    // Shortest round-trip digits, then Python's layout rule: fixed notation when
    // the decimal point falls within [-4, 16) of the first digit, else exponent.
    char buffer[64];
    auto result = std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::scientific);
    std::string_view sci(buffer, static_cast<size_t>(result.ptr - buffer));
    bool negative = sci.front() == '-';
    if (negative) sci.remove_prefix(1);
    const size_t ePos = sci.find('e');
    std::string digits;
    for (char c : sci.substr(0, ePos))
        if (c != '.') digits += c;
    const int exponent = std::atoi(std::string(sci.substr(ePos + 1)).c_str());
    const int decpt = exponent + 1;  // value = 0.DIGITS x 10^decpt
    std::string text = negative ? "-" : "";
    if (decpt > -4 && decpt <= 16) {
        if (decpt <= 0) {
            // Appended piecewise: GCC 12 warns (-Wrestrict, falsely) on "literal" + std::string at -O3.
            text += "0.";
            text.append(static_cast<size_t>(-decpt), '0');
            text += digits;
        } else if (static_cast<size_t>(decpt) >= digits.size()) {
            text += digits + std::string(static_cast<size_t>(decpt) - digits.size(), '0') + ".0";
        } else {
            text += digits.substr(0, static_cast<size_t>(decpt)) + "." + digits.substr(static_cast<size_t>(decpt));
        }
    } else {
        text += digits.substr(0, 1);
        if (digits.size() > 1) text.append(".").append(digits, 1);
        const int e = decpt - 1;
        text += e < 0 ? "e-" : "e+";
        const int magnitude = std::abs(e);
        if (magnitude < 10) text += '0';
        text += std::to_string(magnitude);
    }
    return text;
}

void appendPythonJsonString(std::string& out, std::string_view text) {
    static const char* hex = "0123456789abcdef";
    auto appendEscape = [&](uint32_t unit) {
        out += "\\u";
        for (int shift = 12; shift >= 0; shift -= 4) out += hex[(unit >> shift) & 0xF];
    };
    out += '"';
    for (size_t i = 0; i < text.size(); ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        switch (c) {
        case '"': out += "\\\""; continue;
        case '\\': out += "\\\\"; continue;
        case '\n': out += "\\n"; continue;
        case '\r': out += "\\r"; continue;
        case '\t': out += "\\t"; continue;
        case '\b': out += "\\b"; continue;
        case '\f': out += "\\f"; continue;
        default: break;
        }
        if (c < 0x20 || c == 0x7f) {  // Python escapes everything outside ' '..'~'
            appendEscape(c);
            continue;
        }
        if (c < 0x80) {
            out += static_cast<char>(c);
            continue;
        }
        // Decode one UTF-8 sequence (the reader validated it) and escape it as UTF-16.
        uint32_t codepoint = 0;
        int extra = c >= 0xF0 ? 3 : c >= 0xE0 ? 2 : 1;
        codepoint = c & (0x3F >> extra);
        for (int k = 0; k < extra && i + 1 < text.size(); ++k)
            codepoint = (codepoint << 6) | (static_cast<unsigned char>(text[++i]) & 0x3F);
        if (codepoint >= 0x10000) {
            codepoint -= 0x10000;
            appendEscape(0xD800 + (codepoint >> 10));
            appendEscape(0xDC00 + (codepoint & 0x3FF));
        } else {
            appendEscape(codepoint);
        }
    }
    out += '"';
}

void PythonJsonWriter::newline() {
    out_ += '\n';
    out_.append(static_cast<size_t>(depth_ * indent_), ' ');
}

void PythonJsonWriter::beforeValue() {
    if (afterKey_) {
        afterKey_ = false;
        return;
    }
    if (depth_ > 0) {
        if (!first_) out_ += ',';
        newline();
    }
    first_ = false;
}

void PythonJsonWriter::key(std::string_view name) {
    if (!first_) out_ += ',';
    newline();
    first_ = false;
    appendPythonJsonString(out_, name);
    out_ += ": ";
    afterKey_ = true;
}

void PythonJsonWriter::beginObject() {
    beforeValue();
    out_ += '{';
    ++depth_;
    first_ = true;
}

void PythonJsonWriter::endObject() {
    --depth_;
    if (!first_) newline();  // "{}" for an empty object, as Python writes it
    out_ += '}';
    first_ = false;
}

void PythonJsonWriter::beginArray() {
    beforeValue();
    out_ += '[';
    ++depth_;
    first_ = true;
}

void PythonJsonWriter::endArray() {
    --depth_;
    if (!first_) newline();
    out_ += ']';
    first_ = false;
}

void PythonJsonWriter::value(std::string_view text) {
    beforeValue();
    appendPythonJsonString(out_, text);
}

void PythonJsonWriter::value(int64_t number) {
    beforeValue();
    out_ += std::to_string(number);
}

void PythonJsonWriter::value(double number) {
    beforeValue();
    out_ += pythonFloatRepr(number);
}

void PythonJsonWriter::value(bool flag) {
    beforeValue();
    out_ += flag ? "true" : "false";
}

void PythonJsonWriter::integerLiteral(std::string_view digits) {
    beforeValue();
    out_ += digits;
}

void PythonJsonWriter::null() {
    beforeValue();
    out_ += "null";
}

void PythonJsonWriter::json(const nlohmann::ordered_json& json) {
    using Type = nlohmann::ordered_json::value_t;
    switch (json.type()) {
    case Type::object:
        beginObject();
        for (const auto& [k, v] : json.items()) {
            key(k);
            this->json(v);
        }
        endObject();
        break;
    case Type::array:
        beginArray();
        for (const auto& element : json) this->json(element);
        endArray();
        break;
    case Type::string: value(std::string_view(json.get_ref<const std::string&>())); break;
    case Type::boolean: value(json.get<bool>()); break;
    case Type::number_integer: value(json.get<int64_t>()); break;
    case Type::number_unsigned:
        beforeValue();
        out_ += std::to_string(json.get<uint64_t>());
        break;
    case Type::number_float: value(json.get<double>()); break;
    case Type::null:
    case Type::discarded:
    case Type::binary: null(); break;
    }
}

}  // namespace irscope::ir
