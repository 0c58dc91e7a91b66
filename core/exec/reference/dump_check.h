#pragma once
// check-dump: a backend that cannot run from Python (an NPU's runtime) dumps
// one value per group it compiled; each group is judged by itself. irscope
// recomputes the group from the backend's own values of its dumped
// predecessors (running whatever ungrouped ops lie between), so a group that
// only inherits an earlier group's error is not blamed: it is marked as
// inheriting. A dumped value is first brought back to the program's layout
// and dtype (NHWC, int8 with a scale); a quantized one is compared within
// half a quantization step plus the float tolerance.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/io/tensor_map.h"
#include "core/ir/dump_groups.h"
#include "core/ir/graph.h"

namespace irscope::exec {

struct DumpGroupResult {
    std::string group, module;
    std::vector<std::string> nodes, outputs;
    std::vector<std::string> dumpKeys;  // the dump's key of each output
    double maxAbsLocal = 0;             // backend against the group recomputed from the backend's inputs
    double maxAbsProgram = 0;           // backend against the whole program's own run
    double allowed = 0;                 // the largest |difference| the tolerance allows there
    std::string verdict;                // "backend fault" | "inherits" | "ok"
    std::string detail;                 // why, in words
};

struct DumpCheckReport {
    std::vector<DumpGroupResult> groups;  // in execution order
    int firstFault = -1;                  // index into groups
};

struct DumpCheckRequest {
    io::TensorMap weights, constants, inputs;
    io::TensorMap dump;
    std::string dumpPath, groupsPath;
    std::vector<ir::DumpGroup> groups;
    // The nodes of a module path (nullopt: no such module), from the
    // program's module tree (modules/ is the app's to consult).
    std::function<std::optional<std::vector<int64_t>>(const std::string& module)> moduleNodes;
};

// Throws std::runtime_error naming the file, the key or group, and the
// reason, before any comparison: a dump key that matches nothing, a group
// whose module, node or tensor does not exist, a layout that does not fit the
// shape, a value the run lacks.
DumpCheckReport checkDump(const ir::Graph& graph, const DumpCheckRequest& request);

// A backend's dump: a tensor file, or a folder of them (a .npy is keyed by
// its file's stem). Throws naming the file for a key two files hold, or a
// folder without a tensor file.
io::TensorMap readDumpValues(const std::string& path);

// The report as check-backend's JSON shape, with "backend": "dump".
std::string dumpCheckJson(const DumpCheckReport& report, const std::string& program, const std::string& dump);

}  // namespace irscope::exec
