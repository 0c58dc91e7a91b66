#pragma once
// "Extract as runnable IR…" from a debugging session: the cut from
// core/ir/subgraph.h, the values at it from the session's run
// (core/exec/repro/cut_values.h), written beside each other. A function of
// the repro floor on the debugger below it (the debugger never calls up
// into repro). Torch-free header.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace irscope::exec {

class Debugger;

struct Extracted {
    size_t nodes = 0;
    std::vector<std::string> inputs, outputs;      // tensor names at the cut
    std::string irPath, inputsPath, expectedPath;  // the value files are "" when not written
    std::string note;                              // why the values were not written, if they were not
};

// Cuts `nodes` (indices) out as a runnable IR at `irPath`, with the values at
// the cut from `debugger`'s run beside it (<stem>.inputs.pt,
// <stem>.expected.pt): runs up to the selection's last node first when it
// has not got there. Value files are replaced only when `irPath` itself
// existed (the user chose to replace that extract). `archive`: the .pt2 the
// graph was read from ("" for a torch_ir JSON); a cut of it that holds a
// higher-order op, or asked for as a .pt2, is written as a program
// (program_cut.h) at <stem>.pt2 (Extracted::irPath says where). Throws
// std::invalid_argument (the selection) or std::runtime_error (a file).
Extracted extractRepro(Debugger& debugger, std::vector<int64_t> nodes, const std::string& irPath,
                       const std::string& archive = {});

}  // namespace irscope::exec
