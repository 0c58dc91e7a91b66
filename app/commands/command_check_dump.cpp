// irscope check-dump: a backend's dump (one value per group it compiled, in
// its own layout and dtype) against the program, each group judged by itself
// (core/exec/reference/dump_check.h). For backends that cannot run from Python;
// a torch.compile backend is checked by `irscope check-backend` (Python).
#include <ATen/ATen.h>

#include <algorithm>
#include <fstream>
#include <iostream>
#include <sstream>

#include "cli/arg_parser.h"
#include "cli/cli_io.h"
#include "core/exec/reference/dump_check.h"
#include "core/io/catalog/pt2/pt2_archive.h"
#include "core/io/tensor_file.h"
#include "core/ir/dump_groups.h"
#include "core/ir/file_replace.h"
#include "core/ir/graph_index.h"
#include "core/modules/module_inference.h"

namespace irscope::cli {
namespace {

std::string readText(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error(path + ": cannot open");
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

int runCheckDump(const std::vector<std::string>& args) {
    const auto p = parseArgs(
        args,
        {{"--quiet"}, {"--dump", "--groups", "--inputs", "--weights", "--constants", "--report"}, {{"-q", "--quiet"}}});
    requirePositional(p, 1, 1, "PROGRAM (a .pt2 or a torch_ir JSON)");
    if (!p.has("--dump") || !p.has("--groups")) throw UsageError("--dump DUMP and --groups GROUPS.json are required");
    const std::string programPath = p.positional[0];
    const auto graph = loadGraphOrReport("check-dump", programPath);
    if (!graph) return kExitUsage;
    try {
        exec::DumpCheckRequest request;
        request.dumpPath = *p.value("--dump");
        request.groupsPath = *p.value("--groups");
        request.groups = ir::parseDumpGroups(readText(request.groupsPath), request.groupsPath);
        request.dump = exec::readDumpValues(request.dumpPath);
        request.weights = io::readTensorFile(p.value("--weights").value_or(programPath));
        if (auto c = p.value("--constants")) request.constants = io::readTensorFile(*c);
        std::optional<std::string> inputs = p.value("--inputs");
        if (!inputs && graph->fileHoldsExampleInputs) inputs = programPath;
        if (!inputs) throw UsageError("--inputs FILE: the inputs the backend ran on");
        io::ReadOptions options;
        io::selectInputsOf(*inputs, options);
        request.inputs = io::readTensorFile(*inputs, options);
        const ir::GraphIndex index(*graph);
        const modules::ModuleTree tree = modules::inferModuleTree(*graph, index);
        request.moduleNodes = [&](const std::string& path) -> std::optional<std::vector<int64_t>> {
            const modules::ModuleId m = tree.find(path);
            if (m == modules::kNoModule) return std::nullopt;
            std::vector<int64_t> out;
            for (size_t i = 0; i < graph->nodes.size(); ++i)
                if (tree.isAncestorOrSelf(m, tree.moduleOfNode(static_cast<int64_t>(i))))
                    out.push_back(static_cast<int64_t>(i));
            return out;
        };
        const exec::DumpCheckReport report = exec::checkDump(*graph, request);
        if (!p.has("--quiet")) {
            std::cout << report.groups.size() << " groups of " << programPath << " checked against " << request.dumpPath
                      << ", each on the backend's own inputs\n";
            for (const auto& g : report.groups)
                std::cout << "  "
                          << (g.verdict == "backend fault" ? "FAULT    "
                              : g.verdict == "inherits"    ? "inherits "
                                                           : "ok       ")
                          << g.group << " (" << g.nodes.size() << " ops): " << g.detail << "\n";
            if (report.firstFault < 0)
                std::cout << "no backend fault\n";
            else
                std::cout << "first backend fault: group "
                          << report.groups[static_cast<size_t>(report.firstFault)].group << "\n";
        }
        if (auto out = p.value("--report"))
            ir::replaceFileContents(*out, exec::dumpCheckJson(report, programPath, request.dumpPath));
        return report.firstFault < 0 ? kExitOk : kExitFailure;
    } catch (const UsageError&) {
        throw;
    } catch (const std::exception& e) {
        std::cerr << "irscope check-dump: " << e.what() << "\n";
        return kExitUsage;
    }
}

const CommandRegistration commandCheckDumpRegistration{
    Command{"check-dump", "judge a backend's dumped values group by group, each on the backend's own inputs",
            "Usage: irscope check-dump PROGRAM --dump DUMP --groups GROUPS.json [--inputs FILE]\n"
            "                          [--weights W] [--constants C] [--report R.json] [-q]\n\n"
            "DUMP is a tensor file or a folder of them (.npy keyed by file stem) of the\n"
            "backend's values, keyed by group name (NAME.k for a group's k-th output), or\n"
            "by the tensor or node names of a group's outputs. GROUPS.json says what each\n"
            "group is and how the backend wrote it:\n"
            "  {\"groups\": {\"stem\": {\"module\": \"features.0\", \"layout\": \"NHWC\"},\n"
            "              \"block\": {\"nodes\": [\"conv2d_3\", \"relu_3\"], \"dtype\": \"int8\",\n"
            "                        \"scale\": 0.05, \"zero_point\": 0},\n"
            "              \"head\": {\"outputs\": [\"linear\"]}}}\n"
            "Each group is recomputed by the program from the backend's own values of\n"
            "every group before it (the ops between run as the program's): a group wrong\n"
            "on its own inputs is a backend fault; one right there but off from the\n"
            "program's own run only inherits an earlier group's error. A quantized value\n"
            "is compared within half a quantization step plus the float tolerance.\n"
            "The inputs default to a .pt2's example inputs, the weights to its own.\n\n"
            "Exit status: 0 no backend fault; 1 a backend fault (the first is named);\n"
            "2 bad arguments or input (a dump key matching nothing, a layout that does\n"
            "not fit, a module that does not exist: named with the file and key).\n",
            runCheckDump}};

}  // namespace
}  // namespace irscope::cli
