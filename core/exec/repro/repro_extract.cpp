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
    const ir::Graph& graph = index.graph();
    const bool holdsSubgraphs = std::any_of(nodes.begin(), nodes.end(), [&](int64_t i) {
        return i >= 0 && i < static_cast<int64_t>(graph.nodes.size()) &&
               !graph.nodes[static_cast<size_t>(i)].subgraphs.empty();
    });
    const bool asProgram = !archive.empty() && (requestedPath.ends_with(".pt2") || holdsSubgraphs);
    std::string irPath = requestedPath;
    if (asProgram) {
        nodes = programCutSelection(index, nodes);
        if (!irPath.ends_with(".pt2"))
            irPath = irPath.substr(0, irPath.ends_with(".json") ? irPath.size() - 5 : irPath.size()) + ".pt2";
    }
    const ir::Subgraph cut = ir::extractSubgraph(index, std::move(nodes), asProgram);
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
    if (asProgram) {
        ProgramCutRequest request{archive, {}, cut.inputs, cut.outputs, programCutExamples(cut, inputs)};
        for (const auto& n : cut.graph.nodes)
            if (!n.isGetitem()) request.nodes.push_back(n.name);
        const auto returned = writeProgramCut(request, irPath);
        expected = onlyReturned(expected, returned);
    } else {
        ir::saveGraphFile(cut.graph, irPath);
    }
    if (out.note.empty()) {
        io::writeTensorFile(inputs, inPath);
        io::writeTensorFile(expected, expPath);
        out.inputsPath = inPath;
        out.expectedPath = expPath;
    }
    return out;
}

}  // namespace irscope::exec
