#include "core/exec/repro/program_cut.h"

#include <caffe2/serialize/inline_container.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <stdexcept>
#include <unordered_map>
#include <unordered_set>

#include <nlohmann/json.hpp>

#include "core/exec/engine/attr_convert.h"
#include "core/exec/values/random_inputs.h"
#include "core/io/catalog/mapped_file.h"
#include "core/io/catalog/pt2/pt2_archive.h"
#include "core/io/catalog/zip_reader.h"
#include "core/io/writers/torch_save_arguments.h"
#include "core/ir/archive_path.h"
#include "core/ir/graph_index.h"
#include "core/ir/json_io.h"
#include "core/ir/symbolic_ops.h"

namespace irscope::exec {

namespace {

using json = nlohmann::ordered_json;

// The values an argument reads: tensors and symbolic values by name. A
// subgraph (as_graph) is closed over its own inputs, which the op passes as
// arguments of its own: it is not looked into.
void namesIn(const json& arg, std::unordered_set<std::string>& out) {
    if (arg.is_array()) {
        for (const auto& a : arg) namesIn(a, out);
        return;
    }
    if (!arg.is_object()) return;
    for (const auto& [key, value] : arg.items()) {
        if (key == "as_graph") continue;
        if (key == "as_tensor" && value.is_object() && value.contains("name")) {
            out.insert(value["name"].get<std::string>());
        } else if (key == "as_tensors" && value.is_array()) {
            for (const auto& t : value)
                if (t.is_object() && t.contains("name")) out.insert(t["name"].get<std::string>());
        } else if (key == "as_name" && value.is_string()) {
            out.insert(value.get<std::string>());
        } else {
            namesIn(value, out);
        }
    }
}

// The one placeholder name of an input spec's graph input.
std::string placeholderOf(const json& graphInput) {
    std::unordered_set<std::string> names;
    namesIn(graphInput, names);
    return names.size() == 1 ? *names.begin() : std::string();
}

// torch.utils._pytree's serialized spec: a leaf, and a tuple of specs.
json leafSpec() { return json{{"type", nullptr}, {"context", nullptr}, {"children_spec", json::array()}}; }
json tupleSpec(json children) {
    return json{{"type", "builtins.tuple"}, {"context", "null"}, {"children_spec", std::move(children)}};
}

std::string specText(const json& spec) { return json::array({1, spec}).dump(); }

json tensorArg(const std::string& name) { return json{{"as_tensor", json{{"name", name}}}}; }

struct Record {
    std::string name;  // without the archive's top folder
    std::string_view bytes;
};

// A cut written as a program keeps a node whose tuple irscope reads through
// getitem nodes together with them: the program has no getitem node (its
// node makes the tuple's elements by name), so a getitem goes with its producer.
// A size the cut reads (sym_size, arithmetic on sizes) is computed inside it
// too, from the tensors it is the size of: a program's inputs are tensors.
std::vector<int64_t> programSelection(const ir::GraphIndex& index, const std::vector<int64_t>& nodes) {
    const ir::Graph& g = index.graph();
    std::vector<char> selected(g.nodes.size(), 0);
    std::vector<int64_t> todo(nodes.begin(), nodes.end());
    while (!todo.empty()) {
        const auto i = static_cast<size_t>(todo.back());
        todo.pop_back();
        if (selected[i]) continue;
        selected[i] = 1;
        for (size_t k = 0; k < g.nodes[i].inputs.size(); ++k) {
            const ir::ValueSource& src = index.source(static_cast<int64_t>(i), static_cast<int64_t>(k));
            if (src.kind != ir::ValueSource::Kind::NodeOutput) continue;
            const std::string& op = g.nodes[static_cast<size_t>(src.index)].opType;
            if (ir::isSymbolicOpType(op) || op.rfind("aten.sym_", 0) == 0 || op.rfind("aten.item", 0) == 0 ||
                op.rfind("aten._local_scalar_dense", 0) == 0)
                todo.push_back(src.index);
        }
    }
    std::vector<int64_t> out;
    for (size_t i = 0; i < g.nodes.size(); ++i) {
        const ir::OpNode& n = g.nodes[i];
        bool keep = selected[i] != 0;
        if (n.isGetitem() && !n.inputs.empty()) {
            const ir::ValueSource& src = index.source(static_cast<int64_t>(i), 0);
            keep = src.kind == ir::ValueSource::Kind::NodeOutput && selected[static_cast<size_t>(src.index)];
        }
        if (keep) out.push_back(static_cast<int64_t>(i));
    }
    return out;
}

// A program's example inputs: the values at the cut when there are some,
// else zeros of the inputs' shapes and dtypes.
std::vector<at::Tensor> exampleInputs(const ir::Subgraph& cut, const io::TensorMap& values) {
    std::vector<at::Tensor> out;
    for (const auto& name : cut.inputs) {
        const auto meta = std::find_if(cut.graph.graphInputs.begin(), cut.graph.graphInputs.end(),
                                       [&](const ir::TensorMeta& m) { return m.name == name; });
        if (meta == cut.graph.graphInputs.end()) {
            out.emplace_back();  // not a tensor input
            continue;
        }
        if (const at::Tensor* t = values.find(name)) {
            out.push_back(t->contiguous());
            continue;
        }
        out.push_back(
            at::zeros(concreteInputShape(meta->shape), scalarTypeOfIrDtype(meta->dtype).value_or(at::kFloat)));
    }
    return out;
}

io::TensorMap onlyReturned(const io::TensorMap& expected, const std::vector<std::string>& returned) {
    io::TensorMap out;
    for (const auto& e : expected)
        if (std::find(returned.begin(), returned.end(), e.name) != returned.end())
            out.insert(e.name, e.tensor, e.source);
    return out;
}

}  // namespace

std::vector<std::string> writeProgramCut(const ProgramCutRequest& request, const std::string& outPath) {
    const ir::ArchivePath where = ir::splitArchivePath(request.archive);
    const auto fail = [&](const std::string& why) { throw std::runtime_error(where.file + ": " + why); };
    const auto mapped = io::MappedFile::open(where.file);
    const io::ZipReader zip(mapped->bytes());
    const auto programs = io::pt2Programs(zip);
    if (programs.empty()) fail("not a torch.export archive");
    const io::Pt2Program& program = io::choosePt2Program(programs, where.program);
    if (program.weightsConfigEntry.empty())
        fail(
            "written by PyTorch before 2.8 (serialized_exported_program.json): cutting a program needs the 2.8 "
            "layout; save it again with a newer torch.export.save");
    const std::string top = zip.topFolder() + "/";
    const auto recordText = [&](const std::string& entry) {
        const io::ZipRecord* r = zip.find(entry);
        if (!r) fail("has no record '" + entry + "'");
        return json::parse(zip.data(*r));
    };
    json model = recordText(program.graphEntry);
    json& gm = model.at("graph_module");
    json& graph = gm.at("graph");
    json& signature = gm.at("signature");

    // The kept nodes, the values they make and the values they read.
    const std::unordered_set<std::string> keep(request.nodes.begin(), request.nodes.end());
    json keptNodes = json::array();
    std::unordered_set<std::string> made, read;
    for (const auto& node : graph.at("nodes")) {
        if (!keep.count(node.value("name", ""))) continue;
        namesIn(node.at("outputs"), made);
        namesIn(node.at("inputs"), read);
        keptNodes.push_back(node);
    }
    if (keptNodes.empty()) fail("none of the cut's nodes is a node of program '" + program.name + "'");
    std::unordered_set<std::string> outside;
    for (const auto& name : read)
        if (!made.count(name)) outside.insert(name);

    // Weights, buffers and constants the kept nodes read keep their specs;
    // every other value from outside is one of the cut's inputs, a user input.
    const json& oldInputs = graph.at("inputs");
    const json& oldSpecs = signature.at("input_specs");
    if (oldInputs.size() != oldSpecs.size()) fail("its graph inputs and input specs differ in number");
    json inputs = json::array(), specs = json::array();
    std::set<std::string> parameters, constants;
    for (size_t i = 0; i < oldSpecs.size(); ++i) {
        const std::string name = placeholderOf(oldInputs[i]);
        if (!outside.count(name) || oldSpecs[i].contains("user_input")) continue;
        inputs.push_back(oldInputs[i]);
        specs.push_back(oldSpecs[i]);
        const json& spec = oldSpecs[i];
        if (spec.contains("parameter")) parameters.insert(spec["parameter"].value("parameter_name", ""));
        if (spec.contains("buffer")) parameters.insert(spec["buffer"].value("buffer_name", ""));
        if (spec.contains("tensor_constant"))
            constants.insert(spec["tensor_constant"].value("tensor_constant_name", ""));
        outside.erase(name);
    }
    const json& tensorValues = graph.at("tensor_values");
    json forwardArgNames = json::array(), inputLeaves = json::array();
    std::vector<at::Tensor> examples;
    if (request.sampleInputs.size() != request.inputs.size())
        throw std::runtime_error(outPath + ": " + std::to_string(request.sampleInputs.size()) +
                                 " example inputs for a cut with " + std::to_string(request.inputs.size()) + " inputs");
    for (size_t k = 0; k < request.inputs.size(); ++k) {
        const std::string& name = request.inputs[k];
        if (!outside.count(name)) continue;  // read by irscope's getitem only, or a weight
        if (!tensorValues.contains(name))
            fail("the cut reads '" + name +
                 "', a size computed by a node outside it; a program's inputs are tensors: add that node to the "
                 "selection");
        inputs.push_back(tensorArg(name));
        specs.push_back(json{{"user_input", json{{"arg", tensorArg(name)}}}});
        forwardArgNames.push_back(name);
        examples.push_back(request.sampleInputs[k]);
        inputLeaves.push_back(leafSpec());
        outside.erase(name);
    }
    if (!outside.empty())
        fail("the cut reads '" + *outside.begin() + "', which is neither made outside it nor an input of the program");

    json outputs = json::array(), outputSpecs = json::array(), outputLeaves = json::array();
    std::vector<std::string> returned;
    for (const auto& name : request.outputs) {
        if (!made.count(name)) fail("the cut's output '" + name + "' is not made by its nodes");
        if (!tensorValues.contains(name)) continue;  // a size or a condition: not returned
        outputs.push_back(tensorArg(name));
        outputSpecs.push_back(json{{"user_output", json{{"arg", tensorArg(name)}}}});
        outputLeaves.push_back(leafSpec());
        returned.push_back(name);
    }
    if (outputs.empty()) fail("the cut hands on no tensor (only sizes): nothing to return");

    graph["nodes"] = std::move(keptNodes);
    graph["inputs"] = std::move(inputs);
    graph["outputs"] = std::move(outputs);
    graph["is_single_tensor_return"] = false;
    signature["input_specs"] = std::move(specs);
    signature["output_specs"] = std::move(outputSpecs);
    // The call signature of the program itself; the submodules' recorded
    // signatures name values the cut no longer has.
    json callGraph = json::array();
    const json oldCallGraph = gm.value("module_call_graph", json::array());
    for (const auto& entry : oldCallGraph) {
        if (entry.value("fqn", "") == "") {
            json root = entry;
            json sig = json::object();
            sig["inputs"] = json::array();
            sig["outputs"] = json::array();
            sig["in_spec"] = specText(tupleSpec(
                json::array({tupleSpec(inputLeaves),
                             json{{"type", "builtins.dict"}, {"context", "[]"}, {"children_spec", json::array()}}})));
            sig["out_spec"] = specText(outputLeaves.size() == 1 ? leafSpec() : tupleSpec(outputLeaves));
            sig["forward_arg_names"] = forwardArgNames;
            root["signature"] = std::move(sig);
            callGraph.push_back(std::move(root));
        } else if (entry.value("signature", json()).is_null()) {
            callGraph.push_back(entry);
        }
    }
    gm["module_call_graph"] = std::move(callGraph);
    // Guards on the inputs (L['x'].size()[2] == ...) hold where the cut keeps
    // every input they name; the others speak of inputs the cut does not have.
    if (model.contains("guards_code") && model["guards_code"].is_array()) {
        json guards = json::array();
        for (const auto& guard : model["guards_code"]) {
            const std::string text = guard.is_string() ? guard.get<std::string>() : std::string();
            bool kept = !text.empty();
            for (size_t at = text.find("L['"); kept && at != std::string::npos; at = text.find("L['", at + 3)) {
                const size_t end = text.find("']", at + 3);
                const std::string name = end == std::string::npos ? "" : text.substr(at + 3, end - at - 3);
                kept = std::find(forwardArgNames.begin(), forwardArgNames.end(), name) != forwardArgNames.end();
            }
            if (kept) guards.push_back(guard);
        }
        model["guards_code"] = std::move(guards);
    }

    // Weights and constants: only those the cut reads, with their files.
    std::vector<Record> records;
    std::unordered_set<std::string> keptFiles;
    const auto pruneConfig = [&](const std::string& entry, const std::set<std::string>& names,
                                 const std::string& folder) {
        if (entry.empty()) return std::string();
        json config = recordText(entry);
        json kept = json::object();
        const json entries = config.value("config", json::object());
        for (const auto& [name, value] : entries.items())
            if (names.count(name)) {
                kept[name] = value;
                keptFiles.insert(folder + value.value("path_name", ""));
            }
        config["config"] = std::move(kept);
        return config.dump();
    };
    const std::string weightsConfig = pruneConfig(program.weightsConfigEntry, parameters, top + "data/weights/");
    const std::string constantsConfig = pruneConfig(program.constantsConfigEntry, constants, top + "data/constants/");
    const std::string modelText = model.dump();
    const std::string sampleInputs = io::torchSaveOfArguments(examples, outPath);
    const auto relative = [&](const std::string& entry) { return entry.substr(top.size()); };
    records.push_back({relative(program.graphEntry), modelText});
    records.push_back({relative(program.weightsConfigEntry), weightsConfig});
    records.push_back({relative(program.sampleInputsEntry), sampleInputs});
    if (!program.constantsConfigEntry.empty())
        records.push_back({relative(program.constantsConfigEntry), constantsConfig});
    for (const auto& r : zip.records()) {
        if (r.name.rfind(top, 0) != 0) continue;
        const std::string name = r.name.substr(top.size());
        const bool archiveFact = name == "archive_format" || name == "archive_version" || name == "byteorder" ||
                                 name == ".data/serialization_id";
        if (archiveFact || keptFiles.count(r.name)) records.push_back({name, zip.data(r)});
    }

    namespace fs = std::filesystem;
    const std::string temp = outPath + ".irscope-tmp";
    {
        std::ofstream out(temp, std::ios::binary | std::ios::trunc);
        if (!out) throw std::runtime_error(outPath + ": cannot write");
        caffe2::serialize::PyTorchStreamWriter writer([&](const void* data, size_t n) -> size_t {
            out.write(static_cast<const char*>(data), static_cast<std::streamsize>(n));
            return out ? n : 0;
        });
        for (const auto& r : records) writer.writeRecord(r.name, r.bytes.data(), r.bytes.size());
        writer.writeEndOfFile();
        out.flush();
        if (!out) {
            std::error_code ec;
            fs::remove(temp, ec);
            throw std::runtime_error(outPath + ": cannot write");
        }
    }
    std::error_code ec;
    fs::rename(temp, outPath, ec);
    if (ec) {
        fs::remove(temp, ec);
        throw std::runtime_error(outPath + ": cannot write: " + ec.message());
    }
    return returned;
}

CutPlan planCut(const ir::GraphIndex& index, std::vector<int64_t> nodes, const std::string& archive,
                const std::string& requestedPath) {
    const ir::Graph& graph = index.graph();
    const bool holdsSubgraphs = std::any_of(nodes.begin(), nodes.end(), [&](int64_t i) {
        return i >= 0 && i < static_cast<int64_t>(graph.nodes.size()) &&
               !graph.nodes[static_cast<size_t>(i)].subgraphs.empty();
    });
    CutPlan plan;
    plan.program = !archive.empty() && (requestedPath.ends_with(".pt2") || holdsSubgraphs);
    plan.path = requestedPath;
    plan.nodes = plan.program ? programSelection(index, nodes) : std::move(nodes);
    if (plan.program && !plan.path.ends_with(".pt2"))
        plan.path =
            plan.path.substr(0, plan.path.ends_with(".json") ? plan.path.size() - 5 : plan.path.size()) + ".pt2";
    return plan;
}

io::TensorMap writeCut(const CutPlan& plan, const std::string& archive, const ir::Subgraph& cut,
                       const io::TensorMap& inputs, const io::TensorMap& expected) {
    if (!plan.program) {
        ir::saveGraphFile(cut.graph, plan.path);
        return expected;
    }
    ProgramCutRequest request{archive, {}, cut.inputs, cut.outputs, exampleInputs(cut, inputs)};
    for (const auto& n : cut.graph.nodes)
        if (!n.isGetitem()) request.nodes.push_back(n.name);
    return onlyReturned(expected, writeProgramCut(request, plan.path));
}

}  // namespace irscope::exec
