#pragma once
// float <-> IEEE half / bfloat16 bit patterns, round to nearest even, so that IR
// constants written as decimal lists become the same bits PyTorch would make.
#include <cstdint>

namespace irscope::ir {

uint16_t floatToHalfBits(float value);
float halfBitsToFloat(uint16_t bits);
uint16_t floatToBFloat16Bits(float value);
float bfloat16BitsToFloat(uint16_t bits);

}  // namespace irscope::ir
