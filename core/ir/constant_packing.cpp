#include "core/ir/constant_packing.h"

#include <cmath>
#include <cstring>

#include "core/ir/half_float.h"

namespace irscope::ir {

// ---- loading: JSON numbers -> bytes ----------------------------------------

namespace {

template <typename T>
void appendBytes(std::vector<uint8_t>& bytes, T value) {
    const size_t at = bytes.size();
    bytes.resize(at + sizeof(T));
    std::memcpy(bytes.data() + at, &value, sizeof(T));
}

}  // namespace

std::string packConstant(DType dtype, const std::vector<ConstantElement>& elements, std::vector<uint8_t>& bytes) {
    bytes.reserve(elements.size() * dtypeSize(dtype));
    auto asDouble = [](const ConstantElement& e) {
        return e.kind == ConstantElement::Kind::Real ? e.real : static_cast<double>(e.integer);
    };
    for (size_t i = 0; i < elements.size(); ++i) {
        const auto& e = elements[i];
        const double real = asDouble(e);
        switch (dtype) {
        case DType::Float32: appendBytes(bytes, static_cast<float>(real)); break;
        case DType::Float64: appendBytes(bytes, real); break;
        case DType::Float16: appendBytes(bytes, floatToHalfBits(static_cast<float>(real))); break;
        case DType::BFloat16: appendBytes(bytes, floatToBFloat16Bits(static_cast<float>(real))); break;
        case DType::Bool:
            if (e.kind == ConstantElement::Kind::Real && real != 0 && real != 1)
                return "element " + std::to_string(i) + " (" + pythonFloatRepr(real) + ") is not a bool";
            appendBytes(bytes, static_cast<uint8_t>(real != 0));
            break;
        case DType::Complex64:
        case DType::Complex128:
        case DType::Complex32: return "complex constants cannot be written as JSON lists";
        default: {
            if (e.kind == ConstantElement::Kind::Real && (std::trunc(real) != real || !std::isfinite(real)))
                return "element " + std::to_string(i) + " (" + pythonFloatRepr(real) + ") is not an integer";
            const int64_t v = e.kind == ConstantElement::Kind::Real ? static_cast<int64_t>(real) : e.integer;
            auto fits = [&](int64_t lo, int64_t hi) { return v >= lo && v <= hi; };
            bool ok = true;
            switch (dtype) {
            case DType::Int8:
                ok = fits(INT8_MIN, INT8_MAX);
                if (ok) appendBytes(bytes, static_cast<int8_t>(v));
                break;
            case DType::Int16:
                ok = fits(INT16_MIN, INT16_MAX);
                if (ok) appendBytes(bytes, static_cast<int16_t>(v));
                break;
            case DType::Int32:
                ok = fits(INT32_MIN, INT32_MAX);
                if (ok) appendBytes(bytes, static_cast<int32_t>(v));
                break;
            case DType::UInt8:
                ok = fits(0, UINT8_MAX);
                if (ok) appendBytes(bytes, static_cast<uint8_t>(v));
                break;
            default: appendBytes(bytes, v); break;
            }
            if (!ok)
                return "element " + std::to_string(i) + " (" + std::to_string(v) + ") is out of range for " +
                       std::string(dtypeName(dtype));
        }
        }
    }
    return {};
}

// ---- saving: bytes -> JSON numbers -----------------------------------------

namespace {

template <typename T>
T readElement(const std::vector<uint8_t>& bytes, size_t index) {
    T value;
    std::memcpy(&value, bytes.data() + index * sizeof(T), sizeof(T));
    return value;
}

void writeConstantElement(PythonJsonWriter& w, DType dtype, const std::vector<uint8_t>& bytes, size_t i) {
    // As torch's tolist(): floats widen to Python floats, ints stay ints.
    switch (dtype) {
    case DType::Float32: w.value(static_cast<double>(readElement<float>(bytes, i))); break;
    case DType::Float64: w.value(readElement<double>(bytes, i)); break;
    case DType::Float16: w.value(static_cast<double>(halfBitsToFloat(readElement<uint16_t>(bytes, i)))); break;
    case DType::BFloat16: w.value(static_cast<double>(bfloat16BitsToFloat(readElement<uint16_t>(bytes, i)))); break;
    case DType::Bool: w.value(readElement<uint8_t>(bytes, i) != 0); break;
    case DType::Int8: w.value(static_cast<int64_t>(readElement<int8_t>(bytes, i))); break;
    case DType::Int16: w.value(static_cast<int64_t>(readElement<int16_t>(bytes, i))); break;
    case DType::Int32: w.value(static_cast<int64_t>(readElement<int32_t>(bytes, i))); break;
    case DType::UInt8: w.value(static_cast<int64_t>(readElement<uint8_t>(bytes, i))); break;
    case DType::Int64: w.value(readElement<int64_t>(bytes, i)); break;
    case DType::Complex64:
    case DType::Complex128:
    case DType::Complex32: w.null(); break;
    }
}

// The sub-list at `depth`; next: index of the next element to write.
void writeNestedData(PythonJsonWriter& w, DType dtype, const ConstantValue& value, size_t depth, size_t& next) {
    if (depth == value.shape.size()) {
        writeConstantElement(w, dtype, value.bytes, next++);
        return;
    }
    w.beginArray();
    for (int64_t i = 0; i < value.shape[depth]; ++i) writeNestedData(w, dtype, value, depth + 1, next);
    w.endArray();
}

}  // namespace

void writeConstantData(PythonJsonWriter& w, DType dtype, const ConstantValue& value) {
    size_t next = 0;
    writeNestedData(w, dtype, value, 0, next);
}

}  // namespace irscope::ir
