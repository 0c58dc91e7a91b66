#pragma once
// The two readers behind parseSafetensorsHeader (safetensors_header.h). Every
// writer (huggingface's, torch's, irscope's) emits one canonical shape:
// plain ASCII names, each tensor {"dtype", "shape", "data_offsets"} once,
// integers without signs or exponents. scanCanonicalHeader reads exactly
// that shape at memory speed, with no JSON library, and declines anything
// else, valid or not; readHeaderJson then reads it with a full JSON parser
// and the precise messages. Declining is never an error, so the fast path
// never decides what a file means on its own: the differential fuzzer
// (fuzz_safetensors_header) holds the two to the same answer.
#include <optional>
#include <string_view>

#include "core/io/catalog/safetensors_header.h"

namespace irscope::io {

// text: the JSON after the 8-byte size. Tensors and metadata only (no
// tiling checks, no dataStart). nullopt when the text is not canonical.
std::optional<SafetensorsHeader> scanCanonicalHeader(std::string_view text);

// The full reader: nlohmann's SAX parser; throws FormatError.
SafetensorsHeader readHeaderJson(std::string_view text);

}  // namespace irscope::io
