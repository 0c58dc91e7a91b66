#include "core/exec/repro/repro_extract.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <filesystem>
#include <stdexcept>

#include "core/exec/debugger/debugger.h"
#include "core/exec/engine/executor.h"
#include "core/exec/engine/session.h"
#include "core/exec/repro/cut_values.h"
#include "core/exec/repro/program_cut.h"
#include "core/io/tensor_file.h"
#include "core/ir/graph_index.h"
#include "core/ir/json_io.h"

namespace irscope::exec {

Extracted extractRepro(Debugger& debugger, std::vector<int64_t> nodes, const std::string& requestedPath,
                       const std::string& archive) {
    namespace fs = std::filesystem;
    Session& session = debugger.session();
    const ir::GraphIndex& index = session.executor().index();
    const CutPlan plan = planCut(index, std::move(nodes), archive, requestedPath);
    const std::string& irPath = plan.path;
    const ir::Subgraph cut = ir::extractSubgraph(index, plan.nodes, plan.program);
    Extracted out;
    out.nodes = cut.graph.nodes.size();
    out.inputs = cut.inputs;
    out.outputs = cut.outputs;
    out.irPath = irPath;
    const bool replacing = fs::exists(irPath);
    const auto [inPath, expPath] = ir::cutFilesBeside(irPath);

    io::TensorMap inputs, expected;
    try {
        if (debugger.checks().errorMode() == ErrorMode::Local)
            throw std::runtime_error(
                "in local error mode the run holds the reference's values in place of the nodes' own; switch to "
                "cumulative error to extract with the values");
        int64_t last = -1;
        for (const auto& node : cut.graph.nodes) last = std::max(last, *index.nodeIndex(node.name));
        if (session.cursor() <= last) {
            pinCut(session, cut);
            const RunStatus r = debugger.runTo(last);
            if (r.failed) throw std::runtime_error(r.message);
            if (session.cursor() <= last)
                throw std::runtime_error(r.message +
                                         ", before the selection's last node: continue the run, then "
                                         "extract again");
        }
        cutValues(session, cut, inputs, expected);
        if (!replacing && (fs::exists(inPath) || fs::exists(expPath)))
            throw std::runtime_error((fs::exists(inPath) ? inPath : expPath) +
                                     " exists and is not this extract's: choose another name");
    } catch (const std::runtime_error& e) {
        out.note = std::string("values not written: ") + e.what();
        inputs = {};
    }
    expected = writeCut(plan, archive, cut, inputs, expected);
    if (out.note.empty()) {
        io::writeTensorFile(inputs, inPath);
        io::writeTensorFile(expected, expPath);
        out.inputsPath = inPath;
        out.expectedPath = expPath;
    }
    return out;
}

}  // namespace irscope::exec
