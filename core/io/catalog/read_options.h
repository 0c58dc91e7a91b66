#pragma once
// How readTensorFile exposes a file's tensors.
#include <string>

namespace irscope::io {

struct ReadOptions {
    // A nested dict to expose, by dotted path: "state_dict" for a Lightning
    // checkpoint, "model" or "model.encoder". Empty: every tensor in the file,
    // nested ones named with dots ("state_dict.fc1.weight").
    std::string select;
    // false: tensors point into the memory-mapped file wherever its alignment
    // allows (they keep the mapping alive); true: every tensor owns its memory.
    bool copy = false;
    // Check the CRC-32 of every zip record. Reads all data, so listing a big
    // file stops being instant; convert turns it on.
    bool verifyChecksums = false;
};

}  // namespace irscope::io
