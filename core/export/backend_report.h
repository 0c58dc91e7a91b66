#pragma once
// A backend check's report, as `irscope check-backend --report` (the Python
// package: a torch.compile backend, Inductor, AOTInductor) and `irscope
// check-dump --report` (an NPU's dump) both write it:
//   {"backend": "inductor", "program": "...",
//    "groups": [{"group", "module", "nodes": [...], "max_abs",
//                "vs_fp64": {"backend", "eager"}, "allowed", "verdict", ...}],
//    "first_fault": null | {"group", "nodes", ...}}
// read back for the window: the groups in execution order with their
// verdicts, and one number per node for the overlay (Model Explorer node
// data, node_data.h): the group's error against float64 in units of what
// the tolerance allows there, so 1 is the line between float noise and a
// backend fault. Numbers may be written "inf" / "nan" (JSON has neither).
// Torch-free.
#include <optional>
#include <string>
#include <vector>

#include "core/export/node_data.h"

namespace irscope::exporter {

struct BackendGroup {
    std::string group;   // its name ("layers.0", "cut of layers.0")
    std::string module;  // the module it stands for ("" for a list of nodes)
    std::vector<std::string> nodes;
    double error = 0;        // the backend's max |difference| (against float64 when the check had it)
    double eagerError = -1;  // eager float32's against float64 (-1: the check had none: a dump)
    double allowed = 0;      // the largest |difference| the tolerance allows there
    std::string verdict;     // "backend fault", "float noise", "ok", "inherits"
    std::string failure;     // the backend could not compile or run it: why ("" when it ran)
    std::string detail;      // the check's own words for the verdict ("" when it wrote none)
    bool fault() const { return verdict == "backend fault"; }
    // error / allowed: above 1 the backend is farther off than float noise explains.
    double excess() const;
};

struct BackendReport {
    std::string backend;  // "inductor", "dump", "module:function"
    std::string program;
    std::vector<BackendGroup> groups;        // execution order
    std::optional<BackendGroup> firstFault;  // the smallest faulting cut of the first faulting group
};

// Whether `text` is a backend check's report (an object with "backend" and "groups").
bool isBackendReport(const std::string& text);
// Throws std::runtime_error naming `file`, the place in it ("groups[2].nodes")
// and the reason.
BackendReport parseBackendReport(const std::string& text, const std::string& file);

// One number per node: its group's excess (BackendGroup::excess; a node in
// several groups, the largest), coloured green up to 1 and red above.
NodeData backendNodeData(const BackendReport& report, const std::string& graphId = {});

}  // namespace irscope::exporter
