#pragma once
// How readTensorFile exposes a file's tensors.
#include <cstddef>
#include <functional>
#include <stdexcept>
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
    // Called while the tensors are made (every few hundred, and at the end)
    // with how many are done of how many: a 70,000-entry checkpoint is read
    // behind a progress bar. Return false to stop: the read then throws
    // ReadCancelled, and nothing read so far is kept.
    std::function<bool(size_t done, size_t total)> progress;
};

struct ReadCancelled : std::runtime_error {
    ReadCancelled() : std::runtime_error("reading cancelled") {}
};

}  // namespace irscope::io
