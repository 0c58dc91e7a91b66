#include "core/ir/half_float.h"

#include <cstring>

namespace irscope::ir {
namespace {

uint32_t bitsOf(float value) {
    uint32_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    return bits;
}

float floatOf(uint32_t bits) {
    float value;
    std::memcpy(&value, &bits, sizeof value);
    return value;
}

}  // namespace

uint16_t floatToHalfBits(float value) {
    const uint32_t bits = bitsOf(value);
    const uint32_t sign = (bits >> 16) & 0x8000u;
    const uint32_t exponent = (bits >> 23) & 0xFFu;
    uint32_t mantissa = bits & 0x7FFFFFu;
    if (exponent == 0xFF)  // inf or NaN (keep NaN quiet)
        return static_cast<uint16_t>(sign | 0x7C00u | (mantissa ? 0x200u | (mantissa >> 13) : 0u));
    const int e = static_cast<int>(exponent) - 127 + 15;
    if (e >= 0x1F) return static_cast<uint16_t>(sign | 0x7C00u);  // overflow -> inf
    if (e <= 0) {
        // Subnormal half (or zero): shift the implicit 1 in, round to nearest even.
        if (e < -10) return static_cast<uint16_t>(sign);
        mantissa |= 0x800000u;
        const int shift = 14 - e;
        uint32_t half = mantissa >> shift;
        const uint32_t remainder = mantissa & ((1u << shift) - 1);
        const uint32_t halfway = 1u << (shift - 1);
        if (remainder > halfway || (remainder == halfway && (half & 1u))) ++half;
        return static_cast<uint16_t>(sign | half);
    }
    uint32_t half = (static_cast<uint32_t>(e) << 10) | (mantissa >> 13);
    const uint32_t remainder = mantissa & 0x1FFFu;
    if (remainder > 0x1000u || (remainder == 0x1000u && (half & 1u))) ++half;  // may carry into inf: correct
    return static_cast<uint16_t>(sign | half);
}

float halfBitsToFloat(uint16_t h) {
    const uint32_t sign = (h & 0x8000u) << 16;
    const uint32_t exponent = (h >> 10) & 0x1Fu;
    uint32_t mantissa = h & 0x3FFu;
    if (exponent == 0x1F) return floatOf(sign | 0x7F800000u | (mantissa << 13));
    if (exponent == 0) {
        if (mantissa == 0) return floatOf(sign);
        int e = -1;
        do {
            ++e;
            mantissa <<= 1;
        } while (!(mantissa & 0x400u));
        return floatOf(sign | (static_cast<uint32_t>(127 - 15 - e) << 23) | ((mantissa & 0x3FFu) << 13));
    }
    return floatOf(sign | ((exponent + 127 - 15) << 23) | (mantissa << 13));
}

uint16_t floatToBFloat16Bits(float value) {
    uint32_t bits = bitsOf(value);
    if ((bits & 0x7F800000u) == 0x7F800000u && (bits & 0x7FFFFFu))
        return static_cast<uint16_t>((bits >> 16) | 0x40u);  // quiet NaN
    bits += 0x7FFFu + ((bits >> 16) & 1u);
    return static_cast<uint16_t>(bits >> 16);
}

float bfloat16BitsToFloat(uint16_t bits) { return floatOf(static_cast<uint32_t>(bits) << 16); }

}  // namespace irscope::ir
